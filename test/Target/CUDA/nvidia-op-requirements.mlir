// Tensor-core and other chip-specific ops against the chip, through the
// whole cuda pipeline: a tf32 matmul for sm_75 is a located error and a
// non-zero exit (NVPTX aborted with "LLVM ERROR: Cannot select: intrinsic
// %llvm.nvvm.wmma.m16n16k8.mma.row.row.tf32" before), in gpumem-opt and in
// gpumem-compile; the same program compiles for sm_80.
// RUN: not gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_75 format=isa" -o /dev/null 2>&1 | FileCheck %s
// RUN: not gpumem-compile --target=cuda --chip=sm_75 %s -o %t 2>&1 | FileCheck %s
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_80 format=isa" -o /dev/null
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_80 format=bin" -o /dev/null %}

// CHECK: nvidia-op-requirements.mlir:[[@LINE+26]]:10: error: 'gpu.subgroup_mma_load_matrix' op needs sm_80 or newer for an A matrix of 16x8 tf32; the target chip is sm_75
// CHECK: nvidia-op-requirements.mlir:[[@LINE+26]]:10: error: 'gpu.subgroup_mma_load_matrix' op needs sm_80 or newer for a B matrix of 8x16 tf32; the target chip is sm_75
// CHECK: nvidia-op-requirements.mlir:[[@LINE+27]]:10: error: 'gpu.subgroup_mma_compute' op needs sm_80 or newer for m16n16k8 tf32 matrices; the target chip is sm_75
// CHECK-NOT: {{Stack dump|LLVM ERROR}}

// A valid program of each chip generation compiles on every chip that has
// it, at the chip's default PTX version (PTX 8.0 for what sm_90 adds), and
// ptxas accepts it where it knows the chip.
// RUN: for chip in sm_70 sm_72 sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120; do gpumem-opt %S/Inputs/tensor-cores-sm70.mlir --gpumem-cuda-pipeline="chip=$chip format=isa" -o /dev/null || exit 1; done
// RUN: for chip in sm_80 sm_86 sm_89 sm_90 sm_90a sm_100 sm_120; do gpumem-opt %S/Inputs/tensor-cores-sm80.mlir --gpumem-cuda-pipeline="chip=$chip format=isa" -o /dev/null || exit 1; done
// RUN: for chip in sm_90 sm_90a; do gpumem-opt %S/Inputs/tensor-cores-sm90.mlir --gpumem-cuda-pipeline="chip=$chip features=+ptx80 format=isa" -o /dev/null || exit 1; done
// RUN: for chip in sm_100 sm_120; do gpumem-opt %S/Inputs/tensor-cores-sm90.mlir --gpumem-cuda-pipeline="chip=$chip format=isa" -o /dev/null || exit 1; done
// RUN: %if ptxas %{ for chip in sm_75 sm_80 sm_90; do gpumem-opt %S/Inputs/tensor-cores-sm70.mlir --gpumem-cuda-pipeline="chip=$chip format=bin" -o /dev/null || exit 1; done %}
// RUN: %if ptxas %{ for chip in sm_80 sm_86 sm_90 sm_120; do gpumem-opt %S/Inputs/tensor-cores-sm80.mlir --gpumem-cuda-pipeline="chip=$chip format=bin" -o /dev/null || exit 1; done %}
// RUN: %if ptxas %{ gpumem-opt %S/Inputs/tensor-cores-sm90.mlir --gpumem-cuda-pipeline="chip=sm_90 features=+ptx80 format=bin" -o /dev/null %}

module attributes {gpu.container_module} {
func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<16x8xf32>
  %b = memref.alloc() : memref<8x16xf32>
  %c = memref.alloc() : memref<16x16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 8 : index} : memref<16x8xf32> -> !gpu.mma_matrix<16x8xf32, "AOp">
    %y = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<8x16xf32> -> !gpu.mma_matrix<8x16xf32, "BOp">
    %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
    %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x8xf32, "AOp">, !gpu.mma_matrix<8x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.terminator
  }
  return
}
}
