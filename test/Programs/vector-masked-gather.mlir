// RUN: gpumem-run --target=cpu %s | FileCheck %s --match-full-lines --strict-whitespace

// Masked and gathering vector accesses on workgroup memory: one thread
// stores 10..17 into an 8-element workgroup buffer s, then
//   vector.maskedload s[0..3] with mask (1, 0, 1, 0), pass-through -1;
//   vector.gather s[7], s[5], s[3], s[1];
//   vector.maskedstore 99 into s[4..7] with the same mask, read back.

// CHECK:( 10, -1, 12, -1, 17, 15, 13, 11, 99, 15, 99, 17 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i32
  %out = memref.alloc() : memref<12xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %k0 = arith.constant 0 : index
    %k4 = arith.constant 4 : index
    %k8 = arith.constant 8 : index
    %s = memref.alloca() : memref<8xi32, #gpu.address_space<workgroup>>
    %ramp = arith.constant dense<[10, 11, 12, 13]> : vector<4xi32>
    %ramp2 = arith.constant dense<[14, 15, 16, 17]> : vector<4xi32>
    vector.store %ramp, %s[%k0] : memref<8xi32, #gpu.address_space<workgroup>>, vector<4xi32>
    vector.store %ramp2, %s[%k4] : memref<8xi32, #gpu.address_space<workgroup>>, vector<4xi32>
    %mask = arith.constant dense<[true, false, true, false]> : vector<4xi1>
    %pass = arith.constant dense<-1> : vector<4xi32>
    %m = vector.maskedload %s[%k0], %mask, %pass : memref<8xi32, #gpu.address_space<workgroup>>, vector<4xi1>, vector<4xi32> into vector<4xi32>
    vector.store %m, %out[%k0] : memref<12xi32>, vector<4xi32>
    %idx = arith.constant dense<[7, 5, 3, 1]> : vector<4xi32>
    %all = arith.constant dense<true> : vector<4xi1>
    %g = vector.gather %s[%k0][%idx], %all, %pass : memref<8xi32, #gpu.address_space<workgroup>>, vector<4xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
    vector.store %g, %out[%k4] : memref<12xi32>, vector<4xi32>
    %nine = arith.constant dense<99> : vector<4xi32>
    vector.maskedstore %s[%k4], %mask, %nine : memref<8xi32, #gpu.address_space<workgroup>>, vector<4xi1>, vector<4xi32>
    %l = vector.load %s[%k4] : memref<8xi32, #gpu.address_space<workgroup>>, vector<4xi32>
    vector.store %l, %out[%k8] : memref<12xi32>, vector<4xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %pad : memref<12xi32>, vector<12xi32>
  vector.print %v : vector<12xi32>
  return
}
