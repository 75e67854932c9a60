// RUN: gpumem-opt %s -split-input-file -gpumem-host-buffers-to-device=mode=managed | FileCheck %s

// A host allocation becomes a managed one, shared by host and kernels with
// no copies; its dealloc becomes gpu.dealloc. Dynamic sizes are kept.
// Passing it to a call is fine (callees do not free it).
func.func private @use(memref<?xf32>)

// CHECK-LABEL: func.func @alloc_becomes_managed
// CHECK-SAME: (%[[N:.*]]: index
// CHECK: %[[M:.*]] = gpu.alloc  host_shared (%[[N]]) : memref<?xf32>
// CHECK-NEXT: memref.store %{{.*}}, %[[M]]
// CHECK-NOT: gpu.memcpy
// CHECK: gpu.launch
// CHECK: memref.load %[[M]]
// CHECK: memref.store %{{.*}}, %[[M]]
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: memref.load %[[M]]
// CHECK: call @use(%[[M]])
// CHECK-NEXT: gpu.dealloc  %[[M]] : memref<?xf32>
// CHECK-NOT: memref.dealloc
// CHECK-NOT: gpu.memcpy
func.func @alloc_becomes_managed(%n: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf32>
  memref.store %f, %a[%c0] : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<?xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%tx] : memref<?xf32>
    gpu.terminator
  }
  %v = memref.load %a[%c0] : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<?xf32>
    gpu.printf "%f\n", %x : f32
    gpu.terminator
  }
  func.call @use(%a) : (memref<?xf32>) -> ()
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// What cannot be re-allocated is copied as in copy mode: an allocation that
// is returned (the caller might free it with memref.dealloc), an alloca, an
// argument, a global.
memref.global "private" @g : memref<4xf32> = dense<0.0>

// CHECK-LABEL: func.func @fallback_to_copies
// CHECK-SAME: (%[[ARG:.*]]: memref<4xf32>
// CHECK: %[[R:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[S:.*]] = memref.alloca() : memref<4xf32>
// CHECK-NOT: host_shared
// CHECK-DAG: gpu.memcpy  %{{.*}}, %[[ARG]]
// CHECK-DAG: gpu.memcpy  %{{.*}}, %[[S]]
// CHECK-DAG: gpu.memcpy  %{{.*}}, %[[G:.*]] :
// CHECK: gpu.launch
// CHECK-DAG: gpu.memcpy  %[[ARG]], %{{.*}}
// CHECK-DAG: gpu.memcpy  %[[R]], %{{.*}}
// CHECK-DAG: gpu.memcpy  %[[S]], %{{.*}}
// CHECK-DAG: gpu.memcpy  %[[G]], %{{.*}}
// CHECK: return %[[R]]
func.func @fallback_to_copies(%arg: memref<4xf32>, %f: f32) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = memref.alloc() : memref<4xf32>
  %s = memref.alloca() : memref<4xf32>
  memref.store %f, %s[%c0] : memref<4xf32>
  %g = memref.get_global @g : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %arg[%tx] : memref<4xf32>
    memref.store %f, %r[%tx] : memref<4xf32>
    memref.store %f, %s[%tx] : memref<4xf32>
    memref.store %f, %g[%tx] : memref<4xf32>
    gpu.terminator
  }
  %x = memref.load %s[%c0] : memref<4xf32>
  memref.store %x, %r[%c0] : memref<4xf32>
  return %r : memref<4xf32>
}

// -----

// memref.realloc would free managed memory with free(): copies instead.
// CHECK-LABEL: func.func @realloc
// CHECK-NOT: host_shared
// CHECK: gpu.memcpy
// CHECK: memref.realloc
func.func @realloc(%f: f32) -> memref<8xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  %b = memref.realloc %a : memref<4xf32> to memref<8xf32>
  return %b : memref<8xf32>
}
