// RUN: gpumem-opt %s -split-input-file -gpumem-join-async-dependencies | FileCheck %s

// Async ops with no dependency or with several get one: a gpu.wait async on
// all of them. Ops with exactly one, gpu.wait itself, managed allocations
// and synchronous memory ops stay as they are.

// CHECK-LABEL: func.func @memory_ops
// CHECK-SAME: (%[[H:.*]]: memref<4xf32>, %[[A:.*]]: !gpu.async.token, %[[B:.*]]: !gpu.async.token)
// CHECK: %[[S0:.*]] = gpu.wait async{{$}}
// CHECK: %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[S0]]] () : memref<4xf32>
// CHECK: %[[S1:.*]] = gpu.wait async [%[[T1]], %[[B]]]
// CHECK: %[[T2:.*]] = gpu.memcpy async [%[[S1]]] %[[H]], %[[M]]
// CHECK: %[[T3:.*]] = gpu.memset async [%[[T2]]] %[[M]]
// CHECK: %[[S2:.*]] = gpu.wait async{{$}}
// CHECK: %[[T4:.*]] = gpu.memset async [%[[S2]]] %[[M]]
// CHECK: %[[S3:.*]] = gpu.wait async [%[[T3]], %[[T4]], %[[A]]]
// CHECK: %[[T5:.*]] = gpu.dealloc async [%[[S3]]] %[[M]]
// CHECK: %{{.*}}, %{{.*}} = gpu.alloc async [%[[A]], %[[B]]] host_shared () : memref<4xf32>
// CHECK: gpu.memcpy [%[[A]], %[[B]]] %[[H]], %[[H]]
// CHECK: %[[W:.*]] = gpu.wait async [%[[T5]], %[[A]]]
// CHECK: gpu.wait [%[[W]]]
func.func @memory_ops(%h: memref<4xf32>, %a: !gpu.async.token, %b: !gpu.async.token) {
  %f = arith.constant 1.0 : f32
  %m, %t1 = gpu.alloc async () : memref<4xf32>
  %t2 = gpu.memcpy async [%t1, %b] %h, %m : memref<4xf32>, memref<4xf32>
  %t3 = gpu.memset async [%t2] %m, %f : memref<4xf32>, f32
  %t4 = gpu.memset async %m, %f : memref<4xf32>, f32
  %t5 = gpu.dealloc async [%t3, %t4, %a] %m : memref<4xf32>
  %s, %t6 = gpu.alloc async [%a, %b] host_shared () : memref<4xf32>
  gpu.memcpy [%a, %b] %h, %h : memref<4xf32>, memref<4xf32>
  %w = gpu.wait async [%t5, %a]
  gpu.wait [%w]
  return
}

// -----

// Launches, before and after outlining; a synchronous launch_func with
// dependencies waits for them and keeps none. Device code is left alone.

// CHECK-LABEL: func.func @launches
// CHECK-SAME: (%[[A:.*]]: !gpu.async.token, %[[B:.*]]: !gpu.async.token)
// CHECK: %[[S0:.*]] = gpu.wait async [%[[A]], %[[B]]]
// CHECK: %[[T1:.*]] = gpu.launch async [%[[S0]]] blocks
// CHECK: %[[S1:.*]] = gpu.wait async{{$}}
// CHECK: %[[T2:.*]] = gpu.launch_func async [%[[S1]]] @kernels::@k blocks
// CHECK: %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @kernels::@k blocks
// CHECK: gpu.wait [%[[T1]], %[[T3]]]
// CHECK-NEXT: gpu.launch_func @kernels::@k blocks
// CHECK: gpu.module @kernels
module attributes {gpu.container_module} {
  func.func @launches(%a: !gpu.async.token, %b: !gpu.async.token) {
    %c1 = arith.constant 1 : index
    %t1 = gpu.launch async [%a, %b] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    %t2 = gpu.launch_func async @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func [%t1, %t3] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
