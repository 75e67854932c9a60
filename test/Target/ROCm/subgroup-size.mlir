// Subgroups are wavefronts: 64 lanes on gfx9, 32 on gfx10 and gfx11. The
// front's collectives take the chip's wavefront size (subgroup-size), so
// gpu.subgroup_size is the hardware's and a subgroup reduction spans the
// whole wavefront (shuffles up to offset 32 on wave64).

// RUN: gpumem-opt %s %rocm-front-gfx90a | FileCheck %s --check-prefix=WAVE64
// RUN: gpumem-opt %s %rocm-front-gfx1100 | FileCheck %s --check-prefix=WAVE32
// RUN: not gpumem-opt %s --pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-collectives{subgroup-size=48}))' 2>&1 | FileCheck %s --check-prefix=BAD

// WAVE64-LABEL: gpu.func @k
// WAVE64-COUNT-6: gpu.shuffle xor {{.*}} : f32
// WAVE64-NOT: gpu.shuffle
// WAVE64: arith.constant 6.400000e+01 : f32
// WAVE32-LABEL: gpu.func @k
// WAVE32-COUNT-5: gpu.shuffle xor {{.*}} : f32
// WAVE32-NOT: gpu.shuffle
// WAVE32: arith.constant 3.200000e+01 : f32
// BAD: error: subgroup-size 48 is not a power of two from 1 to 128

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<128xf32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %out[%tx] : memref<128xf32>
      %sum = gpu.subgroup_reduce add %v : (f32) -> f32
      %size = gpu.subgroup_size : index
      %i = arith.index_cast %size : index to i32
      %f = arith.sitofp %i : i32 to f32
      %r = arith.addf %sum, %f : f32
      memref.store %r, %out[%tx] : memref<128xf32>
      gpu.return
    }
  }
}
