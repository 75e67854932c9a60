// One planted bug: the same device buffer freed twice (two cleanup paths
// that both free it). An error that says so, not glibc's abort.
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s
// CHECK: gpumem: error: mgpuMemFree: device memory of 16 bytes at 0x{{[0-9a-f]+}} was already freed (double free)
// CHECK-NEXT: gpumem: note: at {{.*}}double-free.mlir:13:3
func.func @release(%d: memref<4xi32>) {
  gpu.dealloc %d : memref<4xi32>
  return
}
func.func @main() {
  %d = gpu.alloc () : memref<4xi32>
  call @release(%d) : (memref<4xi32>) -> ()
  gpu.dealloc %d : memref<4xi32>
  return
}
