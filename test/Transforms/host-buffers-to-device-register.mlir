// RUN: gpumem-opt %s -split-input-file -gpumem-host-buffers-to-device=mode=register | FileCheck %s

// An allocation: page-aligned, registered right after it, unregistered
// before its dealloc; the kernel uses the host buffer itself.
// CHECK-LABEL: func.func @alloc
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) {alignment = 4096 : i64} : memref<?x4xf32>
// CHECK-NEXT: %[[U:.*]] = memref.cast %[[A]] : memref<?x4xf32> to memref<*xf32>
// CHECK-NEXT: gpu.host_register %[[U]] : memref<*xf32>
// CHECK-NOT: gpu.memcpy
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: gpu.launch
// CHECK: memref.load %[[A]]
// CHECK: gpu.host_unregister %[[U]] : memref<*xf32>
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NOT: gpu.host_unregister
func.func @alloc(%n: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx, %c0] : memref<?x4xf32>
    gpu.terminator
  }
  %x = memref.load %a[%c0, %c0] : memref<?x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %y = memref.load %a[%tx, %c0] : memref<?x4xf32>
    gpu.printf "%f\n", %y : f32
    gpu.terminator
  }
  memref.dealloc %a : memref<?x4xf32>
  return
}

// -----

// An argument: registered at function entry, unregistered before every
// return.
// CHECK-LABEL: func.func @argument
// CHECK-SAME: (%[[A:.*]]: memref<8xi32>
// CHECK-NEXT: %[[U:.*]] = memref.cast %[[A]] : memref<8xi32> to memref<*xi32>
// CHECK-NEXT: gpu.host_register %[[U]]
// CHECK: cf.cond_br
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: gpu.host_unregister %[[U]]
// CHECK-NEXT: return
// CHECK: gpu.host_unregister %[[U]]
// CHECK-NEXT: return
func.func @argument(%a: memref<8xi32>, %c: i1, %v: i32) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    memref.store %v, %a[%tx] : memref<8xi32>
    gpu.terminator
  }
  return
^bb2:
  return
}

// -----

// Globals: a writable one is page-aligned and registered for the function's
// duration; a constant one is copied (its pages may be read-only).
// CHECK: memref.global "private" constant @table : memref<4xi32> = dense<[1, 2, 3, 4]>
// CHECK: memref.global "private" @state : memref<4xi32> = dense<0> {alignment = 4096 : i64}
memref.global "private" constant @table : memref<4xi32> = dense<[1, 2, 3, 4]>
memref.global "private" @state : memref<4xi32> = dense<0>

// CHECK-LABEL: func.func @globals
// CHECK-NEXT: %[[S:.*]] = memref.get_global @state
// CHECK-NEXT: %[[U:.*]] = memref.cast %[[S]]
// CHECK-NEXT: gpu.host_register %[[U]]
// CHECK: memref.get_global @state
// CHECK-NEXT: %[[T:.*]] = memref.get_global @table
// CHECK-NEXT: %[[DT:.*]] = gpu.alloc  () : memref<4xi32>
// CHECK-NEXT: gpu.memcpy  %[[DT]], %[[T]]
// CHECK-NEXT: gpu.launch
// CHECK: memref.load %[[DT]]
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: gpu.dealloc  %[[DT]]
// CHECK: gpu.host_unregister %[[U]]
// CHECK-NEXT: return
func.func @globals() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.get_global @table : memref<4xi32>
  %s = memref.get_global @state : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %t[%tx] : memref<4xi32>
    memref.store %x, %s[%tx] : memref<4xi32>
    gpu.terminator
  }
  return
}

// -----

// An alloca in a loop body: registered and unregistered every iteration.
// CHECK-LABEL: func.func @alloca_in_loop
// CHECK: scf.for
// CHECK-NEXT: %[[S:.*]] = memref.alloca() {alignment = 4096 : i64} : memref<4xf32>
// CHECK-NEXT: %[[U:.*]] = memref.cast %[[S]]
// CHECK-NEXT: gpu.host_register %[[U]]
// CHECK: gpu.launch
// CHECK: gpu.host_unregister %[[U]]
// CHECK-NEXT: }
func.func @alloca_in_loop(%n: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = memref.alloca() : memref<4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      memref.store %f, %s[%tx] : memref<4xf32>
      gpu.terminator
    }
    %x = memref.load %s[%c0] : memref<4xf32>
    vector.print %x : f32
  }
  return
}

// -----

// Registered once, however many views and launches; a buffer the function
// registers itself is left alone.
// CHECK-LABEL: func.func @views_and_user_registration
// CHECK-SAME: (%[[A:.*]]: memref<4x4xf32>, %[[B:.*]]: memref<4xf32>
// CHECK-NEXT: %[[U:.*]] = memref.cast %[[A]] : memref<4x4xf32> to memref<*xf32>
// CHECK-NEXT: gpu.host_register %[[U]]
// CHECK: %[[BU:.*]] = memref.cast %[[B]]
// CHECK-NEXT: gpu.host_register %[[BU]]
// CHECK-NOT: gpu.host_register
// CHECK: gpu.host_unregister %[[BU]]
// CHECK-NEXT: gpu.host_unregister %[[U]]
// CHECK-NEXT: return
func.func @views_and_user_registration(%a: memref<4x4xf32>, %b: memref<4xf32>, %f: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %row = memref.subview %a[1, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  %bu = memref.cast %b : memref<4xf32> to memref<*xf32>
  gpu.host_register %bu : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %row[%tx] : memref<4xf32, strided<[1], offset: 4>>
    memref.store %f, %a[%tx, %tx] : memref<4x4xf32>
    memref.store %f, %b[%tx] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx, %c1] : memref<4x4xf32>
    gpu.terminator
  }
  gpu.host_unregister %bu : memref<*xf32>
  return
}
