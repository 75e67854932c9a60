// initcheck, one planted bug: the host fills only the first half of a
// buffer before it registers it (gpu.host_register) for a kernel that
// reads all of it. The host code reports its writes from the allocation
// on (gpumem-track-host-writes), so the registration counts only the bytes
// it wrote, and the others are found as on device memory.
// RUN: not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize=initcheck %s 2>&1 | FileCheck %s %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --sanitize=initcheck %s 2>&1 | FileCheck %s %}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %in = memref.alloc() : memref<8xf32>
  %out = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %f = arith.index_cast %i : index to i32
    %v = arith.sitofp %f : i32 to f32
    memref.store %v, %in[%i] : memref<8xf32>
  }
  %uin = memref.cast %in : memref<8xf32> to memref<*xf32>
  gpu.host_register %uin : memref<*xf32>
  %uout = memref.cast %out : memref<8xf32> to memref<*xf32>
  gpu.host_register %uout : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %in[%tx] : memref<8xf32>
    memref.store %v, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  %r = memref.load %out[%c1] : memref<8xf32>
  vector.print %r : f32
  memref.dealloc %in : memref<8xf32>
  memref.dealloc %out : memref<8xf32>
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of host memory in kernel 'main_kernel', block (0,0,0) thread (4,0,0)
// CHECK-NEXT: at {{.*}}uninit-host-registered.mlir:28:10: %v = memref.load %in[%tx] : memref<8xf32>
// CHECK-NEXT: byte 16 of host memory of 32 bytes (load from memref<8xf32>), which nothing wrote (no kernel, copy or fill, nor the host)
// CHECK-NEXT: registered at {{.*}}uninit-host-registered.mlir:23:3: gpu.host_register %uin : memref<*xf32>
// CHECK-NEXT: 1
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of host memory at {{.*}}uninit-host-registered.mlir:28:10 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 4 errors
