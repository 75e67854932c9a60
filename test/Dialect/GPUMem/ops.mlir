// RUN: gpumem-opt %s | gpumem-opt | FileCheck %s
// RUN: gpumem-opt %s --mlir-print-op-generic | gpumem-opt | FileCheck %s
// RUN: gpumem-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// The managed memory ops print as they parse, and survive the generic form.

// CHECK-LABEL: func.func @alloc_managed
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: gpumem.alloc_managed() : memref<16xf32>
// CHECK: gpumem.alloc_managed(%[[N]]) : memref<?x4xf32>
// CHECK: gpumem.alloc_managed(%[[N]], %[[M]]) : memref<?x8x?xi64>
// CHECK: gpumem.alloc_managed() : memref<f64>
// GENERIC-LABEL: "func.func"
// GENERIC: "gpumem.alloc_managed"() : () -> memref<16xf32>
// GENERIC: "gpumem.alloc_managed"(%{{.*}}) : (index) -> memref<?x4xf32>
func.func @alloc_managed(%n: index, %m: index) {
  %a = gpumem.alloc_managed() : memref<16xf32>
  %b = gpumem.alloc_managed(%n) : memref<?x4xf32>
  %c = gpumem.alloc_managed(%n, %m) : memref<?x8x?xi64>
  %d = gpumem.alloc_managed() : memref<f64>
  gpu.dealloc %a : memref<16xf32>
  gpu.dealloc %b : memref<?x4xf32>
  gpu.dealloc %c : memref<?x8x?xi64>
  gpu.dealloc %d : memref<f64>
  return
}

// CHECK-LABEL: func.func @prefetch
// CHECK-SAME: (%[[A:.*]]: memref<16xf32>, %[[B:.*]]: memref<?x4xf32>, %[[V:.*]]: memref<2x2xf32, strided<[8, 2], offset: 3>>)
// CHECK: gpumem.prefetch %[[A]] to device : memref<16xf32>
// CHECK: gpumem.prefetch %[[B]] to host : memref<?x4xf32>
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[T1:.*]] = gpumem.prefetch async [%[[T0]]] %[[A]] to device : memref<16xf32>
// CHECK: %[[T2:.*]] = gpumem.prefetch async %[[B]] to host : memref<?x4xf32>
// CHECK: %[[T3:.*]] = gpumem.prefetch async [%[[T1]], %[[T2]]] %[[V]] to host : memref<2x2xf32, strided<[8, 2], offset: 3>>
// CHECK: gpumem.prefetch [%[[T3]]] %[[A]] to host : memref<16xf32>
// GENERIC: "gpumem.prefetch"(%{{.*}}) <{destination = 0 : i32}> : (memref<16xf32>) -> ()
// GENERIC: "gpumem.prefetch"(%{{.*}}) <{destination = 1 : i32}> : (memref<?x4xf32>) -> ()
// GENERIC: "gpumem.prefetch"(%{{.*}}, %{{.*}}) <{destination = 0 : i32}> : (!gpu.async.token, memref<16xf32>) -> !gpu.async.token
func.func @prefetch(%a: memref<16xf32>, %b: memref<?x4xf32>,
                    %v: memref<2x2xf32, strided<[8, 2], offset: 3>>) {
  gpumem.prefetch %a to device : memref<16xf32>
  gpumem.prefetch %b to host : memref<?x4xf32>
  %t0 = gpu.wait async
  %t1 = gpumem.prefetch async [%t0] %a to device : memref<16xf32>
  %t2 = gpumem.prefetch async %b to host : memref<?x4xf32>
  %t3 = gpumem.prefetch async [%t1, %t2] %v to host : memref<2x2xf32, strided<[8, 2], offset: 3>>
  gpumem.prefetch [%t3] %a to host : memref<16xf32>
  return
}

// CHECK-LABEL: func.func @advise
// CHECK: gpumem.advise %{{.*}}, read_mostly : memref<16xf32>
// CHECK: gpumem.advise %{{.*}}, unset_read_mostly : memref<16xf32>
// CHECK: gpumem.advise %{{.*}}, preferred_location_device : memref<?x4xf32>
// CHECK: gpumem.advise %{{.*}}, preferred_location_host : memref<?x4xf32>
// CHECK: gpumem.advise %{{.*}}, unset_preferred_location : memref<?x4xf32>
// CHECK: gpumem.advise %{{.*}}, accessed_by_device : memref<16xf32>
// CHECK: gpumem.advise %{{.*}}, unset_accessed_by_device : memref<16xf32>
// GENERIC: "gpumem.advise"(%{{.*}}) <{advice = 0 : i32}> : (memref<16xf32>) -> ()
// GENERIC: "gpumem.advise"(%{{.*}}) <{advice = 6 : i32}> : (memref<16xf32>) -> ()
func.func @advise(%a: memref<16xf32>, %b: memref<?x4xf32>) {
  gpumem.advise %a, read_mostly : memref<16xf32>
  gpumem.advise %a, unset_read_mostly : memref<16xf32>
  gpumem.advise %b, preferred_location_device : memref<?x4xf32>
  gpumem.advise %b, preferred_location_host : memref<?x4xf32>
  gpumem.advise %b, unset_preferred_location : memref<?x4xf32>
  gpumem.advise %a, accessed_by_device : memref<16xf32>
  gpumem.advise %a, unset_accessed_by_device : memref<16xf32>
  return
}
