// RUN: not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: not gpumem-compile --target=cuda-emu %s -o %t 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// Tensor-core ops cannot run on the cuda-emu target yet: a located compile
// error at the first of them, nothing runs. The NVIDIA lowering before it
// takes every elementwise kind (subf of f16 fragments stopped upstream's
// convert-gpu-to-nvvm with a crash) and loops that carry a matrix.

// CHECK:{{.*}}error-mma-unsupported.mlir:[[@LINE+11]]:10: error: 'nvvm.wmma.load' op has no lowering on the cuda-emu target, which runs the NVVM form of kernels on the CPU
// CHECK-NOT:before

func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<16x16xf16>
  vector.print str "before\n"
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %c4 = arith.constant 4 : index
    %z = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (!gpu.mma_matrix<16x16xf16, "COp">) {
      %y = gpu.subgroup_mma_elementwise subf %acc, %x : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %m = gpu.subgroup_mma_elementwise maxf %y, %x : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      scf.yield %m : !gpu.mma_matrix<16x16xf16, "COp">
    }
    gpu.subgroup_mma_store_matrix %z, %a[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.terminator
  }
  return
}
