// RUN: gpumem-opt %s -split-input-file -verify-diagnostics %rocm-front-gfx90a
// RUN: gpumem-opt %s -split-input-file %rocm-front-gfx1100 | FileCheck %s

// Upstream's gpu.all_reduce rewrite reduces in subgroups of 32 lanes with
// shuffles of width 32; in a 64-lane wavefront (gfx90a) the upper 32 lanes
// are past that width and their partial results would be wrong, so the
// rocm target refuses it there rather than compute a different answer. On
// a wave32 chip (gfx1100) it is lowered.

// CHECK-LABEL: gpu.func @k
// CHECK: gpu.shuffle xor
// CHECK-NOT: gpu.all_reduce
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      // expected-error @below {{'gpu.all_reduce' op is not supported with subgroups of 64 lanes yet (upstream's lowering reduces in subgroups of 32)}}
      %sum = gpu.all_reduce add %one uniform {} : (f32) -> f32
      memref.store %sum, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}
