// memcheck, one planted bug: a kernel launched on device memory the host
// already freed (the gpu.dealloc moved up past the launch). The memory is
// still in the runtime's quarantine, so the kernel would silently write
// it; each store to it is reported at its line, with the gpu.alloc that
// made the memory. (The cpu target checks the kernel's memref arguments at
// its entry; cuda-emu checks every access by address.)
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s
// CHECK: gpumem: sanitizer: use after free store to memref<8xf32> in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}use-after-free-kernel.mlir:[[# @LINE + 13]]:5: memref.store %f, %d[%tx] : memref<8xf32>
// CHECK-NEXT:   byte 0 of device memory of 32 bytes allocated at {{.*}}use-after-free-kernel.mlir:[[# @LINE + 6]]:8: %d = gpu.alloc () : memref<8xf32>, which was freed
// CHECK-NEXT: gpumem: sanitizer: the use after free store to memref<8xf32> at {{.*}}use-after-free-kernel.mlir:[[# @LINE + 11]]:5 happened 8 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 8 errors
func.func @main() {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d = gpu.alloc () : memref<8xf32>
  %e = gpu.alloc () : memref<8xf32>
  gpu.dealloc %d : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    memref.store %f, %d[%tx] : memref<8xf32>
    memref.store %f, %e[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}
