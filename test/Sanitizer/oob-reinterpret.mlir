// memcheck, one planted bug: a flat buffer reinterpreted as 3 rows, written by a block of 4 rows.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %flat = gpu.alloc () : memref<12xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c1) {
    // The flat buffer seen as 3 rows of 4; the block has 4 rows.
    %m = memref.reinterpret_cast %flat to offset: [0], sizes: [3, 4], strides: [4, 1] : memref<12xi32> to memref<3x4xi32>
    %v = arith.index_cast %tx : index to i32
    memref.store %v, %m[%ty, %tx] : memref<3x4xi32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<3x4xi32> in kernel 'main_kernel', block (0,0,0) thread (0,3,0)
// CHECK-NEXT:   at {{.*}}oob-reinterpret.mlir:12:5: memref.store %v, %m[%ty, %tx] : memref<3x4xi32>
// CHECK-NEXT:   index 3 of dimension 0 is outside 0..2
// CHECK-NEXT:   the memref views device memory of 48 bytes from byte 0, allocated at {{.*}}oob-reinterpret.mlir:6:11: %flat = gpu.alloc () : memref<12xi32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<3x4xi32> at {{.*}}oob-reinterpret.mlir:12:5 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 4 errors
