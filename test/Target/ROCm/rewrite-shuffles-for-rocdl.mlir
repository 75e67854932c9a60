// RUN: gpumem-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpumem-rewrite-shuffles-for-rocdl))' | FileCheck %s

// On wave64 (gfx90a): `up` and shuffles narrower than the wavefront become
// a checked idx shuffle over the wavefront; full-width xor stays.

// CHECK-LABEL: gpu.func @wave64
// CHECK-SAME: (%[[X:.*]]: f32, %[[OFF:.*]]: i32)
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: %[[LANEX:.*]] = gpu.lane_id
// CHECK: %[[LANE:.*]] = arith.index_cast %[[LANEX]] : index to i32
// CHECK: %[[MASK:.*]] = arith.constant 63 : i32
// CHECK: %[[BITS:.*]] = arith.andi %[[OFF]], %[[MASK]] : i32
// CHECK: %[[SRC:.*]] = arith.subi %[[LANE]], %[[BITS]] : i32
// CHECK: %[[WAVE:.*]] = arith.constant 64 : i32
// CHECK: %[[W:.*]] = arith.minsi %[[C16]], %[[WAVE]] : i32
// CHECK: %[[INLANE:.*]] = arith.cmpi slt, %[[LANE]], %[[W]] : i32
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[SRC]], %[[ZERO]] : i32
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[SRC]], %[[W]] : i32
// CHECK: %[[BOTH:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[VALID:.*]] = arith.andi %[[INLANE]], %[[BOTH]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[VALID]], %[[SRC]], %[[LANE]] : i32
// CHECK: %[[R:.*]], %{{.*}} = gpu.shuffle idx %[[X]], %[[SAFE]], %[[WAVE]] : f32
// CHECK: %[[V:.*]] = arith.select %[[VALID]], %[[R]], %[[X]] : f32
// CHECK: arith.xori %{{.*}}, %{{.*}} : i32
// CHECK: gpu.shuffle idx
// CHECK: gpu.shuffle xor %[[X]], %[[OFF]], %[[C64]] : f32
// CHECK-NOT: gpu.shuffle
// CHECK: arith.addf %[[V]],
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx90a", features = "+wavefrontsize64">] {
    gpu.func @wave64(%x: f32, %off: i32) -> f32 {
      %c16 = arith.constant 16 : i32
      %c64 = arith.constant 64 : i32
      %up, %v1 = gpu.shuffle up %x, %off, %c16 : f32
      %xor16, %v2 = gpu.shuffle xor %up, %off, %c16 : f32
      %xor64, %v3 = gpu.shuffle xor %x, %off, %c64 : f32
      %s = arith.addf %up, %xor16 : f32
      %t = arith.addf %s, %xor64 : f32
      gpu.return %t : f32
    }
  }
}

// -----

// On wave32 (gfx1100) a width of 32 is the whole wavefront; 64 (which MLIR
// does not allow) counts as 32.
// CHECK-LABEL: gpu.func @wave32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: gpu.shuffle down %{{.*}}, %{{.*}}, %[[C32]] : f32
// CHECK: %[[MASK:.*]] = arith.constant 31 : i32
// CHECK: arith.addi
// CHECK: %[[WAVE32:.*]] = arith.constant 32 : i32
// CHECK: arith.minsi %[[C64]], %[[WAVE32]] : i32
// CHECK: gpu.shuffle idx %{{.*}}, %{{.*}}, %[[WAVE32]] : f32
// CHECK-NOT: gpu.shuffle
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx1100", features = "+wavefrontsize32">] {
    gpu.func @wave32(%x: f32, %off: i32) -> f32 {
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %d32, %v1 = gpu.shuffle down %x, %off, %c32 : f32
      %d64, %v2 = gpu.shuffle down %d32, %off, %c64 : f32
      gpu.return %d64 : f32
    }
  }
}

// -----

// Without a ROCDL target nothing changes.
// CHECK-LABEL: gpu.func @untargeted
// CHECK: gpu.shuffle up
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @untargeted(%x: f32, %off: i32) -> f32 {
      %c16 = arith.constant 16 : i32
      %up, %v = gpu.shuffle up %x, %off, %c16 : f32
      gpu.return %up : f32
    }
  }
}
