// memcheck, one planted bug: a reversal indexing with n - i instead of n - 1 - i.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %in = gpu.alloc () : memref<16xi32>
  %zero1 = arith.constant 0 : i32
  gpu.memset %in, %zero1 : memref<16xi32>, i32
  %out = gpu.alloc () : memref<16xi32>
  %zero2 = arith.constant 0 : i32
  gpu.memset %out, %zero2 : memref<16xi32>, i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    // Reversal with n - i instead of n - 1 - i.
    %v = memref.load %in[%tx] : memref<16xi32>
    %j = arith.subi %c16, %tx : index
    memref.store %v, %out[%j] : memref<16xi32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<16xi32> in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}oob-reverse.mlir:17:5: memref.store %v, %out[%j] : memref<16xi32>
// CHECK-NEXT:   index 16 of dimension 0 is outside 0..15
// CHECK-NEXT:   the memref views device memory of 64 bytes from byte 0, allocated at {{.*}}oob-reverse.mlir:9:10: %out = gpu.alloc () : memref<16xi32>
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
