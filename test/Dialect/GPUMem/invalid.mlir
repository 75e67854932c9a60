// RUN: gpumem-opt %s -split-input-file -verify-diagnostics

// Every verifier and parser error of the managed memory ops.

func.func @alloc_in_launch() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpumem.alloc_managed' op is host code: it cannot be inside a gpu.launch body or a gpu.module}}
    %m = gpumem.alloc_managed() : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

gpu.module @kernels {
  func.func @device_function(%m: memref<4xf32>) {
    // expected-error @+1 {{'gpumem.prefetch' op is host code: it cannot be inside a gpu.launch body or a gpu.module}}
    gpumem.prefetch %m to device : memref<4xf32>
    return
  }
}

// -----

gpu.module @kernels {
  gpu.func @kernel(%m: memref<4xf32>) kernel {
    // expected-error @+1 {{'gpumem.advise' op is host code: it cannot be inside a gpu.launch body or a gpu.module}}
    gpumem.advise %m, read_mostly : memref<4xf32>
    gpu.return
  }
}

// -----

func.func @alloc_workgroup_integer() {
  // expected-error @+1 {{'gpumem.alloc_managed' op allocates managed memory, which is global memory; 'memref<4xf32, 3>' is in workgroup memory}}
  %m = gpumem.alloc_managed() : memref<4xf32, 3>
  return
}

// -----

func.func @alloc_workgroup_attribute() {
  // expected-error @+1 {{'gpumem.alloc_managed' op allocates managed memory, which is global memory; 'memref<4xf32, #gpu.address_space<workgroup>>' is in workgroup memory}}
  %m = gpumem.alloc_managed() : memref<4xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @alloc_private_integer() {
  // expected-error @+1 {{'gpumem.alloc_managed' op allocates managed memory, which is global memory; 'memref<4xf32, 5>' is in private memory}}
  %m = gpumem.alloc_managed() : memref<4xf32, 5>
  return
}

// -----

func.func @alloc_private_attribute() {
  // expected-error @+1 {{'gpumem.alloc_managed' op allocates managed memory, which is global memory; 'memref<4xf32, #gpu.address_space<private>>' is in private memory}}
  %m = gpumem.alloc_managed() : memref<4xf32, #gpu.address_space<private>>
  return
}

// -----

func.func @alloc_other_memory_space() {
  // expected-error @+1 {{'gpumem.alloc_managed' op allocates managed memory in the default memory space; drop the memory space of 'memref<4xf32, #gpu.address_space<global>>'}}
  %m = gpumem.alloc_managed() : memref<4xf32, #gpu.address_space<global>>
  return
}

// -----

func.func @alloc_strided() {
  // expected-error @+1 {{'gpumem.alloc_managed' op allocates managed memory with the identity layout, not 'memref<4x4xf32, strided<[8, 1]>>'}}
  %m = gpumem.alloc_managed() : memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @alloc_too_few_sizes(%n: index) {
  // expected-error @+1 {{'gpumem.alloc_managed' op has 1 dynamic size operand, but 'memref<?x?xf32>' has 2 dynamic dimensions}}
  %m = gpumem.alloc_managed(%n) : memref<?x?xf32>
  return
}

// -----

func.func @alloc_too_many_sizes(%n: index) {
  // expected-error @+1 {{'gpumem.alloc_managed' op has 2 dynamic size operands, but 'memref<?x4xf32>' has 1 dynamic dimension}}
  %m = gpumem.alloc_managed(%n, %n) : memref<?x4xf32>
  return
}

// -----

func.func @prefetch_workgroup(%m: memref<4xf32, 3>) {
  // expected-error @+1 {{'gpumem.prefetch' op prefetches managed memory, which is global memory; 'memref<4xf32, 3>' is in workgroup memory}}
  gpumem.prefetch %m to device : memref<4xf32, 3>
  return
}

// -----

func.func @advise_private(%m: memref<4xf32, #gpu.address_space<private>>) {
  // expected-error @+1 {{'gpumem.advise' op advises on managed memory, which is global memory; 'memref<4xf32, #gpu.address_space<private>>' is in private memory}}
  gpumem.advise %m, read_mostly : memref<4xf32, #gpu.address_space<private>>
  return
}

// -----

func.func @async_prefetch_without_result(%m: memref<4xf32>) {
  // expected-error @+1 {{needs to be named when marked 'async'}}
  gpumem.prefetch async %m to device : memref<4xf32>
  return
}

// -----

func.func @unknown_destination(%m: memref<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'destination' [device, host]}}
  gpumem.prefetch %m to gpu : memref<4xf32>
  return
}

// -----

func.func @unknown_advice(%m: memref<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'advice' [read_mostly, unset_read_mostly, preferred_location_device, preferred_location_host, unset_preferred_location, accessed_by_device, unset_accessed_by_device]}}
  gpumem.advise %m, read_only : memref<4xf32>
  return
}
