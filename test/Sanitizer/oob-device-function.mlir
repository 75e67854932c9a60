// memcheck, one planted bug: a device function indexing a memref argument with an unchecked index (grid rounded up).
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @scale(%v: memref<?xf32>, %i: index) {
      %c2 = arith.constant 2.0 : f32
      %x = memref.load %v[%i] : memref<?xf32>
      %y = arith.mulf %x, %c2 : f32
      memref.store %y, %v[%i] : memref<?xf32>
      return
    }
    gpu.func @kernel(%v: memref<?xf32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %b = arith.muli %bx, %bd : index
      %i = arith.addi %b, %tx : index
      func.call @scale(%v, %i) : (memref<?xf32>, index) -> ()
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    // 3 blocks of 8 threads over 20 elements: the grid is rounded up, and
    // the kernel does not check its index.
    %c20 = arith.constant 20 : index
    %v = gpu.alloc (%c20) : memref<?xf32>
    %zero1 = arith.constant 0.0 : f32
    gpu.memset %v, %zero1 : memref<?xf32>, f32
    gpu.launch_func @kernels::@kernel blocks in (%c3, %c1, %c1) threads in (%c8, %c1, %c1) args(%v : memref<?xf32>)
    return
  }
}

// CHECK: gpumem: sanitizer: out-of-bounds load from memref<?xf32> in kernel 'kernel', block (2,0,0) thread (4,0,0)
// CHECK-NEXT:   at {{.*}}oob-device-function.mlir:7:12: %x = memref.load %v[%i] : memref<?xf32>
// CHECK-NEXT:   index 20 of dimension 0 is outside 0..19
// CHECK-NEXT:   the memref views device memory of 80 bytes from byte 0, allocated at {{.*}}oob-device-function.mlir:29:10: %v = gpu.alloc (%c20) : memref<?xf32>
// CHECK-NEXT: gpumem: sanitizer: out-of-bounds store to memref<?xf32> in kernel 'kernel', block (2,0,0) thread (4,0,0)
// CHECK-NEXT:   at {{.*}}oob-device-function.mlir:9:7: memref.store %y, %v[%i] : memref<?xf32>
// CHECK-NEXT:   index 20 of dimension 0 is outside 0..19
// CHECK-NEXT:   the memref views device memory of 80 bytes from byte 0, allocated at {{.*}}oob-device-function.mlir:29:10: %v = gpu.alloc (%c20) : memref<?xf32>
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds load from memref<?xf32> at {{.*}}oob-device-function.mlir:7:12 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: the out-of-bounds store to memref<?xf32> at {{.*}}oob-device-function.mlir:9:7 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 8 errors
