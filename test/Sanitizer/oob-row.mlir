// memcheck, one planted bug: a store past the end of a row of a 2-D buffer, which lands inside the buffer (a linear bounds check misses it).
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %m = gpu.alloc () : memref<4x4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1) {
    // Column tx + 1: inside the buffer, but past the end of the row.
    %col = arith.addi %tx, %c1 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %m[%ty, %col] : memref<4x4xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<4x4xf32> in kernel 'main_kernel', block (0,0,0) thread (3,0,0)
// CHECK-NEXT:   at {{.*}}oob-row.mlir:12:5: memref.store %f, %m[%ty, %col] : memref<4x4xf32>
// CHECK-NEXT:   index 4 of dimension 1 is outside 0..3
// CHECK-NEXT:   the memref views device memory of 64 bytes from byte 0, allocated at {{.*}}oob-row.mlir:6:8: %m = gpu.alloc () : memref<4x4xf32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<4x4xf32> at {{.*}}oob-row.mlir:12:5 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 4 errors
