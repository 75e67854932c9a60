// RUN: gpumem-opt %s -pass-pipeline='builtin.module(gpu.module(gpumem-sanitize-nvvm-accesses{checks=memcheck,racecheck}))' | FileCheck %s

// Before each load, store and atomic of kernel code, the thread calls the
// addressAccess service (offset 112 of the services) with the address, the
// bytes, the flags (read 1, write 2, atomic 4, races 8, bounds 32), what the
// access does and its location. A plain load of an address the function
// also compare-and-swaps counts as atomic; the launch wrapper is left alone.
// CHECK-DAG: llvm.mlir.global private constant @[[LOAD:.*]]("load of 4 bytes\00")
// CHECK-DAG: llvm.mlir.global private constant @[[STORE:.*]]("store of 8 bytes\00")
// CHECK-DAG: llvm.mlir.global private constant @[[CAS:.*]]("atomic compare-and-swap of 4 bytes\00")
// CHECK-DAG: llvm.mlir.global private constant @{{.*}}("store of 12 bytes\00")
// CHECK-LABEL: llvm.func @__gpumem_kernel_k(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[CTX:.*]]: !llvm.ptr)
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[READ:.*]] = llvm.mlir.constant(41 : i32) : i32
// CHECK: llvm.mlir.addressof @[[LOAD]]
// CHECK: llvm.getelementptr %{{.*}}[112]
// CHECK: llvm.call %{{.*}}(%[[CTX]], %[[P]], %[[FOUR]], %[[READ]], %{{.*}}, %{{.*}})
// CHECK-NEXT: llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK: llvm.mlir.constant(8 : i64) : i64
// CHECK: llvm.mlir.constant(42 : i32) : i32
// CHECK: llvm.mlir.addressof @[[STORE]]
// CHECK: llvm.call
// CHECK-NEXT: llvm.store %{{.*}}, %[[P]] : i64, !llvm.ptr
// CHECK: llvm.mlir.constant(45 : i32) : i32
// CHECK: llvm.call
// CHECK-NEXT: llvm.load %[[Q]] : !llvm.ptr -> i32
// CHECK: llvm.mlir.constant(47 : i32) : i32
// CHECK: llvm.mlir.addressof @[[CAS]]
// CHECK: llvm.call
// CHECK-NEXT: llvm.cmpxchg %[[Q]]
//   A vector of 3 stores 12 bytes (its data layout size is 16).
// CHECK: llvm.mlir.constant(12 : i64) : i64
// CHECK: llvm.call
// CHECK-NEXT: llvm.store %{{.*}}, %[[P]] : vector<3xi32>, !llvm.ptr
// CHECK-LABEL: llvm.func internal @__gpumem_run_thread_k(
// CHECK-NOT: llvm.call
// CHECK: llvm.return
gpu.module @kernels {
  llvm.func @__gpumem_kernel_k(%p: !llvm.ptr, %q: !llvm.ptr, %ctx: !llvm.ptr) {
    %v = llvm.load %p : !llvm.ptr -> f32
    %w = llvm.mlir.constant(7 : i64) : i64
    llvm.store %w, %p : i64, !llvm.ptr
    %c = llvm.load %q : !llvm.ptr -> i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %r = llvm.cmpxchg %q, %c, %one acq_rel monotonic : !llvm.ptr, i32
    %three = llvm.mlir.constant(dense<3> : vector<3xi32>) : vector<3xi32>
    llvm.store %three, %p : vector<3xi32>, !llvm.ptr
    llvm.return
  }
  llvm.func internal @__gpumem_run_thread_k(%params: !llvm.ptr, %ctx: !llvm.ptr) {
    %a = llvm.load %params : !llvm.ptr -> !llvm.ptr
    llvm.return
  }
}
