// initcheck, one planted bug: the host fills only the first half of a
// managed buffer (gpu.alloc host_shared) before a kernel reads all of it.
// The host writes managed memory directly; the host code reports its
// writes to the runtime (gpumem-track-host-writes), so the bytes it never
// wrote are found as on device memory.
// RUN: not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %in = gpu.alloc host_shared () : memref<8xf32>
  %out = gpu.alloc host_shared () : memref<8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %f = arith.index_cast %i : index to i32
    %v = arith.sitofp %f : i32 to f32
    memref.store %v, %in[%i] : memref<8xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %in[%tx] : memref<8xf32>
    memref.store %v, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  %r = memref.load %out[%c0] : memref<8xf32>
  vector.print %r : f32
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of managed memory in kernel 'main_kernel', block (0,0,0) thread (4,0,0)
// CHECK-NEXT: at {{.*}}uninit-managed-host.mlir:22:10: %v = memref.load %in[%tx] : memref<8xf32>
// CHECK-NEXT: byte 16 of managed memory of 32 bytes (load from memref<8xf32>), which nothing wrote (no kernel, copy or fill, nor the host)
// CHECK-NEXT: allocated at {{.*}}uninit-managed-host.mlir:13:9: %in = gpu.alloc host_shared () : memref<8xf32>
// CHECK-NEXT: 0
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of managed memory at {{.*}}uninit-managed-host.mlir:22:10 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 4 errors
