// memcheck, one planted bug: a 4x4x4 block over a volume only 2 deep.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %vol = gpu.alloc () : memref<4x4x2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c4, %sz = %c4) {
    // A block of 4x4x4 threads over a volume only 2 deep.
    %f = arith.constant 0.5 : f32
    memref.store %f, %vol[%tx, %ty, %tz] : memref<4x4x2xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<4x4x2xf32> in kernel 'main_kernel', block (0,0,0) thread (0,0,2)
// CHECK-NEXT:   at {{.*}}oob-3d.mlir:12:5: memref.store %f, %vol[%tx, %ty, %tz] : memref<4x4x2xf32>
// CHECK-NEXT:   index 2 of dimension 2 is outside 0..1
// CHECK-NEXT:   the memref views device memory of 128 bytes from byte 0, allocated at {{.*}}oob-3d.mlir:7:10: %vol = gpu.alloc () : memref<4x4x2xf32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<4x4x2xf32> at {{.*}}oob-3d.mlir:12:5 happened 32 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 32 errors
