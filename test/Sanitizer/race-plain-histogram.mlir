// racecheck, one planted bug: a workgroup histogram counted with a plain load and store instead of an atomic.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc () : memref<4xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %bins = memref.alloca() : memref<4xi32, #gpu.address_space<workgroup>>
    %zero = arith.constant 0 : i32
    %lt = arith.cmpi ult, %tx, %c4 : index
    scf.if %lt {
      memref.store %zero, %bins[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    // A histogram updated with a plain load and store instead of an
    // atomic: threads of different warps count into the same bin.
    %b = arith.remui %tx, %c4 : index
    %old = memref.load %bins[%b] : memref<4xi32, #gpu.address_space<workgroup>>
    %one = arith.constant 1 : i32
    %new = arith.addi %old, %one : i32
    memref.store %new, %bins[%b] : memref<4xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.if %lt {
      %r = memref.load %bins[%tx] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %r, %out[%tx] : memref<4xi32>
    }
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: race (read after write) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (load from memref<4xi32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (4,0,0) reads it at {{.*}}race-plain-histogram.mlir:21:12: %old = memref.load %bins[%b] : memref<4xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   thread (0,0,0) wrote it at {{.*}}race-plain-histogram.mlir:24:5: memref.store %new, %bins[%b] : memref<4xi32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: race (write after read) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (store to memref<4xi32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (4,0,0) writes it at {{.*}}race-plain-histogram.mlir:24:5: memref.store %new, %bins[%b] : memref<4xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   several threads read it at {{.*}}race-plain-histogram.mlir:21:12: %old = memref.load %bins[%b] : memref<4xi32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: race (write after write) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (store to memref<4xi32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:   thread (32,0,0) writes it at {{.*}}race-plain-histogram.mlir:24:5: memref.store %new, %bins[%b] : memref<4xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   thread (28,0,0) wrote it at {{.*}}race-plain-histogram.mlir:24:5: memref.store %new, %bins[%b] : memref<4xi32, #gpu.address_space<workgroup>>, with no barrier between
// CHECK-NEXT: gpumem: sanitizer: the race (read after write) on workgroup memory at {{.*}}race-plain-histogram.mlir:21:12 happened 60 times
// CHECK-NEXT: gpumem: sanitizer: the race (write after read) on workgroup memory at {{.*}}race-plain-histogram.mlir:24:5 happened 56 times
// CHECK-NEXT: gpumem: sanitizer: the race (write after write) on workgroup memory at {{.*}}race-plain-histogram.mlir:24:5 happened 4 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 120 errors
