// memcheck, one planted bug: a kernel launched on device memory the host
// already freed (the gpu.dealloc moved up past the launch). The memory is
// still in the runtime's quarantine, so the kernel would silently write
// it; the check at the kernel's entry reports it.
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s
// CHECK: gpumem: sanitizer: use after free in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}use-after-free-kernel.mlir:[[@LINE+9]]:3: gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
// CHECK-NEXT:   memref argument 0 points 0 bytes into device memory of 32 bytes that was freed
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
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
