// memcheck, one planted bug: a histogram with a bin too few: atomics past the end, counted per site.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bins = gpu.alloc () : memref<4xi32>
  %zero1 = arith.constant 0 : i32
  gpu.memset %bins, %zero1 : memref<4xi32>, i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    // A histogram with a bin too few: tx / 3 reaches 5.
    %c3 = arith.constant 3 : index
    %bin = arith.divui %tx, %c3 : index
    %one = arith.constant 1 : i32
    %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<4xi32>) -> i32
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds atomic update of memref<4xi32> in kernel 'main_kernel', block (0,0,0) thread (12,0,0)
// CHECK-NEXT:   at {{.*}}oob-atomic.mlir:15:12: %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<4xi32>) -> i32
// CHECK-NEXT:   index 4 of dimension 0 is outside 0..3
// CHECK-NEXT:   the memref views device memory of 16 bytes from byte 0, allocated at {{.*}}oob-atomic.mlir:6:11: %bins = gpu.alloc () : memref<4xi32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds atomic update of memref<4xi32> at {{.*}}oob-atomic.mlir:15:12 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 4 errors
