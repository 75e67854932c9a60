// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// Two different barriers: even threads wait at the one in the "then"
// branch, odd threads at the one in the "else" branch. On a GPU these are
// two different barriers that never complete; the cpu runtime reports the
// kernel and both locations and exits with a non-zero status.

// CHECK:gpumem: error: kernel 'split_kernel': divergent barrier at {{.*}}error-divergent-barrier-if-else.mlir:[[@LINE+21]]:9: thread (1,0,0) of block (0,0,0) waits there while 1 threads wait at {{.*}}error-divergent-barrier-if-else.mlir:[[@LINE+19]]:9
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-divergent-barrier-if-else.mlir:[[@LINE+32]]:5
// CHECK-NOT:{{.}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @split_kernel(%out: memref<64xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %r = arith.remui %tx, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      %v = arith.index_cast %tx : index to i32
      memref.store %v, %out[%tx] : memref<64xi32>
      // The runtime resumes a block's threads round-robin in linear order,
      // so thread 0 parks at the first barrier and thread 1 is the one
      // found waiting at the second.
      scf.if %even {
        gpu.barrier
      } else {
        gpu.barrier
      }
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %out = memref.alloc() : memref<64xi32>
    %out_u = memref.cast %out : memref<64xi32> to memref<*xi32>
    gpu.host_register %out_u : memref<*xi32>
    gpu.launch_func @kernels::@split_kernel blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%out : memref<64xi32>)
    vector.print str "not reached\n"
    return
  }
}
