// racecheck, one planted bug: host memory registered with gpu.host_register
// is read and written by a kernel in place; every thread adds its value to
// a running total in it with a plain load and store instead of an atomic.
// Registered memory is checked like device memory: the race is found, and
// the report names the gpu.host_register. The host wrote the buffer, so
// reading it is no uninitialized read.
// RUN: env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ env GPUMEM_CPU_THREADS=1 not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
// CHECK: gpumem: sanitizer: race (read after write) on host memory in kernel 'main_kernel', block (0,0,0): byte 0 of host memory of 4 bytes (load from memref<1xf32>)
// CHECK-NEXT:   thread (1,0,0) reads it at {{.*}}race-host-registered.mlir:[[# @LINE + 18]]:10: %t = memref.load %total[%c0] : memref<1xf32>
// CHECK-NEXT:   thread (0,0,0) wrote it at {{.*}}race-host-registered.mlir:[[# @LINE + 19]]:5: memref.store %s, %total[%c0] : memref<1xf32>, with no barrier between
// CHECK-NEXT:   registered at {{.*}}race-host-registered.mlir:[[# @LINE + 11]]:3: gpu.host_register %u : memref<*xf32>
// CHECK-NOT: uninitialized
// CHECK: gpumem: sanitizer: ERROR SUMMARY:
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %total = memref.alloc() : memref<1xf32>
  memref.store %zero, %total[%c0] : memref<1xf32>
  %u = memref.cast %total : memref<1xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    %t = memref.load %total[%c0] : memref<1xf32>
    %s = arith.addf %t, %f : f32
    memref.store %s, %total[%c0] : memref<1xf32>
    gpu.terminator
  }
  return
}
