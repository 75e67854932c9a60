// An AMD chip gpumem does not know is an error at the module, listing the
// chips it knows: in the target attachment and in the workgroup memory
// planner, which checks each chip's LDS limit.

// RUN: gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx1200" -verify-diagnostics
// RUN: gpumem-opt %s --gpumem-plan-workgroup-memory="target=rocm chip=gfx1200" -verify-diagnostics

// expected-error @below {{unknown AMD chip 'gfx1200'; gpumem knows gfx900, gfx906, gfx908, gfx90a, gfx942, gfx950, gfx1030, gfx1100}}
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
