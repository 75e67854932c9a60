// RUN: gpumem-opt %s --gpumem-plan-workgroup-memory=byte-views=false | FileCheck %s

// Without byte views (the vulkan target's typed workgroup memory), buffers
// share bytes only with buffers of their own type, by becoming one buffer:
// the three phases' 64xf32 tiles become one, the i32 tile keeps its own
// bytes although it is live in none of their phases. The existing barriers
// separate the phases: none is added.

// CHECK-LABEL: gpu.func @typed
// CHECK-SAME:    workgroup(%[[A:.*]] : memref<64xf32, 3>, %[[C:.*]] : memref<64xi32, 3>)
// CHECK-NOT:     memref.view
// CHECK:         memref.store %{{.*}}, %[[A]]
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.store %{{.*}}, %[[A]]
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.store %{{.*}}, %[[C]]
// CHECK-NEXT:    memref.store %{{.*}}, %[[A]]
gpu.module @m {
  gpu.func @typed(%i: index, %v: f32, %w: i32) workgroup(%a : memref<64xf32, 3>, %b : memref<64xf32, 3>, %c : memref<64xi32, 3>, %d : memref<64xf32, 3>) kernel {
    memref.store %v, %a[%i] : memref<64xf32, 3>
    gpu.barrier
    memref.store %v, %b[%i] : memref<64xf32, 3>
    gpu.barrier
    memref.store %w, %c[%i] : memref<64xi32, 3>
    memref.store %v, %d[%i] : memref<64xf32, 3>
    gpu.return
  }
}
