/*===----------------------------------------------------------------------===*
 * The contract between cuda-emu's lowering of PTX's warp-level matrix
 * instructions (wmma.load/store/mma, mma.sync, ldmatrix) and the CPU
 * runtime that executes them. Plain C, no dependencies.
 *
 * Each such instruction is one services->warpSync of GPUMEM_WARP_MATRIX
 * over the full warp: `value` is the address of the lane's record (below),
 * `b` the instruction's descriptor, `c` the load's or store's stride in
 * elements, or, for the instructions with inputs and outputs, the number
 * of input words. The runtime reads every lane's inputs once all 32 lanes
 * arrived, computes the warp's result and writes each lane's outputs into
 * its record before any lane resumes (runtime/cpu/PTXMatrixOps.cpp, which
 * also holds the fragment layouts).
 *
 * A lane's record: the 8-byte address the instruction names (wmma.load's
 * and wmma.store's pointer, ldmatrix's row address; 0 otherwise), then
 * 32-bit words: the input registers in operand order (a 64-bit register
 * takes two words, a .f16x2 register one), then the output registers.
 *===----------------------------------------------------------------------===*/

#ifndef GPUMEM_RUNTIME_PTXMATRIX_H
#define GPUMEM_RUNTIME_PTXMATRIX_H

/* Descriptor bits 0-3: the instruction. */
enum GPUMemMatrixInstruction {
  GPUMEM_MATRIX_LOAD_A = 0,   /* wmma.load.a */
  GPUMEM_MATRIX_LOAD_B = 1,   /* wmma.load.b */
  GPUMEM_MATRIX_LOAD_C = 2,   /* wmma.load.c */
  GPUMEM_MATRIX_STORE_D = 3,  /* wmma.store.d */
  GPUMEM_MATRIX_WMMA = 4,     /* wmma.mma */
  GPUMEM_MATRIX_MMA_SYNC = 5, /* mma.sync.aligned */
  GPUMEM_MATRIX_LDMATRIX = 6  /* ldmatrix.sync.aligned.m8n8.b16 */
};

/* Element types (3 bits each: A and B at bit 22, C and D at bit 25). */
enum GPUMemMatrixType {
  GPUMEM_MATRIX_F16 = 0,
  GPUMEM_MATRIX_BF16 = 1,
  GPUMEM_MATRIX_TF32 = 2,
  GPUMEM_MATRIX_F64 = 3,
  GPUMEM_MATRIX_S8 = 4,
  GPUMEM_MATRIX_U8 = 5,
  GPUMEM_MATRIX_F32 = 6,
  GPUMEM_MATRIX_S32 = 7
};

/* m, n and k at bits 4, 10 and 16 (6 bits each; ldmatrix: the number of
 * matrices in m); bit 28: A (or the loaded or stored matrix) is
 * column-major, ldmatrix's .trans; bit 29: B is column-major. */
#define GPUMEM_MATRIX_DESCRIPTOR(instruction, m, n, k, typeAB, typeCD, colA,   \
                                 colB)                                         \
  ((int)(instruction) | ((int)(m) << 4) | ((int)(n) << 10) |                   \
   ((int)(k) << 16) | ((int)(typeAB) << 22) | ((int)(typeCD) << 25) |          \
   ((colA) ? 1 << 28 : 0) | ((colB) ? 1 << 29 : 0))

#define GPUMEM_MATRIX_INSTRUCTION(d) ((d) & 15)
#define GPUMEM_MATRIX_M(d) (((d) >> 4) & 63)
#define GPUMEM_MATRIX_N(d) (((d) >> 10) & 63)
#define GPUMEM_MATRIX_K(d) (((d) >> 16) & 63)
#define GPUMEM_MATRIX_TYPE_AB(d) (((d) >> 22) & 7)
#define GPUMEM_MATRIX_TYPE_CD(d) (((d) >> 25) & 7)
#define GPUMEM_MATRIX_COL_A(d) (((d) >> 28) & 1)
#define GPUMEM_MATRIX_COL_B(d) (((d) >> 29) & 1)
/* Bit 30: mma.sync's .satfinite (integer D clamped to 32 bits). */
#define GPUMEM_MATRIX_SATFINITE (1 << 30)

/* Bytes before a record's first register word. */
#define GPUMEM_MATRIX_RECORD_HEADER 8

#endif /* GPUMEM_RUNTIME_PTXMATRIX_H */
