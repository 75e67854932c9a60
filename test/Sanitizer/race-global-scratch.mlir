// racecheck, one planted bug: threads pass values through a global scratch buffer without a barrier.
// One worker, so that the blocks run in order and the first report is the same each time.
// RUN: env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %scratch = gpu.alloc () : memref<128xf32>
  %out = gpu.alloc () : memref<128xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c64 : index
    %i = arith.addi %base, %tx : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %scratch[%i] : memref<128xf32>
    // A gpu.barrier belongs here: the neighbour's value may not be there yet.
    %next = arith.addi %tx, %c1 : index
    %wrapped = arith.remui %next, %c64 : index
    %j = arith.addi %base, %wrapped : index
    %g = memref.load %scratch[%j] : memref<128xf32>
    memref.store %g, %out[%i] : memref<128xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: race (write after read) on device memory in kernel 'main_kernel', block (0,0,0): byte 4 of device memory of 512 bytes (store to memref<128xf32>)
// CHECK-NEXT:   thread (1,0,0) writes it at {{.*}}race-global-scratch.mlir:18:5: memref.store %f, %scratch[%i] : memref<128xf32>
// CHECK-NEXT:   thread (0,0,0) read it at {{.*}}race-global-scratch.mlir:23:10: %g = memref.load %scratch[%j] : memref<128xf32>, with no barrier between
// CHECK-NEXT:   allocated at {{.*}}race-global-scratch.mlir:10:14: %scratch = gpu.alloc () : memref<128xf32>
// CHECK-NEXT: gpumem: sanitizer: race (read after write) on device memory in kernel 'main_kernel', block (0,0,0): byte 0 of device memory of 512 bytes (load from memref<128xf32>)
// CHECK-NEXT:   thread (63,0,0) reads it at {{.*}}race-global-scratch.mlir:23:10: %g = memref.load %scratch[%j] : memref<128xf32>
// CHECK-NEXT:   thread (0,0,0) wrote it at {{.*}}race-global-scratch.mlir:18:5: memref.store %f, %scratch[%i] : memref<128xf32>, with no barrier between
// CHECK-NEXT:   allocated at {{.*}}race-global-scratch.mlir:10:14: %scratch = gpu.alloc () : memref<128xf32>
// CHECK-NEXT: gpumem: sanitizer: the race (write after read) on device memory at {{.*}}race-global-scratch.mlir:18:5 happened 126 times
// CHECK-NEXT: gpumem: sanitizer: the race (read after write) on device memory at {{.*}}race-global-scratch.mlir:23:10 happened 2 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 128 errors
