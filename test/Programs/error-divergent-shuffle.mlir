// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
// RUN: %if cuda-emu %{ not gpumem-run --target=cuda-emu %s 2>&1 | FileCheck %s --check-prefix=EMU --match-full-lines --strict-whitespace %}
// EMU:gpumem: error: kernel 'main_kernel': deadlock at barrier {{.*}}error-divergent-shuffle.mlir:[[@LINE+36]]:5: thread (1,0,0) of block (0,0,0) waits there while lane 0 of its warp waits for it at the shfl.sync.bfly at {{.*}}error-divergent-shuffle.mlir:[[@LINE+31]]:17
// EMU-NEXT:gpumem: note: in the launch at {{.*}}error-divergent-shuffle.mlir:[[@LINE+22]]:3
// EMU-NOT:{{.}}

// A gpu.shuffle (width 32) that only the even lanes of a warp execute,
// while the odd lanes go on to a gpu.barrier: the warp can never complete
// the shuffle. The cpu runtime reports the deadlock, naming the kernel, the
// shuffle's and the barrier's locations, and exits with a non-zero status.

// Threads run round-robin: thread 0 waits at the shuffle, then thread 1
// reaches the barrier and the deadlock is certain.
// CHECK:gpumem: error: kernel 'main_kernel': deadlock at barrier {{.*}}error-divergent-shuffle.mlir:[[@LINE+25]]:5: thread (1,0,0) of block (0,0,0) waits there while 1 threads of its warp wait at the shuffle at {{.*}}error-divergent-shuffle.mlir:[[@LINE+20]]:17
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-divergent-shuffle.mlir:[[@LINE+11]]:3
// CHECK-NOT:{{.}}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %out = memref.alloc() : memref<32xi32>
  %out_u = memref.cast %out : memref<32xi32> to memref<*xi32>
  gpu.host_register %out_u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %r = arith.remui %tx, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    %v = scf.if %even -> (i32) {
      %one = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %y, %ok = gpu.shuffle xor %t, %one, %w : i32
      scf.yield %y : i32
    } else {
      scf.yield %t : i32
    }
    gpu.barrier
    memref.store %v, %out[%tx] : memref<32xi32>
    gpu.terminator
  }
  vector.print str "not reached\n"
  return
}
