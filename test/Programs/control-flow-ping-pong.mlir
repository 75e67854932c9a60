// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Ping-pong workgroup buffers carried by scf.for: one block of 8 threads,
// buffers a and b; a[t] = t. Three rounds of
//   dst[t] = 2 * src[(t + 1) % 8]; barrier; swap src and dst
// starting with src = a, dst = b; then out[t] = src[t] (b after three
// rounds): 8 * ((t + 3) % 8).

// CHECK:( 24, 32, 40, 48, 56, 0, 8, 16 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0 : i32
  %out = memref.alloc() : memref<8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k3 = arith.constant 3 : index
    %k8 = arith.constant 8 : index
    %i2 = arith.constant 2 : i32
    %a = memref.alloca() : memref<8xi32, #gpu.address_space<workgroup>>
    %b = memref.alloca() : memref<8xi32, #gpu.address_space<workgroup>>
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %a[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %src, %dst = scf.for %r = %k0 to %k3 step %k1
        iter_args(%s = %a, %d = %b) -> (memref<8xi32, #gpu.address_space<workgroup>>, memref<8xi32, #gpu.address_space<workgroup>>) {
      %n0 = arith.addi %tx, %k1 : index
      %n = arith.remui %n0, %k8 : index
      %v = memref.load %s[%n] : memref<8xi32, #gpu.address_space<workgroup>>
      %w = arith.muli %v, %i2 : i32
      memref.store %w, %d[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.yield %d, %s : memref<8xi32, #gpu.address_space<workgroup>>, memref<8xi32, #gpu.address_space<workgroup>>
    }
    %r = memref.load %src[%tx] : memref<8xi32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%tx] : memref<8xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %pad : memref<8xi32>, vector<8xi32>
  vector.print %v : vector<8xi32>
  memref.dealloc %out : memref<8xi32>
  return
}
