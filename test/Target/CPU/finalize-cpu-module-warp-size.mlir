// RUN: gpumem-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(gpumem-finalize-cpu-module))' | FileCheck %s

// The kernel table's warp_size key: the lanes of a kernel's warps, which
// the descriptor (GPUMemCPUKernel::warpSize, its field 15) passes to the
// runtime. A kernel without the key runs 32-lane warps, written as 32.

// CHECK-LABEL: gpu.module @wave64
// CHECK: llvm.mlir.global private constant @__gpumem_cpu_kernels() {{.*}} : !llvm.array<2 x struct<(ptr, ptr, ptr, i64, i32, i32, ptr, i64, ptr, ptr, i32, i32, ptr, array<3 x i32>, i32, i32, i32, ptr)>>
// CHECK: %[[WAVE64:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK: llvm.insertvalue %[[WAVE64]], %{{.*}}[15]
// CHECK: %[[WARP32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: llvm.insertvalue %[[WARP32]], %{{.*}}[15]
// CHECK: llvm.mlir.global external constant @__gpumem_cpu_module()
gpu.module @wave64 [#gpumem.cpu] attributes {gpumem.cpu_kernels = [
    {name = "k64", needs_fibers = true, num_params = 0 : i32,
     run_thread = @run64, shared_bytes = 0 : i64, warp_size = 64 : i32},
    {name = "k32", needs_fibers = true, num_params = 0 : i32,
     run_thread = @run32, shared_bytes = 0 : i64}]} {
  llvm.func @run64(%params: !llvm.ptr, %ctx: !llvm.ptr) {
    llvm.return
  }
  llvm.func @run32(%params: !llvm.ptr, %ctx: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{has a malformed kernel table entry (warp_size is not 32 or 64)}}
gpu.module @wave48 [#gpumem.cpu] attributes {gpumem.cpu_kernels = [
    {name = "k", needs_fibers = true, num_params = 0 : i32,
     run_thread = @run, shared_bytes = 0 : i64, warp_size = 48 : i32}]} {
  llvm.func @run(%params: !llvm.ptr, %ctx: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{has a malformed kernel table entry (a key of the wrong type)}}
gpu.module @wave_typed [#gpumem.cpu] attributes {gpumem.cpu_kernels = [
    {name = "k", needs_fibers = true, num_params = 0 : i32,
     run_thread = @run, shared_bytes = 0 : i64, warp_size = "64"}]} {
  llvm.func @run(%params: !llvm.ptr, %ctx: !llvm.ptr) {
    llvm.return
  }
}
