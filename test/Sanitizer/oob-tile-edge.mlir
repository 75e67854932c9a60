// memcheck, one planted bug: edge tiles of a tiled copy hang over a matrix that is not a multiple of the tile.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
// cuda-emu and rocm-emu check the memref indices before their device
// lowering, as the cpu target does, and give its report: the edge columns
// of inner rows, which land in the next row, are found too.
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize=memcheck %s 2>&1 | FileCheck %s %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --sanitize=memcheck %s 2>&1 | FileCheck %s %}
func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %a = gpu.alloc () : memref<20x20xf32>
  %zero1 = arith.constant 0.0 : f32
  gpu.memset %a, %zero1 : memref<20x20xf32>, f32
  %b = gpu.alloc () : memref<20x20xf32>
  %zero2 = arith.constant 0.0 : f32
  gpu.memset %b, %zero2 : memref<20x20xf32>, f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c3, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c8, %sz = %c1) {
    %r0 = arith.muli %by, %c8 : index
    %c0i = arith.muli %bx, %c8 : index
    %r = arith.addi %r0, %ty : index
    %c = arith.addi %c0i, %tx : index
    %v = memref.load %a[%r, %c] : memref<20x20xf32>
    memref.store %v, %b[%r, %c] : memref<20x20xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds load from memref<20x20xf32> in kernel 'main_kernel', block ({{[0-2]}},{{[0-2]}},0) thread ({{[0-7]}},{{[0-7]}},0)
// CHECK-NEXT:   at {{.*}}oob-tile-edge.mlir:24:10: %v = memref.load %a[%r, %c] : memref<20x20xf32>
// CHECK-NEXT:   index 20 of dimension 1 is outside 0..19
// CHECK-NEXT:   the memref views device memory of 1600 bytes from byte 0, allocated at {{.*}}oob-tile-edge.mlir:12:8: %a = gpu.alloc () : memref<20x20xf32>
// CHECK-NEXT: gpumem: sanitizer: out-of-bounds store to memref<20x20xf32> in kernel 'main_kernel', block ({{[0-2]}},{{[0-2]}},0) thread ({{[0-7]}},{{[0-7]}},0)
// CHECK-NEXT:   at {{.*}}oob-tile-edge.mlir:25:5: memref.store %v, %b[%r, %c] : memref<20x20xf32>
// CHECK-NEXT:   index 20 of dimension 1 is outside 0..19
// CHECK-NEXT:   the memref views device memory of 1600 bytes from byte 0, allocated at {{.*}}oob-tile-edge.mlir:15:8: %b = gpu.alloc () : memref<20x20xf32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds load from memref<20x20xf32> at {{.*}}oob-tile-edge.mlir:24:10 happened 192 times
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<20x20xf32> at {{.*}}oob-tile-edge.mlir:25:5 happened 192 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 384 errors

