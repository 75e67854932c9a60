// synccheck, one planted bug: the first warp-half loads a header and leaves before the barrier the others wait at.
// The threads that skip the barrier run first here: the program still stops
// without --sanitize, and synccheck reports the barrier.
// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not gpumem-run --target=cpu --sanitize=synccheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc host_shared () : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %header = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    %leader = arith.cmpi ult, %tx, %c16 : index
    scf.if %leader {
      memref.store %f, %header[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %f, %out[%tx] : memref<64xf32>
    } else {
      gpu.barrier
      %slot = arith.remui %tx, %c16 : index
      %h = memref.load %header[%slot] : memref<16xf32, #gpu.address_space<workgroup>>
      %sum = arith.addf %h, %f : f32
      memref.store %sum, %out[%tx] : memref<64xf32>
    }
    gpu.terminator
  }
  %last = memref.load %out[%c16] : memref<64xf32>
  vector.print %last : f32
  return
}

// STOP: gpumem: error: kernel 'main_kernel': divergent barrier at {{.*}}sync-barrier-leaders-skip.mlir:22:7: thread (0,0,0) of block (0,0,0) and 15 other threads returned from the kernel without reaching it
// STOP-NEXT: gpumem: note: in the launch at {{.*}}sync-barrier-leaders-skip.mlir:12:3

// CHECK: gpumem: sanitizer: divergent barrier in kernel 'main_kernel', block (0,0,0) thread (16,0,0)
// CHECK-NEXT:   at {{.*}}sync-barrier-leaders-skip.mlir:22:7: gpu.barrier
// CHECK-NEXT:   thread (0,0,0) and 15 other threads returned from the kernel without reaching it, while 48 threads wait here
// CHECK-NEXT: 16
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
