// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Views a kernel makes of a flat device buffer with memref.reinterpret_cast:
// 24 i32 seen as 4 rows of 6 (`rows`), and its last 2 rows seen on their
// own (`tail`, offset 12). A block of 6 x 2 threads reads rows[ty][tx]
// (the host filled element i with i), adds rows[ty + 2][tx] through
// `tail`, and writes the sum back through `tail`. Element 12 + 6ty + tx
// then holds (6ty + tx) + (12 + 6ty + tx) = 12 + 12ty + 2tx: rows 2 and 3
// hold 12, 14, ..., 22 and 24, 26, ..., 34; rows 0 and 1 keep 0..11. The
// views stay inside the buffer, so --sanitize reports nothing.

// CHECK:( 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c24 = arith.constant 24 : index
  %c0_i32 = arith.constant 0 : i32
  %host = memref.alloc() : memref<24xi32>
  scf.for %i = %c0 to %c24 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %host[%i] : memref<24xi32>
  }
  %flat = gpu.alloc () : memref<24xi32>
  gpu.memcpy %flat, %host : memref<24xi32>, memref<24xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c2, %sz = %c1) {
    %rows = memref.reinterpret_cast %flat to offset: [0], sizes: [4, 6], strides: [6, 1] : memref<24xi32> to memref<4x6xi32>
    %tail = memref.reinterpret_cast %flat to offset: [12], sizes: [2, 6], strides: [6, 1] : memref<24xi32> to memref<2x6xi32, strided<[6, 1], offset: 12>>
    %a = memref.load %rows[%ty, %tx] : memref<4x6xi32>
    %b = memref.load %tail[%ty, %tx] : memref<2x6xi32, strided<[6, 1], offset: 12>>
    %s = arith.addi %a, %b : i32
    memref.store %s, %tail[%ty, %tx] : memref<2x6xi32, strided<[6, 1], offset: 12>>
    gpu.terminator
  }
  gpu.memcpy %host, %flat : memref<24xi32>, memref<24xi32>
  %vec = vector.transfer_read %host[%c0], %c0_i32 : memref<24xi32>, vector<24xi32>
  vector.print %vec : vector<24xi32>
  gpu.dealloc %flat : memref<24xi32>
  memref.dealloc %host : memref<24xi32>
  return
}
