// memcheck, one planted bug: a view of a workgroup tile made 32 KiB past
// it (memref.reinterpret_cast checks nothing), stored through at an index
// inside the view. The memref's indices are fine; the view is not. The
// cpu target asks the runtime where such a view's accesses land, cuda-emu
// and rocm-emu check them by address, so all three give the same report;
// the store lands in the guard after the arena, which takes it under
// --sanitize, and the run goes on.
// RUN: not gpumem-run --target=cpu --sanitize %s 2>&1 | FileCheck %s
// RUN: not gpumem-run --target=cpu --sanitize=memcheck %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --chip=gfx90a --sanitize %s 2>&1 | FileCheck %s %}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %f = arith.constant 1.0 : f32
    %tile = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %f, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    %far = memref.reinterpret_cast %tile to offset: [8192], sizes: [1], strides: [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<1xf32, strided<[1], offset: 8192>, #gpu.address_space<workgroup>>
    %z = arith.cmpi eq, %tx, %c0 : index
    scf.if %z {
      memref.store %f, %far[%c0] : memref<1xf32, strided<[1], offset: 8192>, #gpu.address_space<workgroup>>
    }
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: out-of-bounds store to memref<1xf32, strided<[1], offset: 8192>, #gpu.address_space<workgroup>> in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}oob-view-outside-workgroup.mlir:24:7: memref.store %f, %far[%c0] : memref<1xf32, strided<[1], offset: 8192>, #gpu.address_space<workgroup>>
// CHECK-NEXT:   byte 32768 of the block's shared memory, which has 256 bytes
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 1 error
