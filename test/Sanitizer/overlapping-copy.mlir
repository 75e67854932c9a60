// One planted bug: a shift of a buffer by one element done with one
// gpu.memcpy between two views of it, whose bytes overlap (undefined in
// CUDA: the result depends on the copy's direction).
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s
// CHECK: gpumem: error: mgpuMemcpy: the 28 bytes copied from 0x{{[0-9a-f]+}} to 0x{{[0-9a-f]+}} overlap (a copy within one buffer needs a buffer in between)
// CHECK-NEXT: gpumem: note: at {{.*}}overlapping-copy.mlir:13:3
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %bytes = gpu.alloc () : memref<32xi8>
  %from = memref.view %bytes[%c0][] : memref<32xi8> to memref<7xf32>
  %to = memref.view %bytes[%c4][] : memref<32xi8> to memref<7xf32>
  gpu.memcpy %to, %from : memref<7xf32>, memref<7xf32>
  return
}
