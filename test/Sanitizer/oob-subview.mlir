// memcheck, one planted bug: a store one past a block's subview, into the next block's part of the buffer.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = gpu.alloc () : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // Each block works on its quarter of the buffer, but the last thread
    // writes one past its quarter (into the next block's).
    %start = arith.muli %bx, %c4 : index
    %quarter = memref.subview %buf[%start] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
    %i = arith.addi %tx, %c1 : index
    %f = arith.constant 3.0 : f32
    memref.store %f, %quarter[%i] : memref<4xf32, strided<[1], offset: ?>>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<4xf32, strided<[1], offset: ?>> in kernel 'main_kernel', block ({{[0-3]}},0,0) thread (3,0,0)
// CHECK-NEXT:   at {{.*}}oob-subview.mlir:16:5: memref.store %f, %quarter[%i] : memref<4xf32, strided<[1], offset: ?>>
// CHECK-NEXT:   index 4 of dimension 0 is outside 0..3
// The view starts at its block's quarter; whichever block reports first.
// CHECK-NEXT:   the memref views device memory of 64 bytes from byte {{0|16|32|48}}, allocated at {{.*}}oob-subview.mlir:7:10: %buf = gpu.alloc () : memref<16xf32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<4xf32, strided<[1], offset: ?>> at {{.*}}oob-subview.mlir:16:5 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 4 errors
