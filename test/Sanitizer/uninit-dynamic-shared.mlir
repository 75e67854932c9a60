// initcheck, one planted bug: dynamic shared memory filled by half the threads and read by all.
// RUN: not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %bytes = arith.constant 128 : i32
  %out = gpu.alloc () : memref<32xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %bytes {
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %buf = memref.view %raw[%c0][%c32] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    // Only the first half of the threads fill the buffer, but every
    // thread reads its own element.
    %lower = arith.cmpi ult, %tx, %c16 : index
    scf.if %lower {
      %f = arith.constant 2.0 : f32
      memref.store %f, %buf[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %v = memref.load %buf[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of workgroup memory in kernel 'main_kernel', block (0,0,0) thread (16,0,0)
// CHECK-NEXT:   at {{.*}}uninit-dynamic-shared.mlir:23:10: %v = memref.load %buf[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   byte 64 of the block's workgroup memory (load from memref<?xf32, #gpu.address_space<workgroup>>), which no thread of the block wrote
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of workgroup memory at {{.*}}uninit-dynamic-shared.mlir:23:10 happened 16 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 16 errors
