// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines
// RUN: %if cuda-emu %{ gpumem-run --target=cuda-emu %s | FileCheck %s --match-full-lines %}

// A block-wide inclusive scan (Hillis-Steele) whose two buffers are the
// stages of one workgroup ring, memref<2x64xi32>, picked each step by the
// loop's induction variable modulo 2 (the way pipelined kernels index
// their stages), over 16-bit inputs widened on load; the result is read
// back through a rank-reducing subview of the last stage and stored as
// 64-bit sums. Inputs: v[t] = (37 t mod 11) - 5.

// CHECK:first: -5
// CHECK-NEXT:last: 0
// CHECK-NEXT:checksum: -262

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc () : memref<64xi64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %ring = memref.alloca() : memref<2x64xi32, #gpu.address_space<workgroup>>
    %c37 = arith.constant 37 : index
    %c11 = arith.constant 11 : index
    %m = arith.muli %tx, %c37 : index
    %r = arith.remui %m, %c11 : index
    %ri = arith.index_cast %r : index to i16
    %five = arith.constant 5 : i16
    %v16 = arith.subi %ri, %five : i16
    %v = arith.extsi %v16 : i16 to i32
    memref.store %v, %ring[%c0, %tx] : memref<2x64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.for %s = %c0 to %c6 step %c1 {
      %src = arith.remui %s, %c2 : index
      %dst = arith.subi %c1, %src : index
      %stride = arith.shli %c1, %s : index
      %mine = memref.load %ring[%src, %tx] : memref<2x64xi32, #gpu.address_space<workgroup>>
      %far = arith.cmpi uge, %tx, %stride : index
      %sum = scf.if %far -> i32 {
        %j = arith.subi %tx, %stride : index
        %other = memref.load %ring[%src, %j] : memref<2x64xi32, #gpu.address_space<workgroup>>
        %t = arith.addi %mine, %other : i32
        scf.yield %t : i32
      } else {
        scf.yield %mine : i32
      }
      memref.store %sum, %ring[%dst, %tx] : memref<2x64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    // Six steps end in stage 0.
    %last = memref.subview %ring[0, 0] [1, 64] [1, 1]
        : memref<2x64xi32, #gpu.address_space<workgroup>>
          to memref<64xi32, strided<[1]>, #gpu.address_space<workgroup>>
    %x = memref.load %last[%tx] : memref<64xi32, strided<[1]>, #gpu.address_space<workgroup>>
    %w = arith.extsi %x : i32 to i64
    memref.store %w, %out[%tx] : memref<64xi64>
    gpu.terminator
  }
  %host = memref.alloc() : memref<64xi64>
  gpu.memcpy %host, %out : memref<64xi64>, memref<64xi64>
  %zero = arith.constant 0 : i64
  %total = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> i64 {
    %e = memref.load %host[%i] : memref<64xi64>
    %n = arith.addi %acc, %e : i64
    scf.yield %n : i64
  }
  %first = memref.load %host[%c0] : memref<64xi64>
  %lastv = memref.load %host[%c63] : memref<64xi64>
  vector.print str "first: "
  vector.print %first : i64
  vector.print str "last: "
  vector.print %lastv : i64
  vector.print str "checksum: "
  vector.print %total : i64
  gpu.dealloc %out : memref<64xi64>
  memref.dealloc %host : memref<64xi64>
  return
}
