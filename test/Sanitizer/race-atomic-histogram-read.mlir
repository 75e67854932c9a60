// racecheck, one planted bug: a workgroup histogram built with atomics is read back before the barrier that should end the counting.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc host_shared () : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %bins = memref.alloca() : memref<4xi32, #gpu.address_space<workgroup>>
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %first = arith.cmpi ult, %tx, %c4 : index
    scf.if %first {
      memref.store %zero, %bins[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %bin = arith.remui %tx, %c4 : index
    %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<4xi32, #gpu.address_space<workgroup>>) -> i32
    // A gpu.barrier belongs here: other threads may still be counting.
    scf.if %first {
      %n = memref.load %bins[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %n, %out[%tx] : memref<4xi32>
    }
    gpu.terminator
  }
  %n = memref.load %out[%c0] : memref<4xi32>
  vector.print %n : i32
  return
}

// CHECK: gpumem: sanitizer: race (atomic after read) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (atomic update of memref<4xi32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (4,0,0) updates it atomically at {{.*}}race-atomic-histogram-read.mlir:20:12: %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<4xi32, #gpu.address_space<workgroup>>) -> i32
// CHECK-NEXT:   thread (0,0,0) read it at {{.*}}race-atomic-histogram-read.mlir:23:12: %n = memref.load %bins[%tx] : memref<4xi32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: 1
// CHECK-NEXT: gpumem: sanitizer: the race (atomic after read) on workgroup memory at {{.*}}race-atomic-histogram-read.mlir:20:12 happened 60 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 60 errors
