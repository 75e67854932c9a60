// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-cpu-pipeline -o /dev/null

// A gpu.module already made for another GPU is refused: gpu-module-to-binary
// would compile it to PTX, which the cpu runtime cannot load.

module attributes {gpu.container_module} {
  // expected-error @below {{'gpu.module' op already has the target #nvvm.target<chip = "sm_75">, which the cpu pipeline does not compile for; it compiles gpu.modules without a target (or with #gpumem.cpu)}}
  gpu.module @m [#nvvm.target<chip = "sm_75">] {
    gpu.func @k(%out: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1 : i32
      memref.store %v, %out[%c0] : memref<4xi32>
      gpu.return
    }
  }
}

// -----

// One that names the cpu target already keeps it.
module attributes {gpu.container_module} {
  gpu.module @m [#gpumem.cpu<O = 2>] {
    gpu.func @k(%out: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = arith.constant 1 : i32
      memref.store %v, %out[%c0] : memref<4xi32>
      gpu.return
    }
  }
}
