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

// A synchronous op with dependencies: its stream waits for them, so the
// async form has the one dependency gpu-to-llvm lowers.
// CHECK-LABEL: func.func @sync_with_dependencies
// CHECK: %[[A:.*]] = gpu.wait async
// CHECK: %[[B:.*]] = gpu.wait async
// CHECK: %[[S:.*]] = gpu.wait async [%[[A]], %[[B]]]
// CHECK: %[[T:.*]] = gpu.memcpy async [%[[S]]] %{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>
// CHECK: gpu.wait [%[[T]]]
func.func @sync_with_dependencies(%d: memref<8xf32>, %h: memref<8xf32>) {
  %a = gpu.wait async
  %b = gpu.wait async
  gpu.memcpy [%a, %b] %d, %h : memref<8xf32>, memref<8xf32>
  return
}

// Stream-ordered managed memory, which gpu-to-llvm rejects: allocated at
// once; the token is ready when the dependencies are.
// CHECK-LABEL: func.func @async_host_shared
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[DEP:.*]] = gpu.wait async
// CHECK-NEXT: %[[M:.*]] = gpu.alloc  host_shared (%[[N]]) : memref<?xf32>
// CHECK-NEXT: %[[READY:.*]] = gpu.wait async [%[[DEP]]]
// CHECK-NEXT: %[[FREED:.*]] = gpu.dealloc async [%[[READY]]] %[[M]] : memref<?xf32>
// CHECK-NEXT: gpu.wait [%[[FREED]]]
// CHECK: %[[M2:.*]] = gpu.alloc  host_shared () : memref<4xi32>
// CHECK-NEXT: %[[READY2:.*]] = gpu.wait async
// CHECK-NEXT: gpu.wait [%[[READY2]]]
func.func @async_host_shared(%n: index) {
  %dep = gpu.wait async
  %m, %t = gpu.alloc async [%dep] host_shared (%n) : memref<?xf32>
  %t2 = gpu.dealloc async [%t] %m : memref<?xf32>
  gpu.wait [%t2]
  %m2, %t3 = gpu.alloc async host_shared () : memref<4xi32>
  gpu.wait [%t3]
  return
}
