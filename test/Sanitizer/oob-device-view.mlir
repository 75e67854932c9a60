// memcheck, one planted bug: a view of a device buffer made by
// memref.reinterpret_cast at an offset that leaves it past the buffer's end;
// every index is inside the view, so only the element counted from the
// buffer's start shows it. Checked at the memref level, so the device code
// of the cuda target finds it too.
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = gpu.alloc () : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    // Elements 6..9 of an 8-element buffer.
    %tail = memref.reinterpret_cast %buf to offset: [6], sizes: [4], strides: [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 6>>
    %f = arith.constant 1.0 : f32
    memref.store %f, %tail[%tx] : memref<4xf32, strided<[1], offset: 6>>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<4xf32, strided<[1], offset: 6>> in kernel 'main_kernel', block (0,0,0) thread (2,0,0)
// CHECK-NEXT: at {{.*}}oob-device-view.mlir:16:5: memref.store %f, %tail[%tx] : memref<4xf32, strided<[1], offset: 6>>
// CHECK-NEXT: element 8 of the buffer the view was made from (by memref.reinterpret_cast) is outside 0..7: the view lies outside its buffer
// CHECK-NEXT: the memref views device memory of 32 bytes from byte 24, allocated at {{.*}}oob-device-view.mlir:10:10: %buf = gpu.alloc () : memref<8xf32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<4xf32, strided<[1], offset: 6>> at {{.*}}oob-device-view.mlir:16:5 happened 2 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 2 errors
