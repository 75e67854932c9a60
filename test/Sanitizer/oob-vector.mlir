// memcheck, one planted bug: vector loads and stores whose last elements run past the end.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = gpu.alloc () : memref<14xf32>
  %zero1 = arith.constant 0.0 : f32
  gpu.memset %buf, %zero1 : memref<14xf32>, f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // Four floats per thread over 14 elements: the last thread's vector
    // runs two past the end.
    %i = arith.muli %tx, %c4 : index
    %v = vector.load %buf[%i] : memref<14xf32>, vector<4xf32>
    %w = arith.addf %v, %v : vector<4xf32>
    vector.store %w, %buf[%i] : memref<14xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds vector load from memref<14xf32> in kernel 'main_kernel', block (0,0,0) thread (3,0,0)
// CHECK-NEXT:   at {{.*}}oob-vector.mlir:15:10: %v = vector.load %buf[%i] : memref<14xf32>, vector<4xf32>
// CHECK-NEXT:   index 15 of dimension 0 is outside 0..13
// CHECK-NEXT:   the memref views device memory of 56 bytes from byte 0, allocated at {{.*}}oob-vector.mlir:7:10: %buf = gpu.alloc () : memref<14xf32>
// CHECK-NEXT: gpumem: sanitizer: out-of-bounds vector store to memref<14xf32> in kernel 'main_kernel', block (0,0,0) thread (3,0,0)
// CHECK-NEXT:   at {{.*}}oob-vector.mlir:17:5: vector.store %w, %buf[%i] : memref<14xf32>, vector<4xf32>
// CHECK-NEXT:   index 15 of dimension 0 is outside 0..13
// CHECK-NEXT:   the memref views device memory of 56 bytes from byte 0, allocated at {{.*}}oob-vector.mlir:7:10: %buf = gpu.alloc () : memref<14xf32>
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 2 errors
