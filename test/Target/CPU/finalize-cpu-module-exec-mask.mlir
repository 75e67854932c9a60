// RUN: gpumem-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(gpumem-finalize-cpu-module))' | FileCheck %s

// The kernel table's exec_mask key: the kernel's warp operations run over
// the lanes that reach them (AMD's EXEC mask), which the descriptor
// (GPUMemCPUKernel::warpOpsOverArrivedLanes, its last field) passes to the
// runtime as 1, after the warp size (32). A kernel without the key has
// PTX's member masks: 0.

// CHECK-LABEL: gpu.module @exec
// CHECK: llvm.mlir.global private constant @__gpumem_cpu_kernels() {{.*}} : !llvm.array<2 x struct<(ptr, ptr, ptr, i64, i32, i32, ptr, i64, ptr, ptr, i32, i32, ptr, array<3 x i32>, i32, i32, i32, ptr)>>
// CHECK: llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[ON:.*]] = llvm.mlir.constant(1 : i32) : i32
// No device sanitizer log.
// CHECK-NEXT: llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.mlir.poison
// CHECK: llvm.insertvalue %[[ON]], %{{.*}}[16]
// CHECK: llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[OFF:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.mlir.poison
// CHECK: llvm.insertvalue %[[OFF]], %{{.*}}[16]
// CHECK: llvm.mlir.global external constant @__gpumem_cpu_module()
gpu.module @exec [#gpumem.cpu] attributes {gpumem.cpu_kernels = [
    {name = "amd", needs_fibers = true, num_params = 0 : i32,
     run_thread = @runAMD, shared_bytes = 0 : i64, exec_mask = true},
    {name = "ptx", needs_fibers = true, num_params = 0 : i32,
     run_thread = @runPTX, shared_bytes = 0 : i64}]} {
  llvm.func @runAMD(%params: !llvm.ptr, %ctx: !llvm.ptr) {
    llvm.return
  }
  llvm.func @runPTX(%params: !llvm.ptr, %ctx: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{has a malformed kernel table entry (a key of the wrong type)}}
gpu.module @exec_typed [#gpumem.cpu] attributes {gpumem.cpu_kernels = [
    {name = "k", needs_fibers = true, num_params = 0 : i32,
     run_thread = @run, shared_bytes = 0 : i64, exec_mask = 1 : i32}]} {
  llvm.func @run(%params: !llvm.ptr, %ctx: !llvm.ptr) {
    llvm.return
  }
}
