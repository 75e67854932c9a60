// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --sanitize %s | FileCheck %s --match-full-lines --strict-whitespace

// A 3-point stencil clamped at the edges (arith.maxsi / arith.minsi on the
// neighbours' indices) over 1000 i32 that the host fills in a loop and
// registers, run by 4 blocks of 256 threads: the last block's threads past
// the end are guarded by `i < n`. Each sum goes to two places: reversed,
// out[n - 1 - i], and into a 500x2 grid at [i / 2][i % 2]. With
// x[i] = i*i mod 7, out[0] (i = 999) is 10, out[999] (i = 0) is 1,
// out[500] is 7, the sums add up to 6003, grid[499][1] is 10, grid[0][0]
// is 1, and the grid's first column minus its second adds up to -7.
// Under --sanitize the first three blocks run the proved copy and the last
// one the checked kernel (its threads' indices pass n); nothing is
// reported, and initcheck sees every byte the kernel reads written by the
// host before the registration.

// CHECK:10
// CHECK-NEXT:1
// CHECK-NEXT:7
// CHECK-NEXT:6003
// CHECK-NEXT:10
// CHECK-NEXT:1
// CHECK-NEXT:-7
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : i32
  %c256 = arith.constant 256 : index
  %n = arith.constant 1000 : index
  %half = arith.constant 500 : index
  %x = memref.alloc() : memref<1000xi32>
  %out = memref.alloc() : memref<1000xi32>
  %grid = memref.alloc() : memref<500x2xi32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %sq = arith.muli %ii, %ii : i32
    %v = arith.remsi %sq, %c7 : i32
    memref.store %v, %x[%i] : memref<1000xi32>
  }
  %ux = memref.cast %x : memref<1000xi32> to memref<*xi32>
  gpu.host_register %ux : memref<*xi32>
  %uo = memref.cast %out : memref<1000xi32> to memref<*xi32>
  gpu.host_register %uo : memref<*xi32>
  %ug = memref.cast %grid : memref<500x2xi32> to memref<*xi32>
  gpu.host_register %ug : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %inside = arith.cmpi slt, %i, %n : index
    scf.if %inside {
      %zero = arith.constant 0 : index
      %one = arith.constant 1 : index
      %last = arith.subi %n, %one : index
      %im1 = arith.subi %i, %one : index
      %ip1 = arith.addi %i, %one : index
      %l = arith.maxsi %im1, %zero : index
      %r = arith.minsi %ip1, %last : index
      %a = memref.load %x[%l] : memref<1000xi32>
      %b = memref.load %x[%i] : memref<1000xi32>
      %c = memref.load %x[%r] : memref<1000xi32>
      %ab = arith.addi %a, %b : i32
      %s = arith.addi %ab, %c : i32
      %rev = arith.subi %last, %i : index
      memref.store %s, %out[%rev] : memref<1000xi32>
      %two = arith.constant 2 : index
      %row = arith.divui %i, %two : index
      %col = arith.remui %i, %two : index
      memref.store %s, %grid[%row, %col] : memref<500x2xi32>
    }
    gpu.terminator
  }
  %o0 = memref.load %out[%c0] : memref<1000xi32>
  vector.print %o0 : i32
  %c999 = arith.constant 999 : index
  %o999 = memref.load %out[%c999] : memref<1000xi32>
  vector.print %o999 : i32
  %o500 = memref.load %out[%half] : memref<1000xi32>
  vector.print %o500 : i32
  %zero32 = arith.constant 0 : i32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero32) -> i32 {
    %v = memref.load %out[%i] : memref<1000xi32>
    %next = arith.addi %acc, %v : i32
    scf.yield %next : i32
  }
  vector.print %sum : i32
  %c499 = arith.constant 499 : index
  %g1 = memref.load %grid[%c499, %c1] : memref<500x2xi32>
  vector.print %g1 : i32
  %g0 = memref.load %grid[%c0, %c0] : memref<500x2xi32>
  vector.print %g0 : i32
  %diff = scf.for %i = %c0 to %half step %c1 iter_args(%acc = %zero32) -> i32 {
    %p = memref.load %grid[%i, %c0] : memref<500x2xi32>
    %q = memref.load %grid[%i, %c1] : memref<500x2xi32>
    %d = arith.subi %p, %q : i32
    %next = arith.addi %acc, %d : i32
    scf.yield %next : i32
  }
  vector.print %diff : i32
  return
}
