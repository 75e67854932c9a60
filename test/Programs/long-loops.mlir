// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Loops of more than 65535 iterations (Mesa's llvmpipe, behind lavapipe,
// stops every loop after 65535 unless the compiler splits it): one thread
// counts 100000 iterations of an scf.for, 160000 of two nested loops of
// 400, 70000 of an scf.while, and sums i for i < 100000 with a step of 1
// and of 3 (wrapping at 2^32 as i32 does).

// CHECK:( 100000, 160000, 70000, 704982704, 1666683333 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i32
  %out = memref.alloc() : memref<5xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %k400 = arith.constant 400 : index
    %k100000 = arith.constant 100000 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i70000 = arith.constant 70000 : i32
    %n1 = scf.for %i = %k0 to %k100000 step %k1 iter_args(%n = %i0) -> (i32) {
      %m = arith.addi %n, %i1 : i32
      scf.yield %m : i32
    }
    memref.store %n1, %out[%k0] : memref<5xi32>
    %n2 = scf.for %i = %k0 to %k400 step %k1 iter_args(%n = %i0) -> (i32) {
      %r = scf.for %j = %k0 to %k400 step %k1 iter_args(%q = %n) -> (i32) {
        %m = arith.addi %q, %i1 : i32
        scf.yield %m : i32
      }
      scf.yield %r : i32
    }
    memref.store %n2, %out[%k1] : memref<5xi32>
    %n3 = scf.while (%n = %i0) : (i32) -> i32 {
      %more = arith.cmpi slt, %n, %i70000 : i32
      scf.condition(%more) %n : i32
    } do {
    ^bb0(%n: i32):
      %m = arith.addi %n, %i1 : i32
      scf.yield %m : i32
    }
    memref.store %n3, %out[%k2] : memref<5xi32>
    %s1 = scf.for %i = %k0 to %k100000 step %k1 iter_args(%s = %i0) -> (i32) {
      %ii = arith.index_cast %i : index to i32
      %m = arith.addi %s, %ii : i32
      scf.yield %m : i32
    }
    memref.store %s1, %out[%k3] : memref<5xi32>
    %s3 = scf.for %i = %k0 to %k100000 step %k3 iter_args(%s = %i0) -> (i32) {
      %ii = arith.index_cast %i : index to i32
      %m = arith.addi %s, %ii : i32
      scf.yield %m : i32
    }
    memref.store %s3, %out[%k4] : memref<5xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %pad : memref<5xi32>, vector<5xi32>
  vector.print %v : vector<5xi32>
  memref.dealloc %out : memref<5xi32>
  return
}
