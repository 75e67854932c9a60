// racecheck, one planted bug: a missing barrier between writing a tile and reading another warp's element of it.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc () : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    memref.store %f, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    // The barrier that should be here is missing: the mirror element is
    // another warp's, written or not.
    %c63 = arith.constant 63 : index
    %mirror = arith.subi %c63, %tx : index
    %v = memref.load %tile[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: race (write after read) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 128 (store to memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (32,0,0) writes it at {{.*}}race-missing-barrier.mlir:12:5: memref.store %f, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   thread (31,0,0) read it at {{.*}}race-missing-barrier.mlir:17:10: %v = memref.load %tile[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: race (read after write) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 124 (load from memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (32,0,0) reads it at {{.*}}race-missing-barrier.mlir:17:10: %v = memref.load %tile[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   thread (31,0,0) wrote it at {{.*}}race-missing-barrier.mlir:12:5: memref.store %f, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: the race (write after read) on workgroup memory at {{.*}}race-missing-barrier.mlir:12:5 happened 32 times
// CHECK-NEXT: gpumem: sanitizer: the race (read after write) on workgroup memory at {{.*}}race-missing-barrier.mlir:17:10 happened 32 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 64 errors
