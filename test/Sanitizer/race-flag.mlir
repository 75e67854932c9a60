// racecheck, one planted bug: a flag raised by one thread and read by all in the same barrier phase.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc () : memref<64xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %flag = memref.alloca() : memref<1xi32, #gpu.address_space<workgroup>>
    %zero = arith.constant 0 : i32
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %zero, %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    // Thread 40 raises the flag and every thread reads it, in the same
    // phase: whether a thread sees it depends on the schedule.
    %c40 = arith.constant 40 : index
    %raiser = arith.cmpi eq, %tx, %c40 : index
    scf.if %raiser {
      %one = arith.constant 1 : i32
      memref.store %one, %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    }
    %seen = memref.load %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    memref.store %seen, %out[%tx] : memref<64xi32>
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: race (write after read) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (store to memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (40,0,0) writes it at {{.*}}race-flag.mlir:23:7: memref.store %one, %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   several threads read it at {{.*}}race-flag.mlir:25:13: %seen = memref.load %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: race (read after write) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (load from memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (41,0,0) reads it at {{.*}}race-flag.mlir:25:13: %seen = memref.load %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   thread (40,0,0) wrote it at {{.*}}race-flag.mlir:23:7: memref.store %one, %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: the race (read after write) on workgroup memory at {{.*}}race-flag.mlir:25:13 happened 23 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 24 errors
