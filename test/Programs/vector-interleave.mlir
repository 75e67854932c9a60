// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// vector.interleave and vector.deinterleave in a kernel (upstream's Vulkan
// vector-interleave and vector-deinterleave programs do the same), and a
// vector of 8 elements built, shuffled and stored: one thread.
//   interleave (0, 1) (10, 11)            -> (0, 10, 1, 11)
//   deinterleave (0, 1, 2, 3, 4, 5, 6, 7) -> (0, 2, 4, 6) (1, 3, 5, 7)
//   the 8-element ramp reversed with vector.shuffle, plus 100

// CHECK:( 0, 10, 1, 11, 0, 2, 4, 6, 1, 3, 5, 7, 0, 0, 0, 0 )
// CHECK-NEXT:( 107, 106, 105, 104, 103, 102, 101, 100 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i32
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<16xi32>
  %wide = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %pad, %out[%i] : memref<16xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k4 = arith.constant 4 : index
    %k8 = arith.constant 8 : index
    %t = arith.index_cast %tx : index to i32
    %a0 = arith.constant dense<[0, 1]> : vector<2xi32>
    %b0 = arith.constant dense<[10, 11]> : vector<2xi32>
    %tv = vector.broadcast %t : i32 to vector<2xi32>
    %a = arith.addi %a0, %tv : vector<2xi32>
    %b = arith.addi %b0, %tv : vector<2xi32>
    %ab = vector.interleave %a, %b : vector<2xi32> -> vector<4xi32>
    vector.store %ab, %out[%k0] : memref<16xi32>, vector<4xi32>
    %r0 = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
    %t8 = vector.broadcast %t : i32 to vector<8xi32>
    %r = arith.addi %r0, %t8 : vector<8xi32>
    %even, %odd = vector.deinterleave %r : vector<8xi32> -> vector<4xi32>
    vector.store %even, %out[%k4] : memref<16xi32>, vector<4xi32>
    vector.store %odd, %out[%k8] : memref<16xi32>, vector<4xi32>
    %rev = vector.shuffle %r, %r [7, 6, 5, 4, 3, 2, 1, 0] : vector<8xi32>, vector<8xi32>
    %hundred = arith.constant dense<100> : vector<8xi32>
    %w = arith.addi %rev, %hundred : vector<8xi32>
    vector.store %w, %wide[%k0] : memref<8xi32>, vector<8xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %pad : memref<16xi32>, vector<16xi32>
  vector.print %v : vector<16xi32>
  %w = vector.transfer_read %wide[%c0], %pad : memref<8xi32>, vector<8xi32>
  vector.print %w : vector<8xi32>
  return
}
