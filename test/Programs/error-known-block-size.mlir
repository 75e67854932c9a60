// RUN: not gpumem-run --target=cpu %s 2>&1 | FileCheck %s --match-full-lines --strict-whitespace

// A kernel declares known_block_size = 8 x 1 x 1, and the cpu target
// specializes its code for that size (constant thread loops). A launch of
// 16 threads is refused with the kernel, both sizes and the launch's
// location, before any thread runs; the first launch, of 8, runs.

// CHECK:first launch: 8
// CHECK-NEXT:gpumem: error: kernel 'count': a block of 16 x 1 x 1 threads, but the kernel was compiled for blocks of 8 x 1 x 1 (its known_block_size)
// CHECK-NEXT:gpumem: note: in the launch at {{.*}}error-known-block-size.mlir:[[#@LINE+29]]:5
// CHECK-NOT:{{.}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @count(%out: memref<1xindex>) kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %n = gpu.block_dim x
      %last = arith.subi %n, %tx : index
      %one = arith.constant 1 : index
      %is_last = arith.cmpi eq, %last, %one : index
      scf.if %is_last {
        memref.store %n, %out[%c0] : memref<1xindex>
      }
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %out = memref.alloc() : memref<1xindex>
    gpu.launch_func @kernels::@count blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<1xindex>)
    %n = memref.load %out[%c0] : memref<1xindex>
    vector.print str "first launch: "
    vector.print %n : index
    gpu.launch_func @kernels::@count blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%out : memref<1xindex>)
    vector.print str "never printed\n"
    return
  }
}
