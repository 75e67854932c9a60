// initcheck, one planted bug: a tree sum reading the upper half of a tile that was never written.
// RUN: not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %in = gpu.alloc () : memref<32xf32>
  %out = gpu.alloc () : memref<1xf32>
  %ones = memref.alloc() : memref<32xf32>
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c32 step %c1 {
    memref.store %one, %ones[%i] : memref<32xf32>
  }
  gpu.memcpy %in, %ones : memref<32xf32>, memref<32xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %x = memref.load %in[%tx] : memref<32xf32>
    memref.store %x, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    // The first step of a tree sum over 64 elements, but only 32 were
    // loaded: the upper half of the tile was never written.
    %lt = arith.cmpi ult, %tx, %c32 : index
    scf.if %lt {
      %a = memref.load %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %j = arith.addi %tx, %c32 : index
      %b = memref.load %tile[%j] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %a, %b : f32
      memref.store %s, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %z = arith.cmpi eq, %tx, %c0 : index
    scf.if %z {
      %t = memref.load %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %t, %out[%c0] : memref<1xf32>
    }
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of workgroup memory in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}uninit-workgroup.mlir:28:12: %b = memref.load %tile[%j] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   byte 128 of the block's workgroup memory (load from memref<64xf32, #gpu.address_space<workgroup>>), which no thread of the block wrote
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of workgroup memory at {{.*}}uninit-workgroup.mlir:28:12 happened 32 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 32 errors
