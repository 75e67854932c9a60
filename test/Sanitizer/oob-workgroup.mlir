// memcheck, one planted bug: a load one past the end of a workgroup tile, in the last thread.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %out = gpu.alloc () : memref<32xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 2.0 : f32
    memref.store %f, %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    // A shift by one reads past the tile in the last thread.
    %next = arith.addi %tx, %c1 : index
    %v = memref.load %tile[%next] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds load from memref<32xf32, #gpu.address_space<workgroup>> in kernel 'main_kernel', block (0,0,0) thread (31,0,0)
// CHECK-NEXT:   at {{.*}}oob-workgroup.mlir:15:10: %v = memref.load %tile[%next] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   index 32 of dimension 0 is outside 0..31
// CHECK-NEXT:   the memref views the block's workgroup memory from byte 0
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
