// RUN: gpumem-opt %s --pass-pipeline='builtin.module(gpu.module(gpumem-read-dynamic-shared-size-rocdl))' | FileCheck %s

// memref.dim of dynamic shared memory: the dispatch packet's
// group_segment_size (static and dynamic LDS of the workgroup) minus the
// LDS address where the dynamic buffer starts. Other dims stay.

// CHECK-LABEL: gpu.func @k
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[PACKET:.*]] = llvm.call_intrinsic "llvm.amdgcn.dispatch.ptr"() : () -> !llvm.ptr<4>
// CHECK: %[[FIELD:.*]] = llvm.getelementptr %[[PACKET]][28] : (!llvm.ptr<4>) -> !llvm.ptr<4>, i8
// CHECK: %[[TOTAL:.*]] = llvm.load %[[FIELD]] invariant {alignment = 4 : i64} : !llvm.ptr<4> -> i32
// CHECK: %[[TOTALX:.*]] = arith.index_castui %[[TOTAL]] : i32 to index
// CHECK: %[[START:.*]] = memref.extract_aligned_pointer_as_index %[[DYN]]
// CHECK: %[[BYTES:.*]] = arith.subi %[[TOTALX]], %[[START]] : index
// CHECK: memref.dim %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK: arith.addi %[[BYTES]], %{{.*}} : index
// CHECK-NOT: memref.dim %[[DYN]]
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %n = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
      %m = memref.dim %out, %c0 : memref<?xf32>
      %s = arith.addi %n, %m : index
      %f = arith.index_cast %s : index to i32
      %g = arith.sitofp %f : i32 to f32
      memref.store %g, %out[%c0] : memref<?xf32>
      gpu.return
    }
  }
}
