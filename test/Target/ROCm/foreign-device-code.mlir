// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-attach-rocdl-target="chip=gfx90a"

// Device code already lowered for NVIDIA GPUs is refused where the rocm
// target would be added to its module, not handed to the AMDGPU backend
// (LLVM ERROR: Cannot select, or an unsupported calling convention), and
// so is a module that targets another GPU already: lowered to ROCDL, it
// would still be serialized for that GPU too, whose backend cannot compile
// ROCDL.

gpu.module @sm90a [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  gpu.func @k() kernel {
    // expected-error @below {{'nvvm.setmaxregister' op is NVIDIA device code, which the rocm pipeline cannot compile}}
    nvvm.setmaxregister increase 32
    gpu.return
  }
}

// -----

gpu.module @lowered [#nvvm.target<chip = "sm_90">] {
  // expected-error @below {{'llvm.func' op has the attribute 'nvvm.kernel' of NVIDIA device code, which the rocm pipeline cannot compile}}
  llvm.func @k(%n: i64) attributes {gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}

// -----

// expected-error @below {{'gpu.module' op already has the target #nvvm.target, which the rocm pipeline does not compile for; it compiles gpu.modules without a target (or with #rocdl.target<O = 3, chip = "gfx90a", features = "+wavefrontsize64", abi = "400">)}}
gpu.module @beside [#nvvm.target] {
}
