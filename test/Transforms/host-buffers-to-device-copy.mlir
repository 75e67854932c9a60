// RUN: gpumem-opt %s -split-input-file -gpumem-host-buffers-to-device | FileCheck %s
// RUN: gpumem-opt %s -split-input-file -gpumem-host-buffers-to-device=mode=copy | FileCheck %s

// A host allocation the host writes, a kernel reads and writes: copied in,
// used on the device, copied out, freed; the host's own accesses stay.
// CHECK-LABEL: func.func @alloc_read_write
// CHECK: %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: %[[D:.*]] = gpu.alloc  () : memref<16xf32>
// CHECK-NEXT: gpu.memcpy  %[[D]], %[[A]] : memref<16xf32>, memref<16xf32>
// CHECK-NEXT: gpu.launch
// CHECK: memref.load %[[D]]
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: gpu.memcpy  %[[A]], %[[D]] : memref<16xf32>, memref<16xf32>
// CHECK-NEXT: gpu.dealloc  %[[D]] : memref<16xf32>
// CHECK-NEXT: memref.load %[[A]]
// CHECK-NEXT: memref.dealloc %[[A]]
func.func @alloc_read_write(%f: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<16xf32>
  memref.store %f, %a[%c0] : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<16xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %a[%tx] : memref<16xf32>
    gpu.terminator
  }
  %r = memref.load %a[%c0] : memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  return %r : f32
}

// -----

// A fresh allocation only written by the kernel: nothing to copy in (its
// contents are undefined), copied out.
// CHECK-LABEL: func.func @fresh_alloc_write_only
// CHECK: %[[A:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT: %[[D:.*]] = gpu.alloc  () : memref<16xf32>
// CHECK-NOT: gpu.memcpy
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK: gpu.memcpy  %[[A]], %[[D]]
// CHECK-NEXT: gpu.dealloc  %[[D]]
func.func @fresh_alloc_write_only(%f: f32) -> memref<16xf32> {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.alloc() : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<16xf32>
    gpu.terminator
  }
  return %a : memref<16xf32>
}

// -----

// Arguments: one read-only (copied in, not out), one write-only (copied in
// too, so that elements the kernel does not write keep their values, and
// out).
// CHECK-LABEL: func.func @arguments
// CHECK-SAME: (%[[IN:.*]]: memref<8xi32>, %[[OUT:.*]]: memref<8xi32>)
// CHECK-DAG: %[[DIN:.*]] = gpu.alloc  () : memref<8xi32>
// CHECK-DAG: gpu.memcpy  %[[DIN]], %[[IN]]
// CHECK-DAG: %[[DOUT:.*]] = gpu.alloc  () : memref<8xi32>
// CHECK-DAG: gpu.memcpy  %[[DOUT]], %[[OUT]]
// CHECK: gpu.launch
// CHECK: memref.load %[[DIN]]
// CHECK: memref.store %{{.*}}, %[[DOUT]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.memcpy  %[[IN]]
// CHECK-DAG: gpu.memcpy  %[[OUT]], %[[DOUT]]
// CHECK-DAG: gpu.dealloc  %[[DOUT]]
// CHECK-DAG: gpu.dealloc  %[[DIN]]
// CHECK: return
func.func @arguments(%in: memref<8xi32>, %out: memref<8xi32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %in[%tx] : memref<8xi32>
    memref.store %x, %out[%tx] : memref<8xi32>
    gpu.terminator
  }
  return
}

// -----

// Two launches in a row with no host access between them (only arithmetic
// and memref.dim): the data stays on the device; one copy in, one copy out.
// The size is dynamic: gpu.alloc takes it from memref.dim.
// CHECK-LABEL: func.func @two_launches_dynamic
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>
// CHECK: %[[N:.*]] = memref.dim %[[A]], %{{.*}} : memref<?xf32>
// CHECK-NEXT: %[[D:.*]] = gpu.alloc  (%[[N]]) : memref<?xf32>
// CHECK-NEXT: gpu.memcpy  %[[D]], %[[A]]
// CHECK-NEXT: gpu.launch
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK: memref.dim %[[A]]
// CHECK-NOT: gpu.memcpy
// CHECK: gpu.launch
// CHECK: memref.load %[[D]]
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: gpu.memcpy  %[[A]], %[[D]]
// CHECK-NEXT: gpu.dealloc  %[[D]]
// CHECK-NOT: gpu.memcpy
func.func @two_launches_dynamic(%a: memref<?xf32>, %f: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<?xf32>
    gpu.terminator
  }
  %m = memref.dim %a, %c0 : memref<?xf32>
  %h = arith.divui %m, %c1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %h, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<?xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %a[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A host access between two launches: the first group is copied out before
// it, the second copied in after it.
// CHECK-LABEL: func.func @host_access_between
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[D1:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.launch
// CHECK: memref.store %{{.*}}, %[[D1]]
// CHECK: gpu.memcpy  %[[A]], %[[D1]]
// CHECK-NEXT: gpu.dealloc  %[[D1]]
// CHECK-NEXT: memref.load %[[A]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[A]]
// CHECK-NEXT: %[[D2:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy  %[[D2]], %[[A]]
// CHECK-NEXT: gpu.launch
// CHECK: memref.load %[[D2]]
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: gpu.dealloc  %[[D2]]
// CHECK-NEXT: memref.dealloc %[[A]]
func.func @host_access_between(%f: f32, %out: memref<4xf32, 1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  %x = memref.load %a[%c0] : memref<4xf32>
  %y = arith.addf %x, %x : f32
  memref.store %y, %a[%c1] : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<4xf32>
    memref.store %v, %out[%tx] : memref<4xf32, 1>
    gpu.terminator
  }
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Globals: every get_global of a symbol is one buffer. The constant one is
// never copied back; the other is, before the host reads it again.
memref.global "private" constant @table : memref<4xi32> = dense<[1, 2, 3, 4]>
memref.global "private" @state : memref<4xi32> = dense<0>

// CHECK-LABEL: func.func @globals
// CHECK: memref.get_global @state
// CHECK-NEXT: %[[T:.*]] = memref.get_global @table
// CHECK-NEXT: %[[DT:.*]] = gpu.alloc  () : memref<4xi32>
// CHECK-NEXT: gpu.memcpy  %[[DT]], %[[T]]
// CHECK-NEXT: %[[S:.*]] = memref.get_global @state
// CHECK-NEXT: %[[DS:.*]] = gpu.alloc  () : memref<4xi32>
// CHECK-NEXT: gpu.memcpy  %[[DS]], %[[S]]
// CHECK: gpu.launch
// CHECK: memref.load %[[DT]]
// CHECK: memref.store %{{.*}}, %[[DS]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.memcpy  %[[T]]
// CHECK: gpu.memcpy  %[[S]], %[[DS]]
// CHECK-NOT: gpu.memcpy  %[[T]]
// CHECK: %[[S2:.*]] = memref.get_global @state
// CHECK-NEXT: memref.load %[[S2]]
func.func @globals() -> i32 {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.get_global @table : memref<4xi32>
  %s = memref.get_global @state : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %t[%tx] : memref<4xi32>
    %y = memref.load %s[%tx] : memref<4xi32>
    %z = arith.addi %x, %y : i32
    memref.store %z, %s[%tx] : memref<4xi32>
    gpu.terminator
  }
  %s2 = memref.get_global @state : memref<4xi32>
  %r = memref.load %s2[%c1] : memref<4xi32>
  return %r : i32
}

// -----

// A subview made on the host: the whole buffer is copied, the view is made
// again inside the kernel on top of the device buffer.
// CHECK-LABEL: func.func @subview
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>
// CHECK: %[[D:.*]] = gpu.alloc  () : memref<4x8xf32>
// CHECK-NEXT: gpu.memcpy  %[[D]], %[[A]]
// CHECK-NEXT: gpu.launch
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[D]][1, 2] [2, 4] [1, 1]
// CHECK: memref.store %{{.*}}, %[[V]]
// CHECK: gpu.memcpy  %[[A]], %[[D]]
func.func @subview(%a: memref<4x8xf32>, %f: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = memref.subview %a[1, 2] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 10>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    memref.store %f, %v[%tx, %tx] : memref<2x4xf32, strided<[8, 1], offset: 10>>
    gpu.terminator
  }
  return
}

// -----

// A strided argument: the flat extent from the aligned pointer is copied,
// the kernel sees a reinterpret_cast with the argument's own type.
// CHECK-LABEL: func.func @strided_argument
// CHECK-SAME: (%[[A:.*]]: memref<4xf32, strided<[2], offset: ?>>
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZE:.*]], %[[STRIDE:.*]] = memref.extract_strided_metadata %[[A]]
// CHECK: %[[N:.*]] = arith.select
// CHECK: %[[HF:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[N]]], strides: [1] : memref<f32> to memref<?xf32>
// CHECK: %[[DF:.*]] = gpu.alloc  (%[[N]]) : memref<?xf32>
// CHECK: %[[DV:.*]] = memref.reinterpret_cast %[[DF]] to offset: [%[[OFF]]], sizes: [4], strides: [2] : memref<?xf32> to memref<4xf32, strided<[2], offset: ?>>
// CHECK: gpu.memcpy  %[[DF]], %[[HF]] : memref<?xf32>, memref<?xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[DV]]
// CHECK: gpu.memcpy  %[[HF]], %[[DF]] : memref<?xf32>, memref<?xf32>
// CHECK-NEXT: gpu.dealloc  %[[DF]]
func.func @strided_argument(%a: memref<4xf32, strided<[2], offset: ?>>, %f: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<4xf32, strided<[2], offset: ?>>
    gpu.terminator
  }
  return
}

// -----

// A loop of launches with no host access inside is one group: copies
// around the loop. A loop that also calls a function on the buffer copies
// inside, every iteration.
func.func private @consume(memref<4xf32>)

// CHECK-LABEL: func.func @loops
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>
// CHECK: %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy  %[[D]], %[[A]]
// CHECK-NEXT: scf.for
// CHECK-NEXT: gpu.launch
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.memcpy  %[[A]], %[[D]]
// CHECK-NEXT: gpu.dealloc  %[[D]]
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[D2:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy  %[[D2]], %[[A]]
// CHECK-NEXT: gpu.launch
// CHECK: memref.store %{{.*}}, %[[D2]]
// CHECK: gpu.memcpy  %[[A]], %[[D2]]
// CHECK-NEXT: gpu.dealloc  %[[D2]]
// CHECK-NEXT: func.call @consume(%[[A]])
func.func @loops(%a: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %x = memref.load %a[%tx] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%tx] : memref<4xf32>
      gpu.terminator
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %x = memref.load %a[%tx] : memref<4xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%tx] : memref<4xf32>
      gpu.terminator
    }
    func.call @consume(%a) : (memref<4xf32>) -> ()
  }
  return
}

// -----

// Escape: an allocation passed to a call may be reached by any later call
// or op writing unspecified memory (vector.print here), so that ends its
// group; one that does not escape (the kernels write it, the host reads it)
// keeps its device copy across it, and needs no copy in.
func.func private @keep(memref<4xf32>)

// CHECK-LABEL: func.func @escape
// CHECK: %[[E:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[L:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: call @keep(%[[E]])
// CHECK-NEXT: %[[DE1:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy  %[[DE1]], %[[E]]
// CHECK-NEXT: %[[DL:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.launch
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: gpu.memcpy  %[[E]], %[[DE1]]
// CHECK-NEXT: gpu.dealloc  %[[DE1]]
// CHECK-NEXT: vector.print
// CHECK-NEXT: %[[DE2:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy  %[[DE2]], %[[E]]
// CHECK-NEXT: gpu.launch
// CHECK: memref.store %{{.*}}, %[[DE2]]
// CHECK: memref.store %{{.*}}, %[[DL]]
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-DAG: gpu.memcpy  %[[E]], %[[DE2]]
// CHECK-DAG: gpu.memcpy  %[[L]], %[[DL]]
// CHECK: call @keep(%[[E]])
// CHECK: memref.load %[[L]]
func.func @escape(%f: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = memref.alloc() : memref<4xf32>
  %l = memref.alloc() : memref<4xf32>
  func.call @keep(%e) : (memref<4xf32>) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %e[%tx] : memref<4xf32>
    memref.store %f, %l[%tx] : memref<4xf32>
    gpu.terminator
  }
  vector.print %f : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %e[%tx] : memref<4xf32>
    memref.store %f, %l[%tx] : memref<4xf32>
    gpu.terminator
  }
  func.call @keep(%e) : (memref<4xf32>) -> ()
  %c0 = arith.constant 0 : index
  %x = memref.load %l[%c0] : memref<4xf32>
  vector.print %x : f32
  return
}

// -----

// An asynchronous launch: the copies are chained on its stream and the
// launch's later users wait for the last of them.
// CHECK-LABEL: func.func @async_launch
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<4xf32>
// CHECK-NEXT: %[[T2:.*]] = gpu.memcpy async [%[[T1]]] %[[D]], %[[A]]
// CHECK-NEXT: %[[T3:.*]] = gpu.launch async [%[[T2]]]
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK: %[[T4:.*]] = gpu.memcpy async [%[[T3]]] %[[A]], %[[D]]
// CHECK-NEXT: %[[T5:.*]] = gpu.dealloc async [%[[T4]]] %[[D]]
// CHECK-NEXT: gpu.wait [%[[T5]]]
func.func @async_launch(%a: memref<4xf32>, %f: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  gpu.wait [%t1]
  return
}

// -----

// An asynchronous launch with two dependencies: joined first.
// CHECK-LABEL: func.func @async_two_dependencies
// CHECK: %[[J:.*]] = gpu.wait async [%{{.*}}, %{{.*}}]
// CHECK-NEXT: %{{.*}}, %[[T1:.*]] = gpu.alloc async [%[[J]]] ()
// CHECK-NEXT: %[[T2:.*]] = gpu.memcpy async [%[[T1]]]
// CHECK-NEXT: gpu.launch async [%[[T2]]]
// CHECK-NOT: gpu.memcpy
// CHECK: %[[T3:.*]] = gpu.dealloc async
// CHECK-NEXT: gpu.wait [%[[T3]]]
func.func @async_two_dependencies(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t0 = gpu.wait async
  %t1 = gpu.wait async
  %t2 = gpu.launch async [%t0, %t1] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<4xf32>
    gpu.printf "%f\n", %x : f32
    gpu.terminator
  }
  gpu.wait [%t2]
  return
}

// -----

// An outlined kernel: its argument's uses say read-only, so no copy out.
// A kernel that passes its argument to a device function may do anything.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @device(%m: memref<8xf32>) {
      return
    }
    gpu.func @reads(%in: memref<8xf32>, %out: memref<8xf32, 1>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %in[%i] : memref<8xf32>
      memref.store %x, %out[%i] : memref<8xf32, 1>
      gpu.return
    }
    gpu.func @calls(%m: memref<8xf32>) kernel {
      func.call @device(%m) : (memref<8xf32>) -> ()
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @launch_func
  // CHECK-SAME: (%[[A:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32, 1>)
  // CHECK: %[[D:.*]] = gpu.alloc  () : memref<8xf32>
  // CHECK-NEXT: gpu.memcpy  %[[D]], %[[A]]
  // CHECK-NEXT: gpu.launch_func  @kernels::@reads {{.*}} args(%[[D]] : memref<8xf32>, %[[OUT]] : memref<8xf32, 1>)
  // CHECK-NEXT: gpu.launch_func  @kernels::@calls {{.*}} args(%[[D]] : memref<8xf32>)
  // CHECK-NEXT: gpu.memcpy  %[[A]], %[[D]]
  // CHECK-NEXT: gpu.dealloc  %[[D]]
  func.func @launch_func(%a: memref<8xf32>, %out: memref<8xf32, 1>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@reads blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a : memref<8xf32>, %out : memref<8xf32, 1>)
    gpu.launch_func @kernels::@calls blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a : memref<8xf32>)
    return
  }
}

// -----

// Memory that is already device-visible, memrefs in other memory spaces, a
// buffer the function registers itself, and one the kernel never reads or
// writes (memref.dim only) are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: gpu.memcpy
// CHECK-NOT: gpu.dealloc
// CHECK: return
func.func @left_alone(%g: memref<4xf32, #gpu.address_space<global>>, %w: memref<4xf32, 3>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %d = gpu.alloc () : memref<4xf32>
  %s = gpu.alloc host_shared () : memref<4xf32>
  %m = gpumem.alloc_managed() : memref<4xf32>
  %r = memref.alloc() : memref<4xf32>
  %ru = memref.cast %r : memref<4xf32> to memref<*xf32>
  gpu.host_register %ru : memref<*xf32>
  %n = memref.alloc(%c4) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %d[%tx] : memref<4xf32>
    memref.store %f, %s[%tx] : memref<4xf32>
    memref.store %f, %m[%tx] : memref<4xf32>
    memref.store %f, %r[%tx] : memref<4xf32>
    memref.store %f, %g[%tx] : memref<4xf32, #gpu.address_space<global>>
    memref.store %f, %w[%tx] : memref<4xf32, 3>
    %size = memref.dim %n, %c0 : memref<?xf32>
    gpu.terminator
  }
  gpu.host_unregister %ru : memref<*xf32>
  return
}

// -----

// A launch in a later block of the function (cf branches).
// CHECK-LABEL: func.func @branches
// CHECK: ^bb1:
// CHECK-NEXT: %[[D:.*]] = gpu.alloc  ()
// CHECK-NEXT: gpu.memcpy  %[[D]]
// CHECK-NEXT: gpu.launch
// CHECK: gpu.memcpy  %{{.*}}, %[[D]]
// CHECK-NEXT: gpu.dealloc  %[[D]]
// CHECK-NEXT: cf.br ^bb2
func.func @branches(%a: memref<4xf32>, %c: i1, %f: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  cf.br ^bb2
^bb2:
  return
}

// -----

// A buffer whose root the pass cannot see (returned by a call) is still
// host memory: copied in and out like any other.
func.func private @make() -> memref<4xf32>

// CHECK-LABEL: func.func @unknown_root
// CHECK: %[[M:.*]] = call @make()
// CHECK-NEXT: %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy  %[[D]], %[[M]]
// CHECK-NEXT: gpu.launch
// CHECK: memref.store %{{.*}}, %[[D]]
// CHECK: gpu.memcpy  %[[M]], %[[D]]
// CHECK-NEXT: gpu.dealloc  %[[D]]
func.func @unknown_root(%f: f32) -> memref<4xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = func.call @make() : () -> memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %m[%tx] : memref<4xf32>
    gpu.terminator
  }
  return %m : memref<4xf32>
}

// -----

// An scf.if with a launch in one branch and a host access in the other:
// each branch is grouped on its own.
// CHECK-LABEL: func.func @mixed_if
// CHECK: scf.if
// CHECK-NEXT: %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT: gpu.memcpy  %[[D]], %[[A:.*]] :
// CHECK-NEXT: gpu.launch
// CHECK: gpu.memcpy  %[[A]], %[[D]]
// CHECK-NEXT: gpu.dealloc  %[[D]]
// CHECK-NEXT: } else {
// CHECK-NEXT: memref.store
// CHECK-NOT: gpu.memcpy
// CHECK: return
func.func @mixed_if(%a: memref<4xf32>, %c: i1, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.if %c {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      memref.store %f, %a[%tx] : memref<4xf32>
      gpu.terminator
    }
  } else {
    memref.store %f, %a[%c0] : memref<4xf32>
  }
  return
}
