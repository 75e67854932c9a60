// RUN: gpumem-opt %s -split-input-file -gpumem-move-large-shared-to-dynamic -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op uses 240000 bytes of workgroup memory; sm_90 allows at most 232448 per block}}
    gpu.func @k() workgroup(%buf : memref<60000xf32, 3>) kernel {
      gpu.return
    }
  }
}
