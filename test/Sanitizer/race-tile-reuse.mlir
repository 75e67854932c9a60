// racecheck, one planted bug: a tile reused by the next loop round without a barrier before the store (write after read, and read after write across rounds).
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %in = gpu.alloc () : memref<256xf32>
  %out = gpu.alloc () : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
      %base = arith.muli %k, %c64 : index
      %g = arith.addi %base, %tx : index
      %x = memref.load %in[%g] : memref<256xf32>
      // The next round overwrites the tile while slower threads may still
      // read the last one: a barrier is missing before this store.
      memref.store %x, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c63 = arith.constant 63 : index
      %j = arith.subi %c63, %tx : index
      %y = memref.load %tile[%j] : memref<64xf32, #gpu.address_space<workgroup>>
      %next = arith.addf %acc, %y : f32
      scf.yield %next : f32
    }
    memref.store %sum, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: race (write after read) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (store to memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (0,0,0) writes it at {{.*}}race-tile-reuse.mlir:20:7: memref.store %x, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   thread (63,0,0) read it at {{.*}}race-tile-reuse.mlir:24:12: %y = memref.load %tile[%j] : memref<64xf32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: the race (write after read) on workgroup memory at {{.*}}race-tile-reuse.mlir:20:7 happened 192 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 192 errors
