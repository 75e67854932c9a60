// synccheck, one planted bug: the threads past the last full tile skip the barrier.
// Without --sanitize the program stops at the barrier, whichever threads run
// first; with synccheck the barrier is reported and completes without them.
// The last thread to return is what lets the barrier go; the report is made
// at a thread that waits there, and names the ones that returned.
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not gpumem-run --target=cpu --sanitize=synccheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc host_shared () : memref<64xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<64xi32, #gpu.address_space<workgroup>>
    %v = arith.index_cast %tx : index to i32
    memref.store %v, %tile[%tx] : memref<64xi32, #gpu.address_space<workgroup>>
    // Threads 0..47 make up whole tiles of 16 and synchronize; the rest
    // were meant to as well.
    %whole = arith.cmpi ult, %tx, %c48 : index
    scf.if %whole {
      gpu.barrier
    }
    %mirror = arith.subi %c48, %c1 : index
    %from = arith.subi %mirror, %tx : index
    %inside = arith.cmpi ult, %tx, %c48 : index
    %x = scf.if %inside -> i32 {
      %y = memref.load %tile[%from] : memref<64xi32, #gpu.address_space<workgroup>>
      scf.yield %y : i32
    } else {
      scf.yield %v : i32
    }
    memref.store %x, %out[%tx] : memref<64xi32>
    gpu.terminator
  }
  %first = memref.load %out[%c0] : memref<64xi32>
  vector.print %first : i32
  return
}

// STOP: gpumem: error: kernel 'main_kernel': divergent barrier at {{.*}}sync-barrier-skipped.mlir:23:7: thread (48,0,0) of block (0,0,0) returned from the kernel while 48 threads wait there
// STOP-NEXT: gpumem: note: in the launch at {{.*}}sync-barrier-skipped.mlir:14:3

// CHECK: gpumem: sanitizer: divergent barrier in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}sync-barrier-skipped.mlir:23:7: gpu.barrier
// CHECK-NEXT:   thread (48,0,0) and 15 other threads returned from the kernel without reaching it, while 48 threads wait here
// CHECK-NEXT: 47
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
