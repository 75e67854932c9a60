// A kernel compiled with --subgroup-size=8 (lavapipe's subgroups) gets 8
// from every subgroup query and runs every subgroup collective on 8 lanes:
// gpu.subgroup_size, gpu.num_subgroups, gpu.subgroup_id and gpu.lane_id
// agree, gpu.subgroup_reduce is lowered for 8 lanes, and a butterfly
// reduction whose widths and steps come from gpu.subgroup_size sums the
// subgroup's 8 values, as does a gpu.all_reduce over the block.
// 1 block x 16 threads, v = t - 20.
// REQUIRES: vulkan, vulkan-subgroup-size-8
// RUN: gpumem-run --target=vulkan --subgroup-size=8 %s | FileCheck %s
// Columns: size, subgroups, subgroup id, lane, subgroup_reduce, butterfly,
// all_reduce.
// CHECK:      [8,   2,   0,   0,   -132,   -132,   -200],
// CHECK-NEXT: [8,   2,   0,   1,   -132,   -132,   -200],
// CHECK-NEXT: [8,   2,   0,   2,   -132,   -132,   -200],
// CHECK-NEXT: [8,   2,   0,   3,   -132,   -132,   -200],
// CHECK-NEXT: [8,   2,   0,   4,   -132,   -132,   -200],
// CHECK-NEXT: [8,   2,   0,   5,   -132,   -132,   -200],
// CHECK-NEXT: [8,   2,   0,   6,   -132,   -132,   -200],
// CHECK-NEXT: [8,   2,   0,   7,   -132,   -132,   -200],
// CHECK-NEXT: [8,   2,   1,   0,   -68,   -68,   -200],
// CHECK-NEXT: [8,   2,   1,   1,   -68,   -68,   -200],
// CHECK-NEXT: [8,   2,   1,   2,   -68,   -68,   -200],
// CHECK-NEXT: [8,   2,   1,   3,   -68,   -68,   -200],
// CHECK-NEXT: [8,   2,   1,   4,   -68,   -68,   -200],
// CHECK-NEXT: [8,   2,   1,   5,   -68,   -68,   -200],
// CHECK-NEXT: [8,   2,   1,   6,   -68,   -68,   -200],
// CHECK-NEXT: [8,   2,   1,   7,   -68,   -68,   -200]]
func.func @main() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<16x7xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %t = arith.index_cast %tx : index to i32
    %c20 = arith.constant 20 : i32
    %v = arith.subi %t, %c20 : i32
    %size = gpu.subgroup_size : index
    %count = gpu.num_subgroups : index
    %id = gpu.subgroup_id : index
    %lane = gpu.lane_id
    %sum = gpu.subgroup_reduce add %v : (i32) -> i32
    %width = arith.index_cast %size : index to i32
    %one = arith.constant 1 : i32
    %c0i = arith.constant 0 : i32
    %steps:2 = scf.while (%s = %one, %acc = %v) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi ult, %s, %width : i32
      scf.condition(%more) %s, %acc : i32, i32
    } do {
    ^bb0(%s2: i32, %acc2: i32):
      %r, %ok = gpu.shuffle xor %acc2, %s2, %width : i32
      %next = arith.addi %acc2, %r : i32
      %s3 = arith.shli %s2, %one : i32
      scf.yield %s3, %next : i32, i32
    }
    %butterfly = arith.addi %steps#1, %c0i : i32
    %block = gpu.all_reduce add %v uniform {} : (i32) -> i32
    %size32 = arith.index_cast %size : index to i32
    %count32 = arith.index_cast %count : index to i32
    %id32 = arith.index_cast %id : index to i32
    %lane32 = arith.index_cast %lane : index to i32
    memref.store %size32, %out[%tx, %c0] : memref<16x7xi32>
    memref.store %count32, %out[%tx, %c1] : memref<16x7xi32>
    memref.store %id32, %out[%tx, %c2] : memref<16x7xi32>
    memref.store %lane32, %out[%tx, %c3] : memref<16x7xi32>
    memref.store %sum, %out[%tx, %c4] : memref<16x7xi32>
    memref.store %butterfly, %out[%tx, %c5] : memref<16x7xi32>
    memref.store %block, %out[%tx, %c6] : memref<16x7xi32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<16x7xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
