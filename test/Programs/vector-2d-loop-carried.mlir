// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// A 2-D vector carried by scf.for, scf.while and yielded by scf.if, built
// from values only known in the kernel (vector.from_elements of the thread
// id): one block of 8 threads.
// Thread t starts from m0 = [[t, 1, 2], [3, t, 5]] and computes
//   m = m0; three times: m = swap rows of (m + m0)
//   m = t odd ? m with row 0 times 10 : m + t
//   while m[1][2] <= 100: m = m * 2
// and stores m's six elements into out[t].

// CHECK:( ( 144, 16, 272, 48, 48, 176 ), ( 1600, 640, 2720, 96, 64, 176 ), ( 104, 72, 152, 88, 56, 104 ), ( 1920, 1600, 2720, 192, 96, 176 ), ( 136, 136, 168, 152, 88, 120 ), ( 2240, 2560, 2720, 288, 128, 176 ), ( 168, 200, 184, 216, 120, 136 ), ( 2560, 3520, 2720, 384, 160, 176 ) )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0 : i32
  %out = memref.alloc() : memref<8x6xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k3 = arith.constant 3 : index
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i5 = arith.constant 5 : i32
    %i100 = arith.constant 100 : i32
    %zero = arith.constant 0 : i32
    %ten = arith.constant dense<10> : vector<3xi32>
    %two = arith.constant dense<2> : vector<2x3xi32>
    %t = arith.index_cast %tx : index to i32
    %m0 = vector.from_elements %t, %i1, %i2, %i3, %t, %i5 : vector<2x3xi32>

    %looped = scf.for %i = %k0 to %k3 step %k1 iter_args(%m = %m0) -> (vector<2x3xi32>) {
      %s = arith.addi %m, %m0 : vector<2x3xi32>
      %r0 = vector.extract %s[0] : vector<3xi32> from vector<2x3xi32>
      %r1 = vector.extract %s[1] : vector<3xi32> from vector<2x3xi32>
      %w0 = vector.insert %r1, %s [0] : vector<3xi32> into vector<2x3xi32>
      %w1 = vector.insert %r0, %w0 [1] : vector<3xi32> into vector<2x3xi32>
      scf.yield %w1 : vector<2x3xi32>
    }

    %bit = arith.andi %t, %i1 : i32
    %odd = arith.cmpi ne, %bit, %zero : i32
    %chosen = scf.if %odd -> (vector<2x3xi32>) {
      %r0 = vector.extract %looped[0] : vector<3xi32> from vector<2x3xi32>
      %r10 = arith.muli %r0, %ten : vector<3xi32>
      %w = vector.insert %r10, %looped [0] : vector<3xi32> into vector<2x3xi32>
      scf.yield %w : vector<2x3xi32>
    } else {
      %b = vector.broadcast %t : i32 to vector<2x3xi32>
      %w = arith.addi %looped, %b : vector<2x3xi32>
      scf.yield %w : vector<2x3xi32>
    }

    %grown = scf.while (%m = %chosen) : (vector<2x3xi32>) -> vector<2x3xi32> {
      %e = vector.extract %m[1, 2] : i32 from vector<2x3xi32>
      %small = arith.cmpi sle, %e, %i100 : i32
      scf.condition(%small) %m : vector<2x3xi32>
    } do {
    ^bb0(%m: vector<2x3xi32>):
      %d = arith.muli %m, %two : vector<2x3xi32>
      scf.yield %d : vector<2x3xi32>
    }

    %g0 = vector.extract %grown[0] : vector<3xi32> from vector<2x3xi32>
    %g1 = vector.extract %grown[1] : vector<3xi32> from vector<2x3xi32>
    vector.store %g0, %out[%tx, %k0] : memref<8x6xi32>, vector<3xi32>
    vector.store %g1, %out[%tx, %k3] : memref<8x6xi32>, vector<3xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0, %c0], %pad : memref<8x6xi32>, vector<8x6xi32>
  vector.print %v : vector<8x6xi32>
  memref.dealloc %out : memref<8x6xi32>
  return
}
