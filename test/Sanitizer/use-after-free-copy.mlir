// One planted bug: device memory copied to the host after gpu.dealloc. On
// the cpu target (with or without --sanitize) that is an error that says
// so; freed memory stays out of reach of new allocations for a while, so
// the copy cannot read a newer buffer by chance.
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s
// CHECK: gpumem: error: mgpuMemcpy: the source 0x{{[0-9a-f]+}} is 0 bytes into device memory of 32 bytes that was freed (use after free)
// CHECK-NEXT: gpumem: note: at {{.*}}use-after-free-copy.mlir:21:3
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d = gpu.alloc () : memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    memref.store %f, %d[%tx] : memref<8xf32>
    gpu.terminator
  }
  %h = memref.alloc() : memref<8xf32>
  gpu.dealloc %d : memref<8xf32>
  gpu.memcpy %h, %d : memref<8xf32>, memref<8xf32>
  %v = memref.load %h[%c0] : memref<8xf32>
  vector.print %v : f32
  return
}
