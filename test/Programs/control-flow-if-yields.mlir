// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// scf.if that yields values, nested: one block of 16 threads. Thread t
// computes
//   y = t odd ? t + 100 : t + 200
//   z = t < 8 ? (t % 4 == 0 ? y * 2 : y + 1) : (t == 15 ? 7 : y - 1)
//   (a, b) = t < 4 ? (t, 1) : (2 * t, 3)        (an if with two results)
// and stores z, a + b into out[t], out[16 + t]. Both branches of every if
// compute something different, so merging the branches of one (as a
// rewrite that folded the two successors of a conditional branch would)
// changes the answer.

// CHECK:( 400, 102, 203, 104, 408, 106, 207, 108, 207, 108, 209, 110, 211, 112, 213, 7 )
// CHECK-NEXT:( 1, 2, 3, 4, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0 : i32
  %out = memref.alloc() : memref<32xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i4 = arith.constant 4 : i32
    %i7 = arith.constant 7 : i32
    %i8 = arith.constant 8 : i32
    %i15 = arith.constant 15 : i32
    %i100 = arith.constant 100 : i32
    %i200 = arith.constant 200 : i32
    %zero = arith.constant 0 : i32
    %t = arith.index_cast %tx : index to i32
    %bit = arith.andi %t, %i1 : i32
    %odd = arith.cmpi ne, %bit, %zero : i32
    %y = scf.if %odd -> (i32) {
      %v = arith.addi %t, %i100 : i32
      scf.yield %v : i32
    } else {
      %v = arith.addi %t, %i200 : i32
      scf.yield %v : i32
    }
    %low = arith.cmpi slt, %t, %i8 : i32
    %z = scf.if %low -> (i32) {
      %m = arith.remsi %t, %i4 : i32
      %m0 = arith.cmpi eq, %m, %zero : i32
      %w = scf.if %m0 -> (i32) {
        %d = arith.muli %y, %i2 : i32
        scf.yield %d : i32
      } else {
        %d = arith.addi %y, %i1 : i32
        scf.yield %d : i32
      }
      scf.yield %w : i32
    } else {
      %last = arith.cmpi eq, %t, %i15 : i32
      %w = scf.if %last -> (i32) {
        scf.yield %i7 : i32
      } else {
        %d = arith.subi %y, %i1 : i32
        scf.yield %d : i32
      }
      scf.yield %w : i32
    }
    %first = arith.cmpi slt, %t, %i4 : i32
    %a, %b = scf.if %first -> (i32, i32) {
      scf.yield %t, %i1 : i32, i32
    } else {
      %d = arith.muli %t, %i2 : i32
      scf.yield %d, %i3 : i32, i32
    }
    %ab = arith.addi %a, %b : i32
    memref.store %z, %out[%tx] : memref<32xi32>
    %p = arith.addi %tx, %c16 : index
    memref.store %ab, %out[%p] : memref<32xi32>
    gpu.terminator
  }
  %v0 = vector.transfer_read %out[%c0], %pad : memref<32xi32>, vector<16xi32>
  %v1 = vector.transfer_read %out[%c16], %pad : memref<32xi32>, vector<16xi32>
  vector.print %v0 : vector<16xi32>
  vector.print %v1 : vector<16xi32>
  memref.dealloc %out : memref<32xi32>
  return
}
