// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Expected to fail: math.ipowi reaches LLVM translation unlowered inside a
// kernel:
//   error: cannot be converted to LLVM IR: missing
//   `LLVMTranslationDialectInterface` registration for dialect for op:
//   math.ipowi
// (on the host the same op works: it is lowered to a generated function).

// math.ipowi in a kernel: thread t computes t^2 and (t - 4)^3.

// CHECK:squares: ( 0, 1, 4, 9, 16, 25, 36, 49 )
// CHECK-NEXT:cubes:   ( -64, -27, -8, -1, 0, 1, 8, 27 )
// CHECK-NEXT:host t=7: 49 27

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %i0 = arith.constant 0 : i32
  %sq = memref.alloc() : memref<8xi32>
  %cu = memref.alloc() : memref<8xi32>
  %sq_u = memref.cast %sq : memref<8xi32> to memref<*xi32>
  gpu.host_register %sq_u : memref<*xi32>
  %cu_u = memref.cast %cu : memref<8xi32> to memref<*xi32>
  gpu.host_register %cu_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %two = arith.constant 2 : i32
    %three = arith.constant 3 : i32
    %four = arith.constant 4 : i32
    %p = math.ipowi %t, %two : i32
    %t4 = arith.subi %t, %four : i32
    %q = math.ipowi %t4, %three : i32
    memref.store %p, %sq[%tx] : memref<8xi32>
    memref.store %q, %cu[%tx] : memref<8xi32>
    gpu.terminator
  }
  %v1 = vector.transfer_read %sq[%c0], %i0 {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
  %v2 = vector.transfer_read %cu[%c0], %i0 {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
  vector.print str "squares: "
  vector.print %v1 : vector<8xi32>
  vector.print str "cubes:   "
  vector.print %v2 : vector<8xi32>
  %seven = arith.constant 7 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %four = arith.constant 4 : i32
  %h1 = math.ipowi %seven, %two : i32
  %s4 = arith.subi %seven, %four : i32
  %h2 = math.ipowi %s4, %three : i32
  vector.print str "host t=7: "
  vector.print %h1 : i32 punctuation <no_punctuation>
  vector.print str " "
  vector.print %h2 : i32
  return
}
