// Every bad option of gpumem-attach-rocdl-target is a located error, never a
// failure in the AMDGPU backend.

// An unknown chip: unknown-amd-chip.mlir.

// RUN: not gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx90a wavefront-size=32" 2>&1 | FileCheck %s --check-prefix=WAVE32
// WAVE32: error: gfx90a runs wavefronts of 64 lanes only; wave32 needs gfx10 or later

// RUN: not gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx1100 wavefront-size=16" 2>&1 | FileCheck %s --check-prefix=WAVE16
// WAVE16: error: wavefront-size 16 is not one AMD GPUs have; expected 32 or 64

// RUN: not gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx1100 features=+wavefrontsize64" 2>&1 | FileCheck %s --check-prefix=FEATURE
// FEATURE: error: feature '+wavefrontsize64' sets the wavefront size; use wavefront-size=32 or 64 instead

// RUN: not gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx90a features=xnack" 2>&1 | FileCheck %s --check-prefix=SIGN
// SIGN: error: malformed feature 'xnack' in 'xnack'; expected +name or -name, for example +xnack

// RUN: not gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx90a opt-level=4" 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: error: opt-level 4 is out of range; expected 0 to 3

// RUN: gpumem-opt %s --gpumem-attach-rocdl-target="chip=gfx90a" -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      // expected-error @below {{'memref.alloca' op allocates workgroup memory in device code, which AMD GPUs would place in private (scratch) memory, one copy per thread; only kernels' workgroup attributions and workgroup memref.globals are LDS}}
      %a = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @below {{'memref.global' op is a variable in memory space 5, which AMD GPUs do not have for variables (global 1, LDS 3, constant 4)}}
    memref.global "private" @p : memref<4xf32, 5>
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%m: memref<4xf32, 11>) kernel {
      // expected-error @below {{'memref.subview' op uses memory space 11, which AMD GPUs do not have (generic 0, global 1, region 2, LDS 3, constant 4, private 5, constant32 6, buffers 7 to 9)}}
      %s = memref.subview %m[0][2][1] : memref<4xf32, 11> to memref<2xf32, strided<[1]>, 11>
      gpu.return
    }
  }
}
