// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Vector ops on workgroup memory: one block of 4 threads and a 16-element
// workgroup buffer. Thread t writes (4t, 4t+1, 4t+2, 4t+3) * 10 with
// vector.transfer_write at 4t; after a barrier it reads the next thread's
// four with vector.load, adds its own (vector.transfer_read of a
// transfer_read), and stores the sum with vector.store. After another
// barrier it copies its row out with vector.load/store, and the pair
// (s[4t+3], s[4t+4]) with a transfer_read that is not in bounds: for
// t = 3 the second element is past the end and reads the padding, -1.

// CHECK:( 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 260, 120, 140, 160, 180 )
// CHECK-NEXT:( 100, 120, 180, 200, 260, 120, 180, -1 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0 : i32
  %out = memref.alloc() : memref<24xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k4 = arith.constant 4 : index
    %k16 = arith.constant 16 : index
    %minus1 = arith.constant -1 : i32
    %ten = arith.constant dense<10> : vector<4xi32>
    %ramp = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
    %s = memref.alloca() : memref<16xi32, #gpu.address_space<workgroup>>
    %base = arith.muli %tx, %k4 : index
    %b = arith.index_cast %base : index to i32
    %bv = vector.broadcast %b : i32 to vector<4xi32>
    %v0 = arith.addi %bv, %ramp : vector<4xi32>
    %v = arith.muli %v0, %ten : vector<4xi32>
    vector.transfer_write %v, %s[%base] {in_bounds = [true]} : vector<4xi32>, memref<16xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %n0 = arith.addi %base, %k4 : index
    %next = arith.remui %n0, %k16 : index
    %theirs = vector.load %s[%next] : memref<16xi32, #gpu.address_space<workgroup>>, vector<4xi32>
    %mine = vector.transfer_read %s[%base], %minus1 {in_bounds = [true]} : memref<16xi32, #gpu.address_space<workgroup>>, vector<4xi32>
    %sum = arith.addi %mine, %theirs : vector<4xi32>
    gpu.barrier
    vector.store %sum, %s[%base] : memref<16xi32, #gpu.address_space<workgroup>>, vector<4xi32>
    gpu.barrier
    %row = vector.load %s[%base] : memref<16xi32, #gpu.address_space<workgroup>>, vector<4xi32>
    vector.store %row, %out[%base] : memref<24xi32>, vector<4xi32>
    // Two elements from 4t + 3: the second is past the end for t = 3.
    %edge = arith.addi %base, %k2 : index
    %e = arith.addi %edge, %k1 : index
    %pair = vector.transfer_read %s[%e], %minus1 : memref<16xi32, #gpu.address_space<workgroup>>, vector<2xi32>
    %t2 = arith.muli %tx, %k2 : index
    %o = arith.addi %t2, %k16 : index
    vector.transfer_write %pair, %out[%o] {in_bounds = [true]} : vector<2xi32>, memref<24xi32>
    gpu.terminator
  }
  %v0 = vector.transfer_read %out[%c0], %pad : memref<24xi32>, vector<16xi32>
  %c16 = arith.constant 16 : index
  %v1 = vector.transfer_read %out[%c16], %pad : memref<24xi32>, vector<8xi32>
  vector.print %v0 : vector<16xi32>
  vector.print %v1 : vector<8xi32>
  memref.dealloc %out : memref<24xi32>
  return
}
