// racecheck on an async copy nobody waits for: each thread copies one f32
// into workgroup memory with nvgpu.device_async_copy and commits the group,
// but the device_async_wait is missing, so after the barrier the thread
// reads bytes the copy may not have written yet (on a GPU, and on the cpu
// and cuda-emu targets, where a copy lands at its wait: here never).
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize=racecheck %s 2>&1 | FileCheck %s %}
// CHECK: gpumem: sanitizer: race (read before async copy wait) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 0 (load from memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK-NEXT: thread (0,0,0) reads it at {{.*}}race-async-copy-missing-wait.mlir:31:10: %v = memref.load %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: thread (0,0,0) copies into it asynchronously at {{.*}}race-async-copy-missing-wait.mlir:28:10: %t = nvgpu.device_async_copy %src[%tx], %tile[%tx], 1 : memref<32xf32> to memref<32xf32, #gpu.address_space<workgroup>>, and no wait for the copy came between
// CHECK: gpumem: sanitizer: the race (read before async copy wait) on workgroup memory at {{.*}}race-async-copy-missing-wait.mlir:31:10 happened 32 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 32 errors

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %src = memref.alloc() : memref<32xf32>
  %out = memref.alloc() : memref<32xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %src[%i] : memref<32xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %tile = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
    %t = nvgpu.device_async_copy %src[%tx], %tile[%tx], 1 : memref<32xf32> to memref<32xf32, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    gpu.barrier
    %v = memref.load %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
