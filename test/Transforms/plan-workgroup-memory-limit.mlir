// RUN: gpumem-opt %s -split-input-file -verify-diagnostics --gpumem-plan-workgroup-memory="limit=65536 target=cpu"

// Static workgroup memory over the planner's limit (the cpu and vulkan
// targets give it) is an error at each launch of the kernel, with the
// launch's constant dynamic bytes added; a kernel nothing launches gets the
// error itself. Sizes known only at run time are left to the runtime.

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-note @+1 {{the largest static workgroup buffer, 65536 bytes of 'memref<16384xf32, 3>'}}
    gpu.func @big() workgroup(%a : memref<8192xf32, 3>, %b : memref<16384xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%c0] : memref<8192xf32, 3>
      %y = memref.load %b[%c0] : memref<16384xf32, 3>
      memref.store %x, %b[%c0] : memref<16384xf32, 3>
      memref.store %y, %a[%c0] : memref<8192xf32, 3>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op launches kernel 'big' with 98304 bytes of static workgroup memory; the cpu target allows at most 65536 per block}}
    gpu.launch_func @m::@big blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-note @+1 {{the largest static workgroup buffer, 32768 bytes of 'memref<8192xf32, 3>'}}
    gpu.func @fits() workgroup(%a : memref<8192xf32, 3>) kernel {
      gpu.return
    }
  }
  func.func @main(%n : i32) {
    %c1 = arith.constant 1 : index
    %small = arith.constant 1024 : i32
    %large = arith.constant 40000 : i32
    gpu.launch_func @m::@fits blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %small
    // Known only at run time: the runtime's to check.
    gpu.launch_func @m::@fits blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %n
    // expected-error @+1 {{'gpu.launch_func' op launches kernel 'fits' with 72768 bytes of workgroup memory (32768 static + 40000 dynamic); the cpu target allows at most 65536 per block}}
    gpu.launch_func @m::@fits blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %large
    return
  }
}

// -----

gpu.module @m {
  // expected-error @+2 {{'gpu.func' op uses 65552 bytes of static workgroup memory; the cpu target allows at most 65536 per block}}
  // expected-note @+1 {{the largest static workgroup buffer, 65552 bytes of 'memref<16388xf32, 3>'}}
  gpu.func @unlaunched() workgroup(%a : memref<16388xf32, 3>) kernel {
    gpu.return
  }
}
