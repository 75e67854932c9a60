// gpu.shuffle keeps its own semantics on SPIR-V (subgroups of 32 lanes, the
// default target environment's): every shuffle but a full-width xor or idx
// becomes a full-width idx shuffle from a computed source lane, which reads
// its own value where the source is invalid.
// RUN: gpumem-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpu.module(gpumem-prepare-vulkan-kernels))' | FileCheck %s

// CHECK-LABEL: gpu.func @half_width_xor
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C31:.*]] = arith.constant 31 : i32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG: %[[W:.*]] = arith.constant 16 : i32
// CHECK: %[[LANE:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[OFF:.*]] = arith.andi %{{.*}}, %[[C31]] : i32
// CHECK: %[[SRC:.*]] = arith.xori %[[LANE]], %[[OFF]] : i32
// CHECK-DAG: arith.cmpi sge, %[[SRC]], %[[C0]] : i32
// CHECK-DAG: arith.cmpi slt, %[[SRC]], %[[W]] : i32
// CHECK-DAG: arith.cmpi slt, %[[LANE]], %[[W]] : i32
// CHECK: arith.andi
// CHECK: %[[VALID:.*]] = arith.andi
// CHECK: %[[FROM:.*]] = arith.select %[[VALID]], %[[SRC]], %[[LANE]] : i32
// CHECK: gpu.shuffle idx %{{.*}}, %[[FROM]], %[[C32]] : f32
// CHECK-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @half_width_xor(%out: memref<32xf32>, %mask: i32) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %w = arith.constant 16 : i32
    %x = arith.constant 1.0 : f32
    %r, %p = gpu.shuffle xor %x, %mask, %w : f32
    %t = gpu.thread_id x
    memref.store %r, %out[%t] : memref<32xf32>
    gpu.return
  }
}

// -----

// Full-width xor and idx are upstream's to lower; full-width up and down
// are rewritten (upstream calls their out-of-range lanes valid).
// CHECK-LABEL: gpu.func @full_width
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle idx
// CHECK: arith.subi
// CHECK: gpu.shuffle idx
// CHECK: arith.addi
// CHECK: gpu.shuffle idx
// CHECK-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @full_width(%out: memref<32xf32>, %o: i32) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %w = arith.constant 32 : i32
    %x = arith.constant 1.0 : f32
    %a, %pa = gpu.shuffle xor %x, %o, %w : f32
    %b, %pb = gpu.shuffle idx %a, %o, %w : f32
    %c, %pc = gpu.shuffle up %b, %o, %w : f32
    %d, %pd = gpu.shuffle down %c, %o, %w : f32
    %t = gpu.thread_id x
    memref.store %d, %out[%t] : memref<32xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @too_wide(%out: memref<32xf32>, %o: i32) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %w = arith.constant 64 : i32
    %x = arith.constant 1.0 : f32
    // expected-error @below {{'gpu.shuffle' op of width 64 in a kernel compiled for subgroups of 32 lanes: the width must be 1 to the subgroup size (the vulkan pipeline's subgroup-size option)}}
    %a, %pa = gpu.shuffle xor %x, %o, %w : f32
    %t = gpu.thread_id x
    memref.store %a, %out[%t] : memref<32xf32>
    gpu.return
  }
}
