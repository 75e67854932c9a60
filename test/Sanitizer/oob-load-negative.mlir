// memcheck, one planted bug: a load at index -1 of a device buffer (thread 0 reads its left neighbour).
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %in = gpu.alloc () : memref<8xi32>
  %zero1 = arith.constant 0 : i32
  gpu.memset %in, %zero1 : memref<8xi32>, i32
  %out = gpu.alloc () : memref<8xi32>
  %zero2 = arith.constant 0 : i32
  gpu.memset %out, %zero2 : memref<8xi32>, i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    // Each thread reads its left neighbour: thread 0 reads index -1.
    %left = arith.subi %tx, %c1 : index
    %v = memref.load %in[%left] : memref<8xi32>
    memref.store %v, %out[%tx] : memref<8xi32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds load from memref<8xi32> in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}oob-load-negative.mlir:16:10: %v = memref.load %in[%left] : memref<8xi32>
// CHECK-NEXT:   index -1 of dimension 0 is outside 0..7
// CHECK-NEXT:   the memref views device memory of 32 bytes from byte 0, allocated at {{.*}}oob-load-negative.mlir:6:9: %in = gpu.alloc () : memref<8xi32>
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
