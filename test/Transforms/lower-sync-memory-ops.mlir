// RUN: gpumem-opt %s -gpumem-lower-sync-memory-ops | FileCheck %s

// CHECK-LABEL: func.func @sync_paths
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%{{.*}}) : memref<?xf32>
// CHECK: gpu.wait [%[[T1]]]
// CHECK: %[[S:.*]] = gpu.alloc  host_shared () : memref<8xf32>
// CHECK: %[[T2:.*]] = gpu.wait async
// CHECK: %[[T3:.*]] = gpu.memcpy async [%[[T2]]] %[[D]], %{{.*}} : memref<?xf32>, memref<?xf32>
// CHECK: gpu.wait [%[[T3]]]
// CHECK: %[[T4:.*]] = gpu.wait async
// CHECK: %[[T5:.*]] = gpu.memset async [%[[T4]]] %[[D]], %{{.*}} : memref<?xf32>, f32
// CHECK: gpu.wait [%[[T5]]]
// CHECK: %[[T6:.*]] = gpu.wait async
// CHECK: %[[T7:.*]] = gpu.dealloc async [%[[T6]]] %[[D]] : memref<?xf32>
// CHECK: gpu.wait [%[[T7]]]
//   Already asynchronous ops are left as they are.
// CHECK: %[[A:.*]] = gpu.wait async
// CHECK-NEXT: %{{.*}} = gpu.dealloc async [%[[A]]] %[[S]] : memref<8xf32>
// CHECK-NOT: gpu.wait async
// CHECK: return
func.func @sync_paths(%n: index, %host: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %d = gpu.alloc (%n) : memref<?xf32>
  %s = gpu.alloc host_shared () : memref<8xf32>
  gpu.memcpy %d, %host : memref<?xf32>, memref<?xf32>
  gpu.memset %d, %zero : memref<?xf32>, f32
  gpu.dealloc %d : memref<?xf32>
  %t = gpu.wait async
  %t2 = gpu.dealloc async [%t] %s : memref<8xf32>
  gpu.wait [%t2]
  return
}
