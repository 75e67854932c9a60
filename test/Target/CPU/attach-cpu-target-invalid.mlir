// RUN: gpumem-opt %s -verify-diagnostics --gpumem-attach-cpu-target="cpu=skylakee"

// An unknown host CPU is a located error, before LLVM warns about it and
// aborts.

// expected-error @+1 {{unknown cpu 'skylakee' for this machine's target; for example x86-64, or empty for this machine's CPU}}
module attributes {gpu.container_module} {
  gpu.module @m {
  }
}
