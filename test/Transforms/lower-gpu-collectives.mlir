// RUN: gpumem-opt %s -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-collectives))' | FileCheck %s

// CHECK-LABEL: gpu.func @collectives
// CHECK-NOT: gpu.subgroup_reduce
// CHECK-NOT: gpu.subgroup_id
// CHECK-NOT: gpu.subgroup_size
// CHECK-NOT: gpu.num_subgroups
// CHECK-NOT: gpu.all_reduce
//   The butterfly of the subgroup reduction: xor 1, 2, 4, 8, 16 over 32 lanes.
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK: gpu.shuffle xor %{{.*}}, %[[C1]], %[[C32]] : f32
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
//   A clustered reduction shuffles within its cluster of 8.
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
//   subgroup_id from the thread ids; num_subgroups = ceil(threads / 32).
// CHECK: gpu.thread_id
// CHECK: arith.ceildivui
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @collectives(%out: memref<8xf32>, %ids: memref<8xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %tx = gpu.thread_id x
    %v = memref.load %out[%tx] : memref<8xf32>
    %sum = gpu.subgroup_reduce add %v : (f32) -> f32
    %part = gpu.subgroup_reduce mul %v cluster(size = 8) : (f32) -> f32
    %s = arith.addf %sum, %part : f32
    memref.store %s, %out[%tx] : memref<8xf32>
    %sg = gpu.subgroup_id : index
    %size = gpu.subgroup_size : index
    %n = gpu.num_subgroups : index
    memref.store %sg, %ids[%c0] : memref<8xindex>
    memref.store %size, %ids[%c1] : memref<8xindex>
    memref.store %n, %ids[%c2] : memref<8xindex>
    gpu.return
  }
}

// With all-reduce=false (the vulkan pipeline), gpu.all_reduce stays for the
// target's own lowering; subgroup reductions are still rewritten.
// RUN: gpumem-opt %s -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-collectives{all-reduce=false}))' | FileCheck %s --check-prefix=KEEP
// KEEP-LABEL: gpu.func @block_sum
// KEEP: gpu.all_reduce add
// KEEP-NOT: gpu.subgroup_reduce
gpu.module @keep {
  gpu.func @block_sum(%out: memref<64xf32>) kernel {
    %i = gpu.thread_id x
    %v = memref.load %out[%i] : memref<64xf32>
    %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %w = gpu.subgroup_reduce add %s : (f32) -> f32
    memref.store %w, %out[%i] : memref<64xf32>
    gpu.return
  }
}
