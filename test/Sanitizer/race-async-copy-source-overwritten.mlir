// racecheck on a source written while its async copy is in flight: each
// thread copies its element of a device buffer into workgroup memory, then
// overwrites that element before the device_async_wait; on a GPU the copy
// may read the old or the new value.
// RUN: not gpumem-run --target=cpu --sanitize=racecheck %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize=racecheck %s 2>&1 | FileCheck %s %}
// CHECK: gpumem: sanitizer: race (write before async copy wait) on device memory in kernel 'main_kernel', block (0,0,0): byte 0 of device memory of 128 bytes (store to memref<32xf32>)
// CHECK-NEXT: thread (0,0,0) writes it at {{.*}}race-async-copy-source-overwritten.mlir:26:5: memref.store %zero, %src[%tx] : memref<32xf32>
// CHECK-NEXT: thread (0,0,0) copies from it asynchronously at {{.*}}race-async-copy-source-overwritten.mlir:24:10: %t = nvgpu.device_async_copy %src[%tx], %tile[%tx], 1 : memref<32xf32> to memref<32xf32, #gpu.address_space<workgroup>>, and no wait for the copy came between
// CHECK: gpumem: sanitizer: ERROR SUMMARY: 32 errors

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %src = gpu.alloc () : memref<32xf32>
  %out = gpu.alloc () : memref<32xf32>
  %one = arith.constant 1.0 : f32
  gpu.memset %src, %one : memref<32xf32>, f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %tile = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
    %zero = arith.constant 0.0 : f32
    %t = nvgpu.device_async_copy %src[%tx], %tile[%tx], 1 : memref<32xf32> to memref<32xf32, #gpu.address_space<workgroup>>
    %g = nvgpu.device_async_create_group %t
    memref.store %zero, %src[%tx] : memref<32xf32>
    nvgpu.device_async_wait %g {numGroups = 0 : i32}
    gpu.barrier
    %v = memref.load %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}
