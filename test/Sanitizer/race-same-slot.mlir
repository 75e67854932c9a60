// racecheck, one planted bug: threads of two warps storing plainly to the same workgroup slot (write after write).
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc () : memref<64xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %slots = memref.alloca() : memref<32xi32, #gpu.address_space<workgroup>>
    // 64 threads, 32 slots: thread t and t + 32 (another warp) both write
    // slot t % 32, plainly instead of atomically.
    %s = arith.remui %tx, %c32 : index
    %v = arith.index_cast %tx : index to i32
    memref.store %v, %slots[%s] : memref<32xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = memref.load %slots[%s] : memref<32xi32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%tx] : memref<64xi32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: race (write after write) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (store to memref<32xi32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (32,0,0) writes it at {{.*}}race-same-slot.mlir:15:5: memref.store %v, %slots[%s] : memref<32xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   thread (0,0,0) wrote it at {{.*}}race-same-slot.mlir:15:5: memref.store %v, %slots[%s] : memref<32xi32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: the race (write after write) on workgroup memory at {{.*}}race-same-slot.mlir:15:5 happened 32 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 32 errors
