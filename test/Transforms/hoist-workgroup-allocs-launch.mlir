// RUN: gpumem-opt %s -split-input-file -gpumem-hoist-workgroup-allocs | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: gpumem-opt %s -split-input-file -gpumem-hoist-workgroup-allocs -gpumem-hoist-workgroup-allocs | FileCheck %s

// The seed case: a 16x16xf32 alloca in memory space 3 becomes a workgroup
// attribution of the launch, and every use reads the attribution.

// CHECK-LABEL: func.func @seed
func.func @seed(%out: memref<16x16xf32>) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // CHECK: gpu.launch
  // CHECK-SAME: workgroup(%[[TILE:[a-z0-9_]+]] : memref<16x16xf32, 3>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
    // CHECK-NOT: memref.alloca
    %tile = memref.alloca() : memref<16x16xf32, 3>
    %v = memref.load %out[%ty, %tx] : memref<16x16xf32>
    // CHECK: memref.store %{{.*}}, %[[TILE]]
    memref.store %v, %tile[%tx, %ty] : memref<16x16xf32, 3>
    gpu.barrier
    // CHECK: memref.load %[[TILE]]
    %w = memref.load %tile[%ty, %tx] : memref<16x16xf32, 3>
    memref.store %w, %out[%ty, %tx] : memref<16x16xf32>
    gpu.terminator
  }
  return
}

// -----

// memref.alloc with #gpu.address_space<workgroup>: same treatment, and its
// dealloc is erased.

// CHECK-LABEL: func.func @alloc_dealloc
func.func @alloc_dealloc(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // CHECK: workgroup(%[[BUF:[a-z0-9_]+]] : memref<64xf32, #gpu.address_space<workgroup>>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    // CHECK-NOT: memref.alloc
    %buf = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %out[%tx] : memref<64xf32>
    // CHECK: memref.store %{{.*}}, %[[BUF]][
    memref.store %v, %buf[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    // CHECK-NOT: memref.dealloc
    memref.dealloc %buf : memref<64xf32, #gpu.address_space<workgroup>>
    // CHECK: gpu.terminator
    gpu.terminator
  }
  return
}

// -----

// Allocations inside the K loop of a tiled matmul: one buffer per block,
// hoisted out of the loop, in program order.

// CHECK-LABEL: func.func @k_loop
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[A:[a-z0-9_]+]] : memref<16x16xf32, 3>, %[[B:[a-z0-9_]+]] : memref<16x16xf32, 3>)
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.store %{{.*}}, %[[B]]
func.func @k_loop(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c4, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
    scf.for %k = %c0 to %c4 step %c1 {
      %ta = memref.alloca() : memref<16x16xf32, 3>
      %tb = memref.alloca() : memref<16x16xf32, 3>
      %va = memref.load %a[%ty, %tx] : memref<64x64xf32>
      %vb = memref.load %b[%ty, %tx] : memref<64x64xf32>
      memref.store %va, %ta[%ty, %tx] : memref<16x16xf32, 3>
      memref.store %vb, %tb[%ty, %tx] : memref<16x16xf32, 3>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// Any depth: scf.if inside scf.while inside scf.for, and scf.execute_region.

// CHECK-LABEL: func.func @nested
// CHECK: workgroup(%[[X:[a-z0-9_]+]] : memref<8xi32, 3>, %[[Y:[a-z0-9_]+]] : memref<4xf64, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.alloc
// CHECK: memref.store %{{.*}}, %[[X]]
// CHECK: memref.store %{{.*}}, %[[Y]]
func.func @nested(%n: index, %flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %zf = arith.constant 0.0 : f64
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      %r = scf.while (%j = %c0) : (index) -> index {
        %go = arith.cmpi slt, %j, %c1 : index
        scf.condition(%go) %j : index
      } do {
      ^bb0(%j: index):
        scf.if %flag {
          %x = memref.alloca() : memref<8xi32, 3>
          memref.store %zero, %x[%tx] : memref<8xi32, 3>
        }
        %jn = arith.addi %j, %c1 : index
        scf.yield %jn : index
      }
      scf.execute_region {
        %y = memref.alloc() : memref<4xf64, #gpu.address_space<workgroup>>
        memref.store %zf, %y[%c0] : memref<4xf64, #gpu.address_space<workgroup>>
        scf.yield
      }
    }
    gpu.terminator
  }
  return
}

// -----

// Two allocations of different element types, and views of them: subview,
// cast, a buffer chosen by scf.if and a buffer carried through a loop.

// CHECK-LABEL: func.func @views
// CHECK: workgroup(%[[F:[a-z0-9_]+]] : memref<32xf32, 3>, %[[I:[a-z0-9_]+]] : memref<32xi64, 3>)
// CHECK: memref.subview %[[F]]
// CHECK: scf.if
// CHECK: scf.yield %[[F]]
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[F]])
func.func @views(%flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %f = arith.constant 1.0 : f32
  %i = arith.constant 7 : i64
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %fs = memref.alloca() : memref<32xf32, 3>
    %is = memref.alloca() : memref<32xi64, 3>
    memref.store %i, %is[%tx] : memref<32xi64, 3>
    %sub = memref.subview %fs[4] [8] [1] : memref<32xf32, 3> to memref<8xf32, strided<[1], offset: 4>, 3>
    memref.store %f, %sub[%c0] : memref<8xf32, strided<[1], offset: 4>, 3>
    %any = memref.cast %fs : memref<32xf32, 3> to memref<?xf32, 3>
    %d = memref.dim %any, %c0 : memref<?xf32, 3>
    %pick = scf.if %flag -> memref<32xf32, 3> {
      scf.yield %fs : memref<32xf32, 3>
    } else {
      scf.yield %fs : memref<32xf32, 3>
    }
    memref.store %f, %pick[%d] : memref<32xf32, 3>
    %last = scf.for %k = %c0 to %c4 step %c1 iter_args(%cur = %fs) -> memref<32xf32, 3> {
      memref.store %f, %cur[%k] : memref<32xf32, 3>
      scf.yield %cur : memref<32xf32, 3>
    }
    memref.store %f, %last[%c0] : memref<32xf32, 3>
    gpu.terminator
  }
  return
}

// -----

// Private allocations stay per thread, whatever their spelling.

// CHECK-LABEL: func.func @private_scratch
// CHECK: gpu.launch
// CHECK-NOT: workgroup(
// CHECK: memref.alloca() : memref<4xf32, 5>
// CHECK: memref.alloca() : memref<4xf32, #gpu.address_space<private>>
// CHECK: memref.alloca() : memref<4xf32>
func.func @private_scratch() {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.alloca() : memref<4xf32, 5>
    %b = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
    %c = memref.alloca() : memref<4xf32>
    memref.store %f, %a[%c0] : memref<4xf32, 5>
    memref.store %f, %b[%c0] : memref<4xf32, #gpu.address_space<private>>
    memref.store %f, %c[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch that already has a workgroup attribution keeps it first.

// CHECK-LABEL: func.func @existing_attribution
// CHECK: workgroup(%[[OLD:[a-z0-9_]+]] : memref<4xf32, 3>, %[[NEW:[a-z0-9_]+]] : memref<8xf32, 3>)
// CHECK: memref.store %{{.*}}, %[[OLD]]
// CHECK: memref.store %{{.*}}, %[[NEW]]
func.func @existing_attribution() {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             workgroup(%old : memref<4xf32, 3>) {
    %new = memref.alloca() : memref<8xf32, 3>
    memref.store %f, %old[%c0] : memref<4xf32, 3>
    memref.store %f, %new[%c0] : memref<8xf32, 3>
    gpu.terminator
  }
  return
}

// -----

// gpu.all_reduce next to a workgroup alloca: the alloca is hoisted, the
// reduction is left for the NVVM lowering.

// CHECK-LABEL: func.func @all_reduce
// CHECK: workgroup(%[[S:[a-z0-9_]+]] : memref<32xf32, 3>)
// CHECK: gpu.all_reduce add
// CHECK: memref.store %{{.*}}, %[[S]]
func.func @all_reduce(%out: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<32xf32, 3>
    %v = memref.load %out[%tx] : memref<32xf32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %sum, %s[%tx] : memref<32xf32, 3>
    gpu.barrier
    %w = memref.load %s[%tx] : memref<32xf32, 3>
    memref.store %w, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
