// The whole CUDA pipeline on the seed case: host code is LLVM dialect, the
// kernel is PTX for sm_90 with the chip's minimum PTX version, and the
// workgroup alloca is a real .shared array (no per-thread __local_depot).

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s --check-prefix=PTX
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_80 features=+ptx80 opt-level=1 format=isa" | FileCheck %s --check-prefix=SM80
// The host module translates to LLVM IR.
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// With ptxas: a cubin, and ptxas counts the tile's 1024 bytes.
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN %}
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects smem - | FileCheck %s --check-prefix=SMEM %}

// CHECK-NOT: func.func
// CHECK: llvm.func @main
// CHECK: gpu.launch_func @main_kernel::@main_kernel
// CHECK: gpu.binary @main_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">, {{.*}}assembly = "

// PTX: .version 7.8
// PTX: .target sm_90
// PTX: .shared .align 16 .b8 __wg_main_kernel_0[1024];
// PTX-NOT: __local_depot
// PTX-NOT: cvta.shared
// PTX: bar.sync 0

// SM80: #nvvm.target<O = 1, chip = "sm_80", features = "+ptx80">

// LLVMIR: define void @main(
// LLVMIR: call ptr @mgpuModuleGetFunction
// LLVMIR: call void @mgpuLaunchKernel

// BIN: gpu.binary @main_kernel [#gpu.object<#nvvm.target<{{.*}}chip = "sm_90"{{.*}}>, {{.*}}bin = "\7FELF

// SMEM: main_kernel::main_kernel: 1024 bytes shared memory (ptxas -v, sm_90)

func.func @main(%out: memref<16x16xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32, 3>
    %v = memref.load %out[%ty, %tx] : memref<16x16xf32>
    memref.store %v, %tile[%tx, %ty] : memref<16x16xf32, 3>
    gpu.barrier
    %w = memref.load %tile[%ty, %tx] : memref<16x16xf32, 3>
    memref.store %w, %out[%ty, %tx] : memref<16x16xf32>
    gpu.terminator
  }
  return
}
