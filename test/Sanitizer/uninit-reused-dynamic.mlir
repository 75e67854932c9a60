// initcheck, one planted bug: two dynamic-size tiles (one element per
// thread) live one after the other share dynamic shared memory; the second
// is read where the kernel never wrote it. The first tile's writes do not
// initialize it.
// RUN: not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --chip=gfx1100 --sanitize %s 2>&1 | FileCheck %s %}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc () : memref<2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    %first = memref.alloca(%sx) : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %f, %first[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %z = arith.cmpi eq, %tx, %c0 : index
    scf.if %z {
      %v = memref.load %first[%c1] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<2xf32>
    }
    gpu.barrier
    // Only the even threads write the second tile; every thread reads its
    // right neighbour's element.
    %second = memref.alloca(%sx) : memref<?xf32, #gpu.address_space<workgroup>>
    %odd = arith.remui %tx, %c2 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    scf.if %even {
      memref.store %f, %second[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %next = arith.addi %tx, %c1 : index
    %wrap = arith.remui %next, %sx : index
    %n = memref.load %second[%wrap] : memref<?xf32, #gpu.address_space<workgroup>>
    %last = arith.cmpi eq, %tx, %c0 : index
    scf.if %last {
      memref.store %n, %out[%c1] : memref<2xf32>
    }
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of workgroup memory in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}uninit-reused-dynamic.mlir:38:10: %n = memref.load %second[%wrap] : memref<?xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   byte 4 of the block's workgroup memory (load from memref<?xf32, #gpu.address_space<workgroup>>), which no thread of the block wrote as this buffer
// CHECK-NEXT:   it was last written at {{.*}}uninit-reused-dynamic.mlir:19:5: memref.store %f, %first[%tx] : memref<?xf32, #gpu.address_space<workgroup>>, through another buffer that the workgroup memory plan gave the same bytes (the two are never live at once)
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of workgroup memory at {{.*}}uninit-reused-dynamic.mlir:38:10 happened 32 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 32 errors
