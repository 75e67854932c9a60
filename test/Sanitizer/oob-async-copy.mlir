// memcheck on an asynchronous copy: each thread copies src[tx + 8] of a
// 32-element buffer into workgroup memory, so threads 24..31 read past its
// end. The cpu target checks the copy's memref indices when it is issued;
// cuda-emu checks its bytes by address when the copy lands, at the wait,
// with the copy's line. Both name the allocation.
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize=memcheck %s 2>&1 | FileCheck %s --check-prefix=EMU %}
// CPU: gpumem: sanitizer: out-of-bounds vector load from memref<32xf32> in kernel 'main_kernel', block (0,0,0) thread (24,0,0)
// CPU-NEXT: at {{.*}}oob-async-copy.mlir:[[# @LINE + 24]]:10: %t = nvgpu.device_async_copy %src[%i], %tile[%tx], 1
// CPU-NEXT: index 32 of dimension 0 is outside 0..31
// CPU-NEXT: the memref views device memory of 128 bytes from byte 0, allocated at {{.*}}oob-async-copy.mlir:[[# @LINE + 14]]:10: %src = gpu.alloc () : memref<32xf32>
// CPU-NEXT: gpumem: sanitizer: the out-of-bounds vector load from memref<32xf32> at {{.*}}oob-async-copy.mlir:[[# @LINE + 21]]:10 happened 8 times
// CPU-NEXT: gpumem: sanitizer: ERROR SUMMARY: 8 errors
// EMU: gpumem: sanitizer: out-of-bounds async copy of 4 bytes in kernel 'main_kernel', block (0,0,0) thread (24,0,0)
// EMU-NEXT: at {{.*}}oob-async-copy.mlir:[[# @LINE + 18]]:10: %t = nvgpu.device_async_copy %src[%i], %tile[%tx], 1
// EMU-NEXT: 0 bytes after the end of device memory of 128 bytes allocated at {{.*}}oob-async-copy.mlir:[[# @LINE + 9]]:10: %src = gpu.alloc () : memref<32xf32>
// EMU-NEXT: gpumem: sanitizer: the out-of-bounds async copy of 4 bytes at {{.*}}oob-async-copy.mlir:[[# @LINE + 16]]:10 happened 8 times
// EMU-NEXT: gpumem: sanitizer: ERROR SUMMARY: 8 errors

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %src = gpu.alloc () : memref<32xf32>
  %out = gpu.alloc () : memref<32xf32>
  %f = arith.constant 1.0 : f32
  gpu.memset %src, %f : memref<32xf32>, f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %tile = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
    %i = arith.addi %tx, %c8 : index
    %t = nvgpu.device_async_copy %src[%i], %tile[%tx], 1
        : memref<32xf32> to memref<32xf32, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g {numGroups = 0 : i32}
    %v = memref.load %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
