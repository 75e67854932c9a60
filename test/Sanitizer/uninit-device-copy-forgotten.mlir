// initcheck, one planted bug: the second input's copy to the device was forgotten.
// RUN: not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %host = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %one, %host[%i] : memref<64xf32>
  }
  %a = gpu.alloc () : memref<64xf32>
  %b = gpu.alloc () : memref<64xf32>
  %sum = gpu.alloc () : memref<64xf32>
  gpu.memcpy %a, %host : memref<64xf32>, memref<64xf32>
  // The copy into %b is missing.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<64xf32>
    %y = memref.load %b[%tx] : memref<64xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %sum[%tx] : memref<64xf32>
    gpu.terminator
  }
  gpu.memcpy %host, %sum : memref<64xf32>, memref<64xf32>
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of device memory in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}uninit-device-copy-forgotten.mlir:20:10: %y = memref.load %b[%tx] : memref<64xf32>
// CHECK-NEXT:   byte 0 of device memory of 256 bytes (load from memref<64xf32>), which nothing wrote (no kernel, copy or fill)
// CHECK-NEXT:   allocated at {{.*}}uninit-device-copy-forgotten.mlir:13:8: %b = gpu.alloc () : memref<64xf32>
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of device memory at {{.*}}uninit-device-copy-forgotten.mlir:20:10 happened 64 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 64 errors
