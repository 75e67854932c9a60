// RUN: gpumem-opt %s %rocm-front-gfx90a | FileCheck %s --check-prefix=WAVE64
// RUN: gpumem-opt %s %rocm-front-gfx1100 | FileCheck %s --check-prefix=WAVE32

// Upstream's gpu.all_reduce rewrite reduces in subgroups of 32 lanes with
// shuffles of width 32; in a 64-lane wavefront (gfx90a) the upper 32 lanes
// would be past that width and their partial results wrong. There the
// kernel reduces through workgroup memory of its own instead (a slot per
// thread of the block, a tree of barriers, no shuffle); on a wave32 chip
// (gfx1100) upstream's rewrite is right and is taken.

// WAVE64-LABEL: gpu.func @k
// WAVE64-SAME: workgroup(%{{.*}} : memref<1024xf32, #gpu.address_space<workgroup>>)
// WAVE64-NOT: gpu.shuffle
// WAVE64-NOT: gpu.all_reduce
// WAVE64: gpu.barrier
// WAVE64-NOT: gpu.shuffle
// WAVE64: gpu.return

// WAVE32-LABEL: gpu.func @k
// WAVE32: gpu.shuffle xor
// WAVE32-NOT: gpu.all_reduce
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      %sum = gpu.all_reduce add %one uniform {} : (f32) -> f32
      memref.store %sum, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}
