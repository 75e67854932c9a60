// RUN: gpumem-opt %s -pass-pipeline='builtin.module(gpu.module(gpumem-extern-dynamic-shared-memory))' | FileCheck %s

// CHECK-LABEL: gpu.module @k
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
//   Static shared buffers and zero-size globals elsewhere keep their linkage.
// CHECK: llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32} : !llvm.array<64 x f32>
// CHECK: llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
gpu.module @k {
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__wg_k_0() {addr_space = 3 : i32} : !llvm.array<64 x f32>
  llvm.mlir.global internal @empty_global() {addr_space = 1 : i32} : !llvm.array<0 x i8>
}
