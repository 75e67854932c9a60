// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --sanitize %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines --strict-whitespace %}
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu --sanitize %s | FileCheck %s --match-full-lines --strict-whitespace %}

// An accumulator loaded from rows 0..15 of C and stored to rows 8..23 of
// the same buffer, on one warp: the tiles overlap. Fragment loads and
// stores are warp-collective, so on a GPU every lane has loaded rows
// 0..15 (zeros) before any lane stores: every stored element is
// A * B + 0 = 16, rows 0..7 stay 0 and rows 24..31 too. (A lane run alone
// that stored rows 8..15 before its neighbour loaded them would give 32.)
// Column 0 of rows 7, 8, 15, 16, 23 and 24:
// CHECK:( 0, 16, 16, 16, 16, 0 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f16
  %zero = arith.constant 0.0 : f32
  %a = gpu.alloc host_shared () : memref<16x16xf16>
  %c = gpu.alloc host_shared () : memref<32x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %one, %a[%i, %j] : memref<16x16xf16>
    }
  }
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %zero, %c[%i, %j] : memref<32x16xf32>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %fa = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %fb = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
        : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %fc = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index}
        : memref<32x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %fd = gpu.subgroup_mma_compute %fa, %fb, %fc
        : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
        -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %fd, %c[%c8, %c0] {leadDimension = 16 : index}
        : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x16xf32>
    gpu.terminator
  }
  %r7 = arith.constant 7 : index
  %r15 = arith.constant 15 : index
  %r23 = arith.constant 23 : index
  %r24 = arith.constant 24 : index
  %v0 = memref.load %c[%r7, %c0] : memref<32x16xf32>
  %v1 = memref.load %c[%c8, %c0] : memref<32x16xf32>
  %v2 = memref.load %c[%r15, %c0] : memref<32x16xf32>
  %v3 = memref.load %c[%c16, %c0] : memref<32x16xf32>
  %v4 = memref.load %c[%r23, %c0] : memref<32x16xf32>
  %v5 = memref.load %c[%r24, %c0] : memref<32x16xf32>
  %column = vector.from_elements %v0, %v1, %v2, %v3, %v4, %v5 : vector<6xf32>
  vector.print %column : vector<6xf32>
  return
}
