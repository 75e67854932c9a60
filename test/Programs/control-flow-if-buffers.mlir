// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// scf.if that yields workgroup buffers: 2 blocks of 8 threads, each with
// two workgroup buffers a and b. Thread t stores 10*t into a[t] and
// 1000 + t into b[t]; after a barrier
//   - the block picks its tile: block 0 reads a, block 1 reads b (the way a
//     double-buffered kernel picks the tile of this step), at 7 - t;
//   - each thread picks again by its own parity (odd threads read a, even
//     ones b), at t;
// and adds the two reads into out[8*bx + t].

// CHECK:( 1070, 70, 1052, 70, 1034, 70, 1016, 70, 2007, 1016, 2007, 1034, 2007, 1052, 2007, 1070 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0 : i32
  %out = memref.alloc() : memref<16xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %i10 = arith.constant 10 : i32
    %i1000 = arith.constant 1000 : i32
    %a = memref.alloca() : memref<8xi32, #gpu.address_space<workgroup>>
    %b = memref.alloca() : memref<8xi32, #gpu.address_space<workgroup>>
    %t = arith.index_cast %tx : index to i32
    %ta = arith.muli %t, %i10 : i32
    %tb = arith.addi %t, %i1000 : i32
    memref.store %ta, %a[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
    memref.store %tb, %b[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %block0 = arith.cmpi eq, %bx, %c0 : index
    %tile = scf.if %block0 -> (memref<8xi32, #gpu.address_space<workgroup>>) {
      scf.yield %a : memref<8xi32, #gpu.address_space<workgroup>>
    } else {
      scf.yield %b : memref<8xi32, #gpu.address_space<workgroup>>
    }
    %r = arith.subi %c7, %tx : index
    %x = memref.load %tile[%r] : memref<8xi32, #gpu.address_space<workgroup>>
    %par = arith.remui %tx, %c2 : index
    %odd = arith.cmpi eq, %par, %c1 : index
    %mine = scf.if %odd -> (memref<8xi32, #gpu.address_space<workgroup>>) {
      scf.yield %a : memref<8xi32, #gpu.address_space<workgroup>>
    } else {
      scf.yield %b : memref<8xi32, #gpu.address_space<workgroup>>
    }
    %y = memref.load %mine[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
    %s = arith.addi %x, %y : i32
    %g0 = arith.muli %bx, %c8 : index
    %g = arith.addi %g0, %tx : index
    memref.store %s, %out[%g] : memref<16xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %pad : memref<16xi32>, vector<16xi32>
  vector.print %v : vector<16xi32>
  memref.dealloc %out : memref<16xi32>
  return
}
