// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace %}

// A gpu.barrier that only threads 0..15 of a 32-thread block reach (inside
// scf.if tx < 16): a real GPU would hang or misbehave; the cpu runtime stops
// with an error that names the kernel, the barrier's location and a thread
// that cannot reach it, and the program exits with a non-zero status. The
// host's print after the launch never runs.

// CHECK:before
// CHECK-NEXT:gpumem: error: kernel 'main_kernel': divergent barrier at {{.*}}error-divergent-barrier.mlir:[[@LINE+17]]:7: thread ({{1[6-9]|2[0-9]|3[01]}},0,0) of block ({{[01]}},0,0) returned from the kernel while {{[0-9]+}} threads wait there
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-divergent-barrier.mlir:[[@LINE+12]]:3
// CHECK-NOT:{{.}}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %out = memref.alloc() : memref<64xi32>
  %out_u = memref.cast %out : memref<64xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  vector.print str "before\n"
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %low = arith.cmpi ult, %tx, %c16 : index
    scf.if %low {
      gpu.barrier
    }
    %b = arith.muli %bx, %c32 : index
    %g = arith.addi %b, %tx : index
    %v = arith.index_cast %g : index to i32
    memref.store %v, %out[%g] : memref<64xi32>
    gpu.terminator
  }
  vector.print str "after\n"
  return
}
