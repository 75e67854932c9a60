// memcheck, one planted bug: a 16x16 workgroup tile filled by a 16x17 block.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %out = gpu.alloc () : memref<16x16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c17, %sz = %c1) {
    // A 16x16 tile filled by a 16x17 block (the padding meant for the
    // tile's row length went into the block's height).
    %tile = memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    memref.store %f, %tile[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<16x16xf32, #gpu.address_space<workgroup>> in kernel 'main_kernel', block (0,0,0) thread (0,16,0)
// CHECK-NEXT:   at {{.*}}oob-workgroup-2d.mlir:14:5: memref.store %f, %tile[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   index 16 of dimension 0 is outside 0..15
// CHECK-NEXT:   the memref views the block's workgroup memory from byte 0
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<16x16xf32, #gpu.address_space<workgroup>> at {{.*}}oob-workgroup-2d.mlir:14:5 happened 16 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 16 errors
