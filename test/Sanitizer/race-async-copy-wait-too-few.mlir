// racecheck on a wait that leaves a group in flight: each thread copies two
// f32 into workgroup memory in two groups, waits with numGroups = 1
// (cp.async.wait_group 1: the newest group may still be in flight) and
// then reads both slots; the second slot's copy has not been waited for.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize=racecheck %s 2>&1 | FileCheck %s %}
// CHECK: gpumem: sanitizer: race (read before async copy wait) on workgroup memory in kernel 'main_kernel', block (0,0,0): byte 128 (load from memref<64xf32, #gpu.address_space<workgroup>>)
// CHECK-NEXT: thread (0,0,0) reads it at {{.*}}race-async-copy-wait-too-few.mlir:34:10: %b = memref.load %slots[%second] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: thread (0,0,0) copies into it asynchronously at {{.*}}race-async-copy-wait-too-few.mlir:29:11: %t1 = nvgpu.device_async_copy %src[%tx], %slots[%second], 1 : memref<32xf32> to memref<64xf32, #gpu.address_space<workgroup>>, and no wait for the copy came between
// CHECK: gpumem: sanitizer: ERROR SUMMARY: 32 errors

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %src = memref.alloc() : memref<32xf32>
  %out = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %src[%i] : memref<32xf32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %slots = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %second = arith.addi %tx, %c32 : index
    %t0 = nvgpu.device_async_copy %src[%tx], %slots[%tx], 1 : memref<32xf32> to memref<64xf32, #gpu.address_space<workgroup>>
    %g0 = nvgpu.device_async_create_group %t0
    %t1 = nvgpu.device_async_copy %src[%tx], %slots[%second], 1 : memref<32xf32> to memref<64xf32, #gpu.address_space<workgroup>>
    %g1 = nvgpu.device_async_create_group %t1
    nvgpu.device_async_wait %g0 {numGroups = 1 : i32}
    gpu.barrier
    %a = memref.load %slots[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %b = memref.load %slots[%second] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %a, %out[%tx] : memref<64xf32>
    memref.store %b, %out[%second] : memref<64xf32>
    nvgpu.device_async_wait %g1 {numGroups = 0 : i32}
    gpu.terminator
  }
  return
}
