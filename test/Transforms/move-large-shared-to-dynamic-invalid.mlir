// RUN: gpumem-opt %s -split-input-file -gpumem-move-large-shared-to-dynamic -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op uses 240000 bytes of workgroup memory; sm_90 allows at most 232448 per block}}
    gpu.func @k() workgroup(%buf : memref<60000xf32, 3>) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{'gpu.func' op uses 65536 bytes of workgroup memory, more than the 49152 bytes of static shared memory, and gpu.dynamic_shared_memory too; moving its buffers into dynamic shared memory next to its own dynamic data is not supported yet}}
    gpu.func @k() workgroup(%buf : memref<16384xf32, 3>) kernel {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() workgroup(%buf : memref<16384xf32, 3>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 1024 : i32
    // expected-error @+1 {{'gpu.launch_func' op passes a dynamic shared memory size to kernel 'k', whose 65536 bytes of workgroup memory go into dynamic shared memory; combining both is not supported yet}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes
    return
  }
}
