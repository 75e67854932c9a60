// RUN: gpumem-opt %s -pass-pipeline='builtin.module(gpu.module(gpumem-finalize-nvvm-shared-memory))' | FileCheck %s

// CHECK-LABEL: gpu.module @k
//   Dynamic shared memory: external, so after the static buffers.
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
//   Static shared buffers keep their linkage and get 16-byte alignment; a
//   larger alignment stays.
// CHECK: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK: llvm.mlir.global internal @wide() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<64 x f32>
//   Other address spaces are left alone.
// CHECK: llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
gpu.module @k {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32} : !llvm.array<64 x f32>
  llvm.mlir.global internal @wide() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<64 x f32>
  llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}
