// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-attach-nvvm-target="format=isa"

// Device code already lowered for AMD GPUs is refused where the cuda
// target would be added to its module, not handed to the NVPTX backend, and
// so is a module that targets another GPU already.

gpu.module @gfx [#rocdl.target<chip = "gfx90a">] {
  gpu.func @k() kernel {
    // expected-error @below {{'rocdl.s.barrier' op is AMD device code, which the cuda pipeline cannot compile}}
    rocdl.s.barrier
    gpu.return
  }
}

// -----

gpu.module @lowered [#rocdl.target<chip = "gfx90a">] {
  // expected-error @below {{'llvm.func' op has the attribute 'rocdl.kernel' of AMD device code, which the cuda pipeline cannot compile}}
  llvm.func @k() attributes {gpu.kernel, rocdl.kernel} {
    llvm.return
  }
}

// -----

// expected-error @below {{'gpu.module' op already has the target #rocdl.target, which the cuda pipeline does not compile for}}
gpu.module @beside [#rocdl.target] {
}
