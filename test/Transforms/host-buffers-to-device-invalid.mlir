// RUN: gpumem-opt %s -split-input-file -gpumem-host-buffers-to-device -verify-diagnostics
// RUN: gpumem-opt %s -split-input-file -gpumem-host-buffers-to-device=mode=managed -verify-diagnostics
// RUN: not gpumem-opt %s -gpumem-host-buffers-to-device=mode=bogus -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODE
// The pipeline's option, on a module the pipeline's own checks accept (this
// file's tiled layout is rejected by gpumem-check-device-code first):
// RUN: echo 'module {}' | not gpumem-opt -gpumem-cpu-pipeline=host-buffers=bogus -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: gpumem-opt %s -split-input-file -gpumem-host-buffers-to-device=mode=register | FileCheck %s --check-prefix=REGISTER

// MODE: error: unknown host-buffers mode 'bogus'; expected copy, managed, register or none
// MODE-NOT: note

// Copy mode cannot allocate a device copy of an unranked buffer, nor copy a
// layout that is not strided; register mode can register both.
// REGISTER-LABEL: func.func @unranked
// REGISTER: gpu.host_register %{{.*}} : memref<*xf32>
func.func @unranked(%a: memref<*xf32>, %f: f32) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op uses a host buffer of unranked type 'memref<*xf32>', which copy mode cannot copy to the device; use mode=register or gpu.host_register}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %r = memref.cast %a : memref<*xf32> to memref<4xf32>
    memref.store %f, %r[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// REGISTER-LABEL: func.func @tiled_layout
// REGISTER: gpu.host_register
#tiled = affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)>
func.func @tiled_layout(%a: memref<4xf32, #tiled>, %f: f32) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op uses a host buffer of type 'memref<4xf32, affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)>>' whose layout is not strided, which copy mode cannot copy to the device; use mode=register or gpu.host_register}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx] : memref<4xf32, #tiled>
    gpu.terminator
  }
  return
}
