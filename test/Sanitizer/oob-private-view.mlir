// memcheck, one planted bug: a thread's private array of 8 floats seen by
// memref.reinterpret_cast as 2 rows of 4 from element 6; the first row's
// elements 8 and 9 are past the array. Every index is inside the view, so
// only the element counted from the array's start shows the bug (before,
// the store overwrote the thread's stack silently). The same on every
// target that runs kernels on host cores.
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --chip=gfx90a --sanitize %s 2>&1 | FileCheck %s %}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %out = gpu.alloc host_shared () : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    %own = memref.alloca() : memref<8xf32>
    %row = memref.reinterpret_cast %own to offset: [6], sizes: [2, 4], strides: [4, 1] : memref<8xf32> to memref<2x4xf32, strided<[4, 1], offset: 6>>
    memref.store %f, %row[%c0, %tx] : memref<2x4xf32, strided<[4, 1], offset: 6>>
    %v = memref.load %own[%c0] : memref<8xf32>
    memref.store %v, %out[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<2x4xf32, strided<[4, 1], offset: 6>> in kernel 'main_kernel', block (0,0,0) thread (2,0,0)
// CHECK-NEXT:   at {{.*}}oob-private-view.mlir:20:5: memref.store %f, %row[%c0, %tx] : memref<2x4xf32, strided<[4, 1], offset: 6>>
// CHECK-NEXT:   element 8 of the buffer the view was made from (by memref.reinterpret_cast) is outside 0..7: the view lies outside its buffer
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<2x4xf32, strided<[4, 1], offset: 6>> at {{.*}}oob-private-view.mlir:20:5 happened 2 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 2 errors
