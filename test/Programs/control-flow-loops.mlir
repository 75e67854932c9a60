// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Loops whose trip count differs between threads, and a loop with
// barriers: one block of 16 threads.
//  - scf.while: thread t counts the Collatz steps of t + 1.
//  - a search that stops early (a break): the threads fill sq[i] = i * i in
//    workgroup memory; after a barrier thread t walks i = 0, 1, ... and
//    stops at the first i with sq[i] > 3 * t (or at 16); the load is
//    guarded by the bound inside the loop's condition region.
//  - scf.for with barriers and a carried value: acc = t; four times
//    s[t] = acc, barrier, acc += s[(t + 1) % 16], barrier.

// CHECK:( 0, 1, 7, 2, 5, 8, 16, 3, 19, 6, 14, 9, 9, 17, 17, 4 )
// CHECK-NEXT:( 1, 2, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 7 )
// CHECK-NEXT:( 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 208, 160, 80, 32 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0 : i32
  %out = memref.alloc() : memref<48xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i16 = arith.constant 16 : i32
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k4 = arith.constant 4 : index
    %k16 = arith.constant 16 : index
    %k32 = arith.constant 32 : index
    %t = arith.index_cast %tx : index to i32

    // Collatz steps of t + 1.
    %n0 = arith.addi %t, %i1 : i32
    %steps:2 = scf.while (%n = %n0, %s = %i0) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi ne, %n, %i1 : i32
      scf.condition(%more) %n, %s : i32, i32
    } do {
    ^bb0(%n: i32, %s: i32):
      %r = arith.remui %n, %i2 : i32
      %even = arith.cmpi eq, %r, %i0 : i32
      %next = scf.if %even -> (i32) {
        %h = arith.divui %n, %i2 : i32
        scf.yield %h : i32
      } else {
        %m = arith.muli %n, %i3 : i32
        %m1 = arith.addi %m, %i1 : i32
        scf.yield %m1 : i32
      }
      %s1 = arith.addi %s, %i1 : i32
      scf.yield %next, %s1 : i32, i32
    }
    memref.store %steps#1, %out[%tx] : memref<48xi32>

    // The first i with sq[i] > 3t.
    %sq = memref.alloca() : memref<16xi32, #gpu.address_space<workgroup>>
    %tt = arith.muli %t, %t : i32
    memref.store %tt, %sq[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %bound = arith.muli %t, %i3 : i32
    %found = scf.while (%i = %i0) : (i32) -> i32 {
      %inside = arith.cmpi slt, %i, %i16 : i32
      %go = scf.if %inside -> (i1) {
        %ii = arith.index_cast %i : i32 to index
        %v = memref.load %sq[%ii] : memref<16xi32, #gpu.address_space<workgroup>>
        %small = arith.cmpi sle, %v, %bound : i32
        scf.yield %small : i1
      } else {
        %false = arith.constant false
        scf.yield %false : i1
      }
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%i: i32):
      %i1n = arith.addi %i, %i1 : i32
      scf.yield %i1n : i32
    }
    %p1 = arith.addi %tx, %k16 : index
    memref.store %found, %out[%p1] : memref<48xi32>

    // Neighbour sums through workgroup memory, with barriers in the loop.
    %s = memref.alloca() : memref<16xi32, #gpu.address_space<workgroup>>
    %acc = scf.for %r = %k0 to %k4 step %k1 iter_args(%a = %t) -> (i32) {
      memref.store %a, %s[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %nb0 = arith.addi %tx, %k1 : index
      %nb = arith.remui %nb0, %k16 : index
      %v = memref.load %s[%nb] : memref<16xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %a1 = arith.addi %a, %v : i32
      scf.yield %a1 : i32
    }
    %p2 = arith.addi %tx, %k32 : index
    memref.store %acc, %out[%p2] : memref<48xi32>
    gpu.terminator
  }
  %v0 = vector.transfer_read %out[%c0], %pad : memref<48xi32>, vector<16xi32>
  %v1 = vector.transfer_read %out[%c16], %pad : memref<48xi32>, vector<16xi32>
  %v2 = vector.transfer_read %out[%c32], %pad : memref<48xi32>, vector<16xi32>
  vector.print %v0 : vector<16xi32>
  vector.print %v1 : vector<16xi32>
  vector.print %v2 : vector<16xi32>
  memref.dealloc %out : memref<48xi32>
  return
}
