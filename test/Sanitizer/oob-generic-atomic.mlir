// memcheck, one planted bug: a generic atomic (running maximum) with a slot too few.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %maxima = gpu.alloc () : memref<2xi32>
  %zero1 = arith.constant 0 : i32
  gpu.memset %maxima, %zero1 : memref<2xi32>, i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    // A running maximum per group of four threads, but eight threads make
    // three groups (tx / 3), and there are two slots.
    %c3 = arith.constant 3 : index
    %g = arith.divui %tx, %c3 : index
    %i = arith.index_cast %tx : index to i32
    %r = memref.generic_atomic_rmw %maxima[%g] : memref<2xi32> {
    ^bb0(%old: i32):
      %m = arith.maxsi %old, %i : i32
      memref.atomic_yield %m : i32
    }
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds atomic update of memref<2xi32> in kernel 'main_kernel', block (0,0,0) thread (6,0,0)
// CHECK-NEXT:   at {{.*}}oob-generic-atomic.mlir:16:10: %r = memref.generic_atomic_rmw %maxima[%g] : memref<2xi32> {
// CHECK-NEXT:   index 2 of dimension 0 is outside 0..1
// CHECK-NEXT:   the memref views device memory of 8 bytes from byte 0, allocated at {{.*}}oob-generic-atomic.mlir:6:13: %maxima = gpu.alloc () : memref<2xi32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds atomic update of memref<2xi32> at {{.*}}oob-generic-atomic.mlir:16:10 happened 2 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 2 errors
