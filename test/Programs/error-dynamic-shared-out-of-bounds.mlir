// RUN: not gpumem-run --target=cpu --check-dynamic-shared-bounds %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu --check-dynamic-shared-bounds %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU --match-full-lines --strict-whitespace %}

// The opt-in run-time bounds check of dynamic shared memory views. The
// launch passes 64 bytes; the kernel views 8 x f32 at a byte offset the host
// loaded from memory: 0 in the first launch (in bounds: it runs), 48 in the
// second ([48, 80) is past 64: each thread prints what is wrong, naming the
// kernel, the offset, the size and the launch's bytes, then fails the
// check at the view's location, and the program fails after the launch).
// The compile-time check cannot see the offset. The host's last print
// never runs.

// CHECK:first launch: 8
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': view of dynamic shared memory at byte offset 48, size 32 bytes, is past the 64 bytes the launch passed
// CHECK-NEXT:{{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+40]]: (unknown): block: [0,0,0], thread: [0,0,0] Assertion `view of dynamic shared memory out of bounds` failed.
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': view of dynamic shared memory at byte offset 48, size 32 bytes, is past the 64 bytes the launch passed
// CHECK-NEXT:{{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+38]]: (unknown): block: [0,0,0], thread: [1,0,0] Assertion `view of dynamic shared memory out of bounds` failed.
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': view of dynamic shared memory at byte offset 48, size 32 bytes, is past the 64 bytes the launch passed
// CHECK-NEXT:{{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+36]]: (unknown): block: [0,0,0], thread: [2,0,0] Assertion `view of dynamic shared memory out of bounds` failed.
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': view of dynamic shared memory at byte offset 48, size 32 bytes, is past the 64 bytes the launch passed
// CHECK-NEXT:{{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+34]]: (unknown): block: [0,0,0], thread: [3,0,0] Assertion `view of dynamic shared memory out of bounds` failed.
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': view of dynamic shared memory at byte offset 48, size 32 bytes, is past the 64 bytes the launch passed
// CHECK-NEXT:{{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+32]]: (unknown): block: [0,0,0], thread: [4,0,0] Assertion `view of dynamic shared memory out of bounds` failed.
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': view of dynamic shared memory at byte offset 48, size 32 bytes, is past the 64 bytes the launch passed
// CHECK-NEXT:{{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+30]]: (unknown): block: [0,0,0], thread: [5,0,0] Assertion `view of dynamic shared memory out of bounds` failed.
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': view of dynamic shared memory at byte offset 48, size 32 bytes, is past the 64 bytes the launch passed
// CHECK-NEXT:{{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+28]]: (unknown): block: [0,0,0], thread: [6,0,0] Assertion `view of dynamic shared memory out of bounds` failed.
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': view of dynamic shared memory at byte offset 48, size 32 bytes, is past the 64 bytes the launch passed
// CHECK-NEXT:{{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+26]]: (unknown): block: [0,0,0], thread: [7,0,0] Assertion `view of dynamic shared memory out of bounds` failed.
// CPU-NEXT:gpumem: error: kernel 'main_kernel': an assertion failed (the failing threads are listed above)
// EMU-NEXT:gpumem: error: cuStreamSynchronize failed: CUDA_ERROR_ASSERT: device-side assert triggered
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-dynamic-shared-out-of-bounds.mlir:[[@LINE+19]]:5
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c48 = arith.constant 48 : index
  %bytes = arith.constant 64 : i32
  %offsets = memref.alloc() : memref<2xindex>
  memref.store %c0, %offsets[%c0] : memref<2xindex>
  memref.store %c48, %offsets[%c1] : memref<2xindex>
  %out = memref.alloc() : memref<1xf32>
  %out_u = memref.cast %out : memref<1xf32> to memref<*xf32>
  gpu.host_register %out_u : memref<*xf32>

  %c2 = arith.constant 2 : index
  scf.for %launch = %c0 to %c2 step %c1 {
    %offset = memref.load %offsets[%launch] : memref<2xindex>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %bytes {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %dyn[%offset][] : memref<?xi8, #gpu.address_space<workgroup>>
          to memref<8xf32, #gpu.address_space<workgroup>>
      %one = arith.constant 1.0 : f32
      memref.store %one, %v[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %zero = arith.constant 0.0 : f32
        %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = memref.load %v[%i] : memref<8xf32, #gpu.address_space<workgroup>>
          %a = arith.addf %acc, %x : f32
          scf.yield %a : f32
        }
        memref.store %sum, %out[%c0] : memref<1xf32>
      }
      gpu.terminator
    }
    %is_first = arith.cmpi eq, %launch, %c0 : index
    scf.if %is_first {
      %s = memref.load %out[%c0] : memref<1xf32>
      vector.print str "first launch: "
      vector.print %s : f32
    }
  }
  vector.print str "never printed\n"
  return
}
