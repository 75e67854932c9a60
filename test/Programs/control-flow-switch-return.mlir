// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// scf.index_switch and an early return: one block of 16 threads; the host
// fills out with -1. Threads 12..15 leave the kernel at once (a
// cf.cond_br to a block that ends the kernel); the others pick by t % 4:
//   case 0: 10 * t;  case 1: t + 1000;
//   case 2: t < 8 ? 2 : 3 (an scf.if inside a case);  default: -t.

// CHECK:( 0, 1001, 2, -3, 40, 1005, 2, -7, 80, 1009, 3, -11, -1, -1, -1, -1 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0 : i32
  %minus1 = arith.constant -1 : i32
  %out = memref.alloc() : memref<16xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %minus1, %out[%i] : memref<16xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %k4 = arith.constant 4 : index
    %k8 = arith.constant 8 : index
    %k12 = arith.constant 12 : index
    %late = arith.cmpi uge, %tx, %k12 : index
    cf.cond_br %late, ^done, ^work
  ^work:
    %i0 = arith.constant 0 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i10 = arith.constant 10 : i32
    %i1000 = arith.constant 1000 : i32
    %t = arith.index_cast %tx : index to i32
    %case = arith.remui %tx, %k4 : index
    %v = scf.index_switch %case -> i32
    case 0 {
      %m = arith.muli %t, %i10 : i32
      scf.yield %m : i32
    }
    case 1 {
      %m = arith.addi %t, %i1000 : i32
      scf.yield %m : i32
    }
    case 2 {
      %low = arith.cmpi ult, %tx, %k8 : index
      %m = scf.if %low -> (i32) {
        scf.yield %i2 : i32
      } else {
        scf.yield %i3 : i32
      }
      scf.yield %m : i32
    }
    default {
      %m = arith.subi %i0, %t : i32
      scf.yield %m : i32
    }
    memref.store %v, %out[%tx] : memref<16xi32>
    gpu.terminator
  ^done:
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %pad : memref<16xi32>, vector<16xi32>
  vector.print %v : vector<16xi32>
  memref.dealloc %out : memref<16xi32>
  return
}
