// initcheck, one planted bug: a workgroup table filled by block 0 only, read by every block.
// RUN: not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %out = gpu.alloc () : memref<2x16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %table = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
    // Only block 0 fills the lookup table, as if shared memory outlived
    // the block; block 1 reads a table nobody in it wrote.
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      %i = arith.index_cast %tx : index to i32
      %f = arith.sitofp %i : i32 to f32
      memref.store %f, %table[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %v = memref.load %table[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%bx, %tx] : memref<2x16xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of workgroup memory in kernel 'main_kernel', block (1,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}uninit-later-block.mlir:21:10: %v = memref.load %table[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   byte 0 of the block's workgroup memory (load from memref<16xf32, #gpu.address_space<workgroup>>), which no thread of the block wrote
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of workgroup memory at {{.*}}uninit-later-block.mlir:21:10 happened 16 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 16 errors
