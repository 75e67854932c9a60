// RUN: gpumem-opt %s -split-input-file -verify-diagnostics -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi,gpumem-sanitize-memory-accesses))' | FileCheck %s

// Every access runs only inside its memref's bounds (unsigned compares,
// per dimension, against memref.dim); outside, each dimension out of
// bounds calls the accessError service (offset 80 of the services) with
// the access, its location, the dimension, index and size, and a load
// gives zero.
// CHECK-DAG: llvm.mlir.global private constant @[[LOADWHAT:.*]]("load from memref<?x4xf32>\00")
// CHECK-DAG: llvm.mlir.global private constant @[[LOADAT:.*]]("{{.*}}sanitize-memory-accesses.mlir:[[@LINE+19]]:10\00")
// CHECK-LABEL: func.func private @__gpumem_kernel_k(
// CHECK-SAME: %[[M:.*]]: memref<?x4xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[CTX:.*]]: !llvm.ptr)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[D0:.*]] = memref.dim %[[M]], %{{.*}}
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[I]], %[[D0]] : index
// CHECK: %[[D1:.*]] = memref.dim %[[M]], %{{.*}}
// CHECK: %[[IN1:.*]] = arith.cmpi ult, %[[J]], %[[D1]] : index
// CHECK: %[[IN:.*]] = arith.andi %[[IN0]], %[[IN1]] : i1
// CHECK: %[[V:.*]] = scf.if %[[IN]] -> (f32) {
// CHECK:   memref.load %[[M]][%[[I]], %[[J]]]
// CHECK: } else {
// CHECK:   llvm.mlir.addressof @[[LOADWHAT]]
// CHECK:   llvm.mlir.addressof @[[LOADAT]]
// CHECK:   llvm.getelementptr %{{.*}}[80]
// CHECK:   llvm.call
// CHECK:   scf.yield %[[ZERO]] : f32
gpu.module @kernels {
  gpu.func @k(%m: memref<?x4xf32>, %i: index, %j: index) kernel {
    %v = memref.load %m[%i, %j] : memref<?x4xf32>
    memref.store %v, %m[%j, %i] : memref<?x4xf32>
    gpu.return
  }
}

// -----

// Rank-0 memrefs have no index to check. A store to device memory asks
// the addressAccess service (offset 112 of the services) where it lands
// once ctx->freedArguments (offset 152) says a memref argument of the
// launch lies in freed memory.
// CHECK-LABEL: func.func private @__gpumem_kernel_scalar(
// CHECK-NOT: arith.cmpi ult
// CHECK: llvm.getelementptr %{{.*}}[152]
// CHECK: %[[FREED:.*]] = llvm.load
// CHECK: %[[ASK:.*]] = arith.cmpi ne, %[[FREED]]
// CHECK: scf.if %[[ASK]] {
// CHECK:   llvm.getelementptr %{{.*}}[112]
// CHECK:   llvm.call
// CHECK: }
// CHECK: memref.store
gpu.module @kernels {
  gpu.func @scalar(%m: memref<f32>) kernel {
    %f = arith.constant 1.0 : f32
    memref.store %f, %m[] : memref<f32>
    gpu.return
  }
}

// -----

// The launch wrappers hand each memref argument's aligned pointer to the
// argumentCheck service (offset 96) before they call the kernel: run_blocks
// once per call, outside its loops over the blocks and threads (the runtime
// calls it once per block for sanitized kernels); the kernel itself has no
// such check.
// CHECK-LABEL: func.func private @__gpumem_kernel_args(
// CHECK-NOT: [96]
// CHECK-LABEL: func.func private @__gpumem_run_thread_args(
// CHECK: llvm.getelementptr %{{.*}}[96]
// CHECK: call @__gpumem_kernel_args
// CHECK-LABEL: func.func private @__gpumem_run_blocks_args(
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: llvm.getelementptr %{{.*}}[96]
// CHECK: llvm.call
// CHECK: scf.for
// CHECK: call @__gpumem_kernel_args
gpu.module @kernels {
  gpu.func @args(%m: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %m[%c0] : memref<8xf32>
    gpu.return
  }
}

// -----

// memcheck alone asks the sharedAccess service (offset 88) about a
// workgroup access only when its view may lie outside its buffer (made by
// memref.reinterpret_cast, or a subview at a dynamic offset), with the
// flags GPUMEM_ACCESS_CHECK_BOUNDS | write = 34; the runtime reports it
// when its bytes leave the block's shared memory. A direct access of the
// tile gets the index check only.
// CHECK-LABEL: func.func private @__gpumem_kernel_views(
// CHECK: scf.if
// CHECK-NOT: llvm.getelementptr %{{.*}}[88]
// CHECK: memref.store %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[FLAGS:.*]] = arith.constant 34 : i32
// CHECK: llvm.getelementptr %{{.*}}[88]
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %[[FLAGS]],
// CHECK: memref.store %{{.*}} : memref<1xf32, strided<[1], offset: 8192>, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @views(%i: index, %f: f32) workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    memref.store %f, %tile[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    %far = memref.reinterpret_cast %tile to offset: [8192], sizes: [1], strides: [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<1xf32, strided<[1], offset: 8192>, #gpu.address_space<workgroup>>
    memref.store %f, %far[%c0] : memref<1xf32, strided<[1], offset: 8192>, #gpu.address_space<workgroup>>
    gpu.return
  }
}
