// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// 8-bit integers in buffers, in workgroup memory, as a kernel argument and
// in arithmetic that wraps at 8 bits (upstream's Vulkan addi8 test does
// the first). One block of 8 threads: a[t] = 10 * t + 100 and b[t] = t are
// i8 buffers; the host passes k = 3 as an i8. Thread t stores
// s = a[t] + b[t] + k (i8, wrapping: 100 + 10t + t + 3) into workgroup
// memory, and after a barrier out[t] = sign-extended s[7 - t], and
// wide[t] = s[t] zero-extended to i32.

// CHECK:( -76, -87, -98, -109, -120, 125, 114, 103 )
// CHECK-NEXT:( 103, 114, 125, 136, 147, 158, 169, 180 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %k = arith.constant 3 : i8
  %ten = arith.constant 10 : i8
  %hundred = arith.constant 100 : i8
  %a = memref.alloc() : memref<8xi8>
  %b = memref.alloc() : memref<8xi8>
  %out = memref.alloc() : memref<8xi8>
  %wide = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %i8 = arith.index_cast %i : index to i8
    %x = arith.muli %i8, %ten : i8
    %y = arith.addi %x, %hundred : i8
    memref.store %y, %a[%i] : memref<8xi8>
    memref.store %i8, %b[%i] : memref<8xi8>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %k7 = arith.constant 7 : index
    %s = memref.alloca() : memref<8xi8, #gpu.address_space<workgroup>>
    %x = memref.load %a[%tx] : memref<8xi8>
    %y = memref.load %b[%tx] : memref<8xi8>
    %xy = arith.addi %x, %y : i8
    %v = arith.addi %xy, %k : i8
    memref.store %v, %s[%tx] : memref<8xi8, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %k7, %tx : index
    %w = memref.load %s[%r] : memref<8xi8, #gpu.address_space<workgroup>>
    memref.store %w, %out[%tx] : memref<8xi8>
    %z = arith.extui %v : i8 to i32
    memref.store %z, %wide[%tx] : memref<8xi32>
    gpu.terminator
  }
  %pad8 = arith.constant 0 : i8
  %pad = arith.constant 0 : i32
  %o = vector.transfer_read %out[%c0], %pad8 : memref<8xi8>, vector<8xi8>
  vector.print %o : vector<8xi8>
  %w = vector.transfer_read %wide[%c0], %pad : memref<8xi32>, vector<8xi32>
  vector.print %w : vector<8xi32>
  return
}
