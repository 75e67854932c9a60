// initcheck, one planted bug: the producer kernel is launched with half the blocks it needs; its output is copied on and read whole.
// RUN: env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %produced = gpu.alloc () : memref<128xf32>
  %copy = gpu.alloc () : memref<128xf32>
  %out = gpu.alloc () : memref<128xf32>
  // 128 elements need 4 blocks of 32; the grid has 2.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c32 : index
    %i = arith.addi %base, %tx : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %produced[%i] : memref<128xf32>
    gpu.terminator
  }
  gpu.memcpy %copy, %produced : memref<128xf32>, memref<128xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c32 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %copy[%i] : memref<128xf32>
    %twice = arith.addf %v, %v : f32
    memref.store %twice, %out[%i] : memref<128xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of device memory in kernel 'main_kernel', block (2,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}uninit-device-grid-too-small.mlir:27:10: %v = memref.load %copy[%i] : memref<128xf32>
// CHECK-NEXT:   byte 256 of device memory of 512 bytes (load from memref<128xf32>), which nothing wrote (no kernel, copy or fill)
// CHECK-NEXT:   allocated at {{.*}}uninit-device-grid-too-small.mlir:10:11: %copy = gpu.alloc () : memref<128xf32>
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of device memory at {{.*}}uninit-device-grid-too-small.mlir:27:10 happened 64 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 64 errors
