// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefixes=CHECK,EMU --match-full-lines --strict-whitespace %}
// RUN: %if vulkan %{ not gpumem-run --target=vulkan %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU --match-full-lines --strict-whitespace %}

// cf.assert in kernels. Launch 1: every thread asserts something true
// (x*x >= 0 for its x): nothing happens and the results come back. Launch 2:
// thread 5 of block 1 alone fails its assert: it prints CUDA's line (the
// assert's file and line; its location names no function), the program
// fails after the launch (with the cuda runtime's error on cuda-emu) and
// exits with a non-zero status; the host's print after the launch never
// runs.

// CHECK:launch 1: ( 0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225 )
// CHECK-NEXT:{{.*}}cf-assert.mlir:[[@LINE+39]]: (unknown): block: [1,0,0], thread: [5,0,0] Assertion `thread 5 of block 1 was told to fail` failed.
// CPU-NEXT:gpumem: error: kernel 'main_kernel': an assertion failed (the failing threads are listed above)
// EMU-NEXT:gpumem: error: cuStreamSynchronize failed: CUDA_ERROR_ASSERT: device-side assert triggered
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}cf-assert.mlir:[[@LINE+29]]:3
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %i0 = arith.constant 0 : i32
  %out = memref.alloc() : memref<16xi32>
  %out_u = memref.cast %out : memref<16xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %b = arith.muli %bx, %c8 : index
    %g = arith.addi %b, %tx : index
    %x = arith.index_cast %g : index to i32
    %xx = arith.muli %x, %x : i32
    %ok = arith.cmpi sge, %xx, %i0 : i32
    cf.assert %ok, "a square is negative"
    memref.store %xx, %out[%g] : memref<16xi32>
    gpu.terminator
  }
  %v = vector.transfer_read %out[%c0], %i0 {in_bounds = [true]} : memref<16xi32>, vector<16xi32>
  vector.print str "launch 1: "
  vector.print %v : vector<16xi32>

  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %is_b1 = arith.cmpi eq, %bx, %c1 : index
    %is_t5 = arith.cmpi eq, %tx, %c5 : index
    %both = arith.andi %is_b1, %is_t5 : i1
    %true = arith.constant true
    %ok = arith.xori %both, %true : i1
    cf.assert %ok, "thread 5 of block 1 was told to fail"
    gpu.terminator
  }
  vector.print str "not reached\n"
  return
}
