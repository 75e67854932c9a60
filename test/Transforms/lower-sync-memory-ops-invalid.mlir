// RUN: gpumem-opt %s -split-input-file -gpumem-lower-sync-memory-ops -verify-diagnostics

// Copies and fills gpu-to-llvm would lower wrongly (a block from the
// aligned pointer, whatever the layout) or not at all.

func.func @copy_into_view(%d: memref<4xf32, strided<[1], offset: 4>>, %h: memref<4xf32>) {
  // expected-error @+1 {{'gpu.memcpy' op copies a contiguous block from the start of each memref, so the destination must have the identity layout, not 'memref<4xf32, strided<[1], offset: 4>>'}}
  gpu.memcpy %d, %h : memref<4xf32, strided<[1], offset: 4>>, memref<4xf32>
  return
}

// -----

func.func @copy_from_strided(%d: memref<2x2xf32>, %h: memref<2x2xf32, strided<[4, 1]>>) {
  %t = gpu.wait async
  // expected-error @+1 {{'gpu.memcpy' op copies a contiguous block from the start of each memref, so the source must have the identity layout, not 'memref<2x2xf32, strided<[4, 1]>>'}}
  %t2 = gpu.memcpy async [%t] %d, %h : memref<2x2xf32>, memref<2x2xf32, strided<[4, 1]>>
  gpu.wait [%t2]
  return
}

// -----

func.func @fill_view(%d: memref<4xf32, strided<[2]>>, %v: f32) {
  // expected-error @+1 {{'gpu.memset' op fills a contiguous block from the start of the memref, so the destination must have the identity layout, not 'memref<4xf32, strided<[2]>>'}}
  gpu.memset %d, %v : memref<4xf32, strided<[2]>>, f32
  return
}

// -----

func.func @fill_bytes(%d: memref<16xi8>, %v: i8) {
  // expected-error @+1 {{'gpu.memset' op fills 16- or 32-bit elements; 'i8' has 8 bits}}
  gpu.memset %d, %v : memref<16xi8>, i8
  return
}

// -----

func.func @fill_doubles(%d: memref<4xf64>, %v: f64) {
  %t = gpu.wait async
  // expected-error @+1 {{'gpu.memset' op fills 16- or 32-bit elements; 'f64' has 64 bits}}
  %t2 = gpu.memset async [%t] %d, %v : memref<4xf64>, f64
  gpu.wait [%t2]
  return
}

// -----

func.func @fill_indices(%d: memref<4xindex>, %v: index) {
  // expected-error @+1 {{'gpu.memset' op fills 16- or 32-bit integer or float elements, not 'index'}}
  gpu.memset %d, %v : memref<4xindex>, index
  return
}

// -----

// Every error is reported, and nothing is rewritten.
func.func @two_errors(%d: memref<4xf32, strided<[1], offset: 4>>, %h: memref<4xf32>, %v: i8, %b: memref<4xi8>) {
  // expected-error @+1 {{the destination must have the identity layout}}
  gpu.memcpy %d, %h : memref<4xf32, strided<[1], offset: 4>>, memref<4xf32>
  // expected-error @+1 {{'i8' has 8 bits}}
  gpu.memset %b, %v : memref<4xi8>, i8
  return
}

// -----

// Copies between different static sizes or shapes: upstream's verifier
// reports them where the program is read, before any gpumem pass. Dynamic
// sizes are not compared (docs/memory.md).

func.func @copy_between_sizes(%dst: memref<4xf32>, %src: memref<8xf32>) {
  // expected-error @+1 {{'gpu.memcpy' op arguments have incompatible shape}}
  gpu.memcpy %dst, %src : memref<4xf32>, memref<8xf32>
  return
}

// -----

func.func @copy_between_shapes(%dst: memref<2x4xf32>, %src: memref<4x2xf32>) {
  // expected-error @+1 {{'gpu.memcpy' op arguments have incompatible shape}}
  gpu.memcpy %dst, %src : memref<2x4xf32>, memref<4x2xf32>
  return
}
