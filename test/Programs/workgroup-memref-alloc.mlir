// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// memref.alloc (not alloca) of workgroup memory inside a gpu.launch, in
// both spellings (3 and #gpu.address_space<workgroup>), one of them inside
// an scf.if that every thread takes, with memref.dealloc at the end (which
// gpumem erases: the buffers live as long as the block). 2 blocks of 32
// threads: thread t stores t into a[t] and 100*bx into d[t]; after a
// barrier it reads a[31-t] + d[31-t] (another thread's entries), so
// out[32*bx + t] = 31 - t + 100*bx. The two buffers must be distinct and
// per block.

// CHECK:Unranked Memref base@ = 0x{{[0-9a-f]+}} rank = 1 offset = 0 sizes = [64] strides = [1] data ={{ }}
// CHECK-NEXT:[31,  30,  29,  28,  27,  26,  25,  24,  23,  22,  21,  20,  19,  18,  17,  16,  15,  14,  13,  12,  11,  10,  9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  131,  130,  129,  128,  127,  126,  125,  124,  123,  122,  121,  120,  119,  118,  117,  116,  115,  114,  113,  112,  111,  110,  109,  108,  107,  106,  105,  104,  103,  102,  101,  100]
// CHECK-NEXT:mismatches: 0

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %i0 = arith.constant 0 : i32
  %out = memref.alloc() : memref<64xi32>
  %out_u = memref.cast %out : memref<64xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = memref.alloc() : memref<32xi32, 3>
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %a[%tx] : memref<32xi32, 3>
    %always = arith.cmpi ult, %tx, %sx : index
    %s = scf.if %always -> (i32) {
      %d = memref.alloc() : memref<32xi32, #gpu.address_space<workgroup>>
      %b100 = arith.muli %bx, %c100 : index
      %bi = arith.index_cast %b100 : index to i32
      memref.store %bi, %d[%tx] : memref<32xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %o = arith.subi %c31, %tx : index
      %x = memref.load %a[%o] : memref<32xi32, 3>
      %y = memref.load %d[%o] : memref<32xi32, #gpu.address_space<workgroup>>
      %xy = arith.addi %x, %y : i32
      memref.dealloc %d : memref<32xi32, #gpu.address_space<workgroup>>
      scf.yield %xy : i32
    } else {
      scf.yield %i0 : i32
    }
    %g0 = arith.muli %bx, %c32 : index
    %g = arith.addi %g0, %tx : index
    memref.store %s, %out[%g] : memref<64xi32>
    memref.dealloc %a : memref<32xi32, 3>
    gpu.terminator
  }
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  %bad = scf.for %g = %c0 to %c64 step %c1 iter_args(%n = %i0) -> (i32) {
    %b = arith.divui %g, %c32 : index
    %t = arith.remui %g, %c32 : index
    %o = arith.subi %c31, %t : index
    %b100 = arith.muli %b, %c100 : index
    %w = arith.addi %o, %b100 : index
    %wi = arith.index_cast %w : index to i32
    %got = memref.load %out[%g] : memref<64xi32>
    %ne = arith.cmpi ne, %got, %wi : i32
    %inc = arith.extui %ne : i1 to i32
    %n1 = arith.addi %n, %inc : i32
    scf.yield %n1 : i32
  }
  vector.print str "mismatches: "
  vector.print %bad : i32
  gpu.host_unregister %out_u : memref<*xi32>
  memref.dealloc %out : memref<64xi32>
  return
}

func.func private @printMemrefI32(memref<*xi32>)
