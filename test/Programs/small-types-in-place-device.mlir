// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Each thread updates its own 16-bit and 8-bit elements of device memory in
// place (read, then write), so two (i16) or four (i8) threads share each
// 4-byte word without sharing a byte: no race, and --sanitize (run on every
// program by test/Sanitizer/clean-programs*.test) must not report one.
// 2 blocks x 32 threads, element e = 32 b + t: h[e] = 3 h[e] + 1 with
// h[e] = e - 30 first; q[e] = q[e] + e with q[e] = e first (wrapping i8).

// CHECK:( -89, -86, -83, -80, -77, -74, -71, -68, -65, -62, -59, -56, -53, -50, -47, -44, -41, -38, -35, -32, -29, -26, -23, -20, -17, -14, -11, -8, -5, -2, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 88, 91, 94, 97, 100 )
// CHECK-NEXT:( 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %h = memref.alloc() : memref<64xi16>
  %q = memref.alloc() : memref<64xi8>
  scf.for %i = %c0 to %c64 step %c1 {
    %e = arith.index_cast %i : index to i16
    %c30 = arith.constant 30 : i16
    %v = arith.subi %e, %c30 : i16
    memref.store %v, %h[%i] : memref<64xi16>
    %e8 = arith.index_cast %i : index to i8
    memref.store %e8, %q[%i] : memref<64xi8>
  }
  %dh = gpu.alloc() : memref<64xi16>
  %dq = gpu.alloc() : memref<64xi8>
  gpu.memcpy %dh, %h : memref<64xi16>, memref<64xi16>
  gpu.memcpy %dq, %q : memref<64xi8>, memref<64xi8>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %k32 = arith.constant 32 : index
    %base = arith.muli %bx, %k32 : index
    %e = arith.addi %base, %tx : index
    %three = arith.constant 3 : i16
    %one = arith.constant 1 : i16
    %x = memref.load %dh[%e] : memref<64xi16>
    %x3 = arith.muli %x, %three : i16
    %y = arith.addi %x3, %one : i16
    memref.store %y, %dh[%e] : memref<64xi16>
    %b = memref.load %dq[%e] : memref<64xi8>
    %e8 = arith.index_cast %e : index to i8
    %b2 = arith.addi %b, %e8 : i8
    memref.store %b2, %dq[%e] : memref<64xi8>
    gpu.terminator
  }
  gpu.memcpy %h, %dh : memref<64xi16>, memref<64xi16>
  gpu.memcpy %q, %dq : memref<64xi8>, memref<64xi8>
  gpu.dealloc %dh : memref<64xi16>
  gpu.dealloc %dq : memref<64xi8>
  %pad16 = arith.constant 0 : i16
  %pad8 = arith.constant 0 : i8
  %hv = vector.transfer_read %h[%c0], %pad16 : memref<64xi16>, vector<64xi16>
  vector.print %hv : vector<64xi16>
  %qv = vector.transfer_read %q[%c0], %pad8 : memref<64xi8>, vector<64xi8>
  vector.print %qv : vector<64xi8>
  return
}
