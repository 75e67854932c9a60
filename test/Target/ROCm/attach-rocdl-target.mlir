// gpumem-attach-rocdl-target: the chip's wavefront size becomes an LLVM
// feature (and wave32 the no_wave64 flag), the user's features follow it,
// a gpu.module that has a ROCDL target keeps it, and code objects are
// version 4 (abi 400), what HIP 5 loads.

// RUN: gpumem-opt %s -split-input-file --gpumem-attach-rocdl-target="chip=gfx90a" | FileCheck %s --check-prefix=GFX90A
// RUN: gpumem-opt %s -split-input-file --gpumem-attach-rocdl-target="chip=gfx1100" | FileCheck %s --check-prefix=GFX1100
// RUN: gpumem-opt %s -split-input-file --gpumem-attach-rocdl-target="chip=gfx1030 wavefront-size=64 features=+cumode opt-level=2" | FileCheck %s --check-prefix=WAVE64
// RUN: gpumem-opt %s -split-input-file --gpumem-attach-rocdl-target="chip=gfx950" | FileCheck %s --check-prefix=GFX950

// GFX90A-LABEL: gpu.module @k
// GFX90A-SAME: [#rocdl.target<O = 3, chip = "gfx90a", features = "+wavefrontsize64", abi = "400">]
// GFX1100-LABEL: gpu.module @k
// GFX1100-SAME: [#rocdl.target<O = 3, chip = "gfx1100", features = "+wavefrontsize32", abi = "400", flags = {no_wave64}>]
// WAVE64-LABEL: gpu.module @k
// WAVE64-SAME: [#rocdl.target<chip = "gfx1030", features = "+wavefrontsize64,+cumode", abi = "400">]
// GFX950-LABEL: gpu.module @k
// GFX950-SAME: [#rocdl.target<O = 3, chip = "gfx950", features = "+wavefrontsize64", abi = "400">]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// A module with a ROCDL target keeps it (one with another GPU's target is
// refused: foreign-device-code.mlir).
// GFX90A-LABEL: gpu.module @kept
// GFX90A-SAME: [#rocdl.target<chip = "gfx942">]
module attributes {gpu.container_module} {
  gpu.module @kept [#rocdl.target<chip = "gfx942">] {
  }
}
