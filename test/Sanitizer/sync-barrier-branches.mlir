// synccheck, one planted bug: each side of a branch has its own barrier.
// Without --sanitize the program stops; synccheck reports the two barriers
// and, as a GPU does, takes them for the block's one barrier.
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not gpumem-run --target=cpu --sanitize=synccheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %out = gpu.alloc host_shared () : memref<32xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %buffer = memref.alloca() : memref<32xi32, #gpu.address_space<workgroup>>
    %i = arith.index_cast %tx : index to i32
    %parity = arith.remui %tx, %c2 : index
    %even = arith.cmpi eq, %parity, %c0 : index
    scf.if %even {
      %twice = arith.addi %i, %i : i32
      memref.store %twice, %buffer[%tx] : memref<32xi32, #gpu.address_space<workgroup>>
      gpu.barrier
    } else {
      memref.store %i, %buffer[%tx] : memref<32xi32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    %next = arith.addi %tx, %c1 : index
    %wrapped = arith.remui %next, %c32 : index
    %x = memref.load %buffer[%wrapped] : memref<32xi32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tx] : memref<32xi32>
    gpu.terminator
  }
  %a = memref.load %out[%c0] : memref<32xi32>
  %b = memref.load %out[%c1] : memref<32xi32>
  vector.print %a : i32
  vector.print %b : i32
  return
}

// STOP: gpumem: error: kernel 'main_kernel': divergent barrier at {{.*}}sync-barrier-branches.mlir:24:7: thread (1,0,0) of block (0,0,0) waits there while 1 threads wait at {{.*}}sync-barrier-branches.mlir:21:7
// STOP-NEXT: gpumem: note: in the launch at {{.*}}sync-barrier-branches.mlir:12:3

// CHECK: gpumem: sanitizer: divergent barrier in kernel 'main_kernel', block (0,0,0) thread (1,0,0)
// CHECK-NEXT:   at {{.*}}sync-barrier-branches.mlir:24:7: gpu.barrier
// CHECK-NEXT:   the thread waits here while 1 thread of the block waits at {{.*}}sync-barrier-branches.mlir:21:7
// CHECK-NEXT: 1
// CHECK-NEXT: 4
// CHECK-NEXT: gpumem: sanitizer: the divergent barrier at {{.*}}sync-barrier-branches.mlir:24:7 happened 16 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 16 errors
