// initcheck, one planted bug: a second tile that the planner places in the
// bytes of a first one (their live ranges are disjoint), read where the
// kernel never wrote it. The first tile's writes do not initialize it.
// The same report on every target that runs kernels on host cores; with
// reuse off the second tile has bytes of its own, and the same read is
// reported as bytes no thread wrote.
// RUN: not gpumem-run --target=cpu --sanitize=initcheck %s 2>&1 | FileCheck %s
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --sanitize %s 2>&1 | FileCheck %s %}
// RUN: %if rocm-emu %{ not gpumem-run --target=rocm-emu --chip=gfx90a --sanitize %s 2>&1 | FileCheck %s %}
// RUN: not gpumem-run --target=cpu --sanitize=initcheck --workgroup-reuse=false %s 2>&1 | FileCheck %s --check-prefix=APART
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %out = gpu.alloc () : memref<2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    // Phase 1: every thread writes its element of the first tile.
    %first = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %i = arith.index_cast %tx : index to i32
    %f = arith.sitofp %i : i32 to f32
    memref.store %f, %first[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %z = arith.cmpi eq, %tx, %c0 : index
    scf.if %z {
      %v = memref.load %first[%c1] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<2xf32>
    }
    gpu.barrier
    // Phase 2: the second tile gets only its lower half written, then
    // the first step of a tree sum reads its upper half too.
    %second = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %lt = arith.cmpi ult, %tx, %c32 : index
    scf.if %lt {
      memref.store %f, %second[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    scf.if %lt {
      %j = arith.addi %tx, %c32 : index
      %b = memref.load %second[%j] : memref<64xf32, #gpu.address_space<workgroup>>
      %a = memref.load %second[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %a, %b : f32
      %last = arith.cmpi eq, %tx, %c0 : index
      scf.if %last {
        memref.store %s, %out[%c1] : memref<2xf32>
      }
    }
    gpu.terminator
  }
  return
}

// CHECK: gpumem: sanitizer: uninitialized read of workgroup memory in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// CHECK-NEXT:   at {{.*}}uninit-reused-bytes.mlir:41:12: %b = memref.load %second[%j] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   byte 128 of the block's workgroup memory (load from memref<64xf32, #gpu.address_space<workgroup>>), which no thread of the block wrote as this buffer
// CHECK-NEXT:   it was last written at {{.*}}uninit-reused-bytes.mlir:23:5: memref.store %f, %first[%tx] : memref<64xf32, #gpu.address_space<workgroup>>, through another buffer that the workgroup memory plan gave the same bytes (the two are never live at once)
// CHECK-NEXT: gpumem: sanitizer: the uninitialized read of workgroup memory at {{.*}}uninit-reused-bytes.mlir:41:12 happened 32 times
// CHECK-NEXT: gpumem: sanitizer: ERROR SUMMARY: 32 errors

// APART: gpumem: sanitizer: uninitialized read of workgroup memory in kernel 'main_kernel', block (0,0,0) thread (0,0,0)
// APART-NEXT:   at {{.*}}uninit-reused-bytes.mlir:41:12: %b = memref.load %second[%j] : memref<64xf32, #gpu.address_space<workgroup>>
// APART-NEXT:   byte 384 of the block's workgroup memory (load from memref<64xf32, #gpu.address_space<workgroup>>), which no thread of the block wrote
// APART-NEXT: gpumem: sanitizer: the uninitialized read of workgroup memory at {{.*}}uninit-reused-bytes.mlir:41:12 happened 32 times
// APART-NEXT: gpumem: sanitizer: ERROR SUMMARY: 32 errors
