// RUN: gpumem-opt %s -gpumem-read-dynamic-shared-size-nvvm | FileCheck %s

// CHECK-LABEL: gpu.func @k
// CHECK:         %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:         %[[R:.*]] = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.dynamic_smem_size"() : () -> i32
// CHECK:         %[[N:.*]] = arith.index_castui %[[R]] : i32 to index
// CHECK:         memref.store %[[N]], %{{.*}}[%{{.*}}] : memref<2xindex>
// A dim of another memref stays.
// CHECK:         %[[D:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xindex>
// CHECK:         memref.store %[[D]]
gpu.module @m {
  gpu.func @k(%out: memref<2xindex>, %other: memref<?xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %n = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
    memref.store %n, %out[%c0] : memref<2xindex>
    %d = memref.dim %other, %c0 : memref<?xindex>
    memref.store %d, %out[%c1] : memref<2xindex>
    gpu.return
  }
}
