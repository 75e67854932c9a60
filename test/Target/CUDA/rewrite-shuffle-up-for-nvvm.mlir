// RUN: gpumem-opt %s -allow-unregistered-dialect --pass-pipeline="builtin.module(gpu.module(gpumem-rewrite-shuffle-up-for-nvvm))" | FileCheck %s

// CHECK-LABEL: gpu.func @up(
// CHECK-SAME:    %[[X:.*]]: f32, %[[OFF:.*]]: i32, %[[W:.*]]: i32
// CHECK:         %[[LANE:.*]] = gpu.lane_id
// CHECK:         %[[LANE32:.*]] = arith.index_cast %[[LANE]] : index to i32
// CHECK:         %[[MASKED:.*]] = arith.andi %[[OFF]], %c31_i32 : i32
// CHECK:         %[[SRC:.*]] = arith.subi %[[LANE32]], %[[MASKED]] : i32
// CHECK:         %[[R:.*]], %[[V:.*]] = gpu.shuffle  idx %[[X]], %[[SRC]], %[[W]] : f32
// CHECK:         %[[IN:.*]] = arith.cmpi sge, %[[SRC]], %c0_i32 : i32
// CHECK:         %[[VALID:.*]] = arith.andi %[[V]], %[[IN]] : i1
// CHECK:         %[[VALUE:.*]] = arith.select %[[VALID]], %[[R]], %[[X]] : f32
// CHECK:         "test.use"(%[[VALUE]], %[[VALID]])
// Other modes stay.
// CHECK:         gpu.shuffle  down %[[X]], %[[OFF]], %[[W]] : f32
gpu.module @m {
  gpu.func @up(%x: f32, %off: i32, %w: i32) kernel {
    %r, %v = gpu.shuffle up %x, %off, %w : f32
    "test.use"(%r, %v) : (f32, i1) -> ()
    %d, %dv = gpu.shuffle down %x, %off, %w : f32
    "test.use"(%d, %dv) : (f32, i1) -> ()
    gpu.return
  }
}
