// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace
// RUN: gpumem-run --target=cpu --workgroup-reuse=false %s | FileCheck %s --match-full-lines --strict-whitespace

// Dynamic-size workgroup buffers in two phases share dynamic shared memory:
// 2 blocks of %n = 64 threads (the size is known only on the host); in[i] =
// (i mod 5) + 1.
//  1. %a (%n x i32): each thread reads its right neighbour's value.
//  2. %b (%n x i32), at the same offset as %a: each thread writes twice
//     that value and, after a barrier, reads its left neighbour's, so out[i]
//     = 2 * in[i]. No barrier is written between the phases: the packing
//     inserts one, since thread 63's read of a[0] would see thread 0's
//     write to b[0].

// CHECK:out: ( 2, 4, 6, 8, 10, 2, 8, 6 )
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c128 = arith.constant 128 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32

  %in = memref.alloc() : memref<128xi32>
  %out = memref.alloc() : memref<128xi32>
  %sizes = memref.alloc() : memref<1xindex>
  %c64v = arith.constant 64 : index
  memref.store %c64v, %sizes[%c0] : memref<1xindex>
  %n = memref.load %sizes[%c0] : memref<1xindex>
  scf.for %i = %c0 to %c128 step %c1 {
    %m = arith.remui %i, %c5 : index
    %mi = arith.index_cast %m : index to i32
    %v = arith.addi %mi, %i1 : i32
    memref.store %v, %in[%i] : memref<128xi32>
  }
  %in_u = memref.cast %in : memref<128xi32> to memref<*xi32>
  gpu.host_register %in_u : memref<*xi32>
  %out_u = memref.cast %out : memref<128xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %g = arith.addi %base, %tx : index
    %last = arith.subi %sx, %c1 : index
    %right = arith.addi %tx, %c1 : index
    %n1 = arith.remui %right, %sx : index
    %left0 = arith.addi %tx, %last : index
    %p = arith.remui %left0, %sx : index

    %a = memref.alloca(%sx) : memref<?xi32, #gpu.address_space<workgroup>>
    %x0 = memref.load %in[%g] : memref<128xi32>
    memref.store %x0, %a[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %x1 = memref.load %a[%n1] : memref<?xi32, #gpu.address_space<workgroup>>

    %b = memref.alloca(%sx) : memref<?xi32, #gpu.address_space<workgroup>>
    %x2 = arith.muli %x1, %i2 : i32
    memref.store %x2, %b[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %y = memref.load %b[%p] : memref<?xi32, #gpu.address_space<workgroup>>
    memref.store %y, %out[%g] : memref<128xi32>
    gpu.terminator
  }

  %bad = scf.for %i = %c0 to %c128 step %c1 iter_args(%nb = %i0) -> (i32) {
    %x = memref.load %in[%i] : memref<128xi32>
    %want = arith.muli %x, %i2 : i32
    %got = memref.load %out[%i] : memref<128xi32>
    %ne = arith.cmpi ne, %got, %want : i32
    %inc = arith.extui %ne : i1 to i32
    %nb1 = arith.addi %nb, %inc : i32
    scf.yield %nb1 : i32
  }
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c98 = arith.constant 98 : index
  %c127 = arith.constant 127 : index
  %v0 = memref.load %out[%c0] : memref<128xi32>
  %v1 = memref.load %out[%c1] : memref<128xi32>
  %v2 = memref.load %out[%c2] : memref<128xi32>
  %v3 = memref.load %out[%c3] : memref<128xi32>
  %v4 = memref.load %out[%c4] : memref<128xi32>
  %v5 = memref.load %out[%c5] : memref<128xi32>
  %v6 = memref.load %out[%c98] : memref<128xi32>
  %v7 = memref.load %out[%c127] : memref<128xi32>
  %vec = vector.from_elements %v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7 : vector<8xi32>
  vector.print str "out: "
  vector.print %vec : vector<8xi32>
  vector.print str "mismatches: "
  vector.print %bad : i32

  gpu.host_unregister %in_u : memref<*xi32>
  gpu.host_unregister %out_u : memref<*xi32>
  memref.dealloc %in : memref<128xi32>
  memref.dealloc %out : memref<128xi32>
  memref.dealloc %sizes : memref<1xindex>
  return
}
