// gpu.shuffle of every mode at full and partial width, on 8-lane subgroups
// (lavapipe's, compiled with --subgroup-size=8) and on the cpu target's
// 32-lane warps: lanes past the width get their own value, invalid, and
// out-of-range sources are invalid too, so both print the same. Width-8
// shuffles come first: lanes 4-7 skip the width-4 ones.
// REQUIRES: vulkan, vulkan-subgroup-size-8
// RUN: gpumem-run --target=cpu %s | FileCheck %s
// RUN: gpumem-run --target=vulkan --subgroup-size=8 %s | FileCheck %s
// Columns: down 3 and up 2 of width 8, then xor 1, up 1, down 2, idx 3 of
// width 4 (lane L holds L*L), then up-1's validity, down-2's + down-3's.
// CHECK:      [1,   0,   4,   9,   9,   0,   0,   2],
// CHECK-NEXT: [0,   0,   9,   9,   16,   1,   1,   2],
// CHECK-NEXT: [9,   1,   4,   9,   25,   0,   1,   1],
// CHECK-NEXT: [4,   4,   9,   9,   36,   1,   1,   1],
// CHECK-NEXT: [16,   16,   16,   16,   49,   4,   0,   1],
// CHECK-NEXT: [25,   25,   25,   25,   25,   9,   0,   0],
// CHECK-NEXT: [36,   36,   36,   36,   36,   16,   0,   0],
// CHECK-NEXT: [49,   49,   49,   49,   49,   25,   0,   0]]
func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %out = memref.alloc() : memref<8x8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %lane = arith.index_cast %tx : index to i32
    %v = arith.muli %lane, %lane : i32
    %c1i = arith.constant 1 : i32
    %c2i = arith.constant 2 : i32
    %c3i = arith.constant 3 : i32
    %w4 = arith.constant 4 : i32
    %w8 = arith.constant 8 : i32
    %r4, %p4 = gpu.shuffle down %v, %c3i, %w8 : i32
    %r5, %p5 = gpu.shuffle up %v, %c2i, %w8 : i32
    %r0, %p0 = gpu.shuffle xor %v, %c1i, %w4 : i32
    %r1, %p1 = gpu.shuffle up %v, %c1i, %w4 : i32
    %r2, %p2 = gpu.shuffle down %v, %c2i, %w4 : i32
    %r3, %p3 = gpu.shuffle idx %v, %c3i, %w4 : i32
    %q1 = arith.extui %p1 : i1 to i32
    %q2 = arith.extui %p2 : i1 to i32
    %q4 = arith.extui %p4 : i1 to i32
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    memref.store %r0, %out[%tx, %c0] : memref<8x8xi32>
    memref.store %r1, %out[%tx, %c1] : memref<8x8xi32>
    memref.store %r2, %out[%tx, %c2] : memref<8x8xi32>
    memref.store %r3, %out[%tx, %c3] : memref<8x8xi32>
    memref.store %r4, %out[%tx, %c4] : memref<8x8xi32>
    memref.store %r5, %out[%tx, %c5] : memref<8x8xi32>
    memref.store %q1, %out[%tx, %c6] : memref<8x8xi32>
    %q = arith.addi %q2, %q4 : i32
    memref.store %q, %out[%tx, %c7] : memref<8x8xi32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<8x8xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
