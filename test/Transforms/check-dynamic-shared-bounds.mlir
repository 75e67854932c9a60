// RUN: gpumem-opt %s -split-input-file -gpumem-check-dynamic-shared-bounds -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      %c0 = arith.constant 0 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'memref.view' op reads bytes [0, 4096) of dynamic shared memory, but the launch passes only 1024 bytes}}
      %v = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 1024 : i32
    // expected-note @+1 {{launched here}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes
    return
  }
}

// -----

// A subview at byte 100 of 16 bytes, and no size on the launch: 0 bytes.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'memref.subview' op reads bytes [100, 116) of dynamic shared memory, but the launch passes only 0 bytes}}
      %s = memref.subview %dyn[100] [16] [1] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xi8, strided<[1], offset: 100>, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    // expected-note @+1 {{launched here}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// Within bounds, exactly at the end, or sizes known only at run time: fine.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%off: index) kernel {
      %c512 = arith.constant 512 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %a = memref.view %dyn[%c512][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128xf32, #gpu.address_space<workgroup>>
      %b = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4096xf32, #gpu.address_space<workgroup>>
      %c = memref.reinterpret_cast %dyn to offset: [0], sizes: [32, 32], strides: [32, 1] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x32xi8, strided<[32, 1]>, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main(%n: i32, %off: index) {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 1024 : i32
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes args(%off : index)
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %n args(%off : index)
    return
  }
}

// -----

// Before outlining: the gpu.launch body, with host constants visible.
func.func @launch() {
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %bytes = arith.constant 1024 : i32
  // expected-note @+1 {{launched here}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'memref.view' op reads bytes [512, 1536) of dynamic shared memory, but the launch passes only 1024 bytes}}
    %v = memref.view %dyn[%c512][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// A view at a byte offset near 2^63 overflows 64 bits: an error, not a
// wrapped (undefined) sum that looks in bounds.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      %huge = arith.constant 9223372036854775800 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'memref.view' op reads dynamic shared memory at byte offsets that do not fit in 64 bits; the launch passes 1024 bytes}}
      %v = memref.view %dyn[%huge][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 1024 : i32
    // expected-note @+1 {{launched here}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes
    return
  }
}

// -----

// A negative offset reads before the start of dynamic shared memory.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      %minus = arith.constant -64 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'memref.view' op reads bytes [-64, 0) of dynamic shared memory, which starts at byte 0}}
      %w = memref.view %dyn[%minus][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 1024 : i32
    // expected-note @+1 {{launched here}}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes
    return
  }
}
