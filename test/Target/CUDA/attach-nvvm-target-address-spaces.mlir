// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-attach-nvvm-target="format=isa"

// Memory spaces NVPTX does not have are located errors, not NVPTX's
// `LLVM ERROR: Bad address space found while emitting PTX: 2`.

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'memref.global' op is a variable in memory space 2, which NVIDIA GPUs do not have for variables (global 1, shared 3, constant 4)}}
    memref.global "private" @g : memref<4xf32, 2>
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'llvm.mlir.global' op is a variable in memory space 5, which NVIDIA GPUs do not have for variables (global 1, shared 3, constant 4)}}
    llvm.mlir.global internal @scratch() {addr_space = 5 : i32} : !llvm.array<4 x f32>
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%p: !llvm.ptr) kernel {
      // expected-error @+1 {{'llvm.addrspacecast' op uses memory space 9, which NVIDIA GPUs do not have (generic 0, global 1, shared 3, constant 4, local 5, shared::cluster 7)}}
      %q = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<9>
      gpu.return
    }
  }
}
