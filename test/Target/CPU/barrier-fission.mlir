// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi))' | FileCheck %s
// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi{phase-markers=true}))' | FileCheck %s --check-prefix=MARKERS

// A tree reduction: barriers at top level and in a uniform scf.while. The
// kernel gets a block-wide copy without barriers: each segment is a loop
// nest over the block's threads, the while loop runs once per block. The
// thread id, used on both sides of a barrier, needs no per-thread array:
// each segment reads it from the context, which its thread loop sets.

// CHECK-LABEL: gpu.module @tree
// CHECK-SAME: name = "sum", needs_fibers = false, num_params = {{[0-9]+}} : i32, param_bytes = array<i32: {{[0-9, ]+}}>, run_blocks = @__gpumem_run_blocks_sum
// CHECK: func.func private @__gpumem_kernel_block_sum(%{{.*}}: memref<256xf32>, %{{.*}}: memref<1xf32>, %[[CTX:.*]]: !llvm.ptr) attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK-NOT: gpu.barrier
// CHECK-NOT: llvm.call
// CHECK-NOT: memref.alloca
//   Segment 1: every thread stores its value into the tree.
// CHECK: scf.for %[[Z:.*]] =
// CHECK: scf.for %[[Y:.*]] =
// CHECK: scf.for %[[X:.*]] =
// CHECK: llvm.getelementptr %[[CTX]][0]
// CHECK: memref.store
//   The uniform loop, once per block, with its segment inside, which reads
//   the thread id again.
// CHECK: scf.while
// CHECK: arith.cmpi ugt
// CHECK: scf.condition
// CHECK: } do {
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: llvm.getelementptr %[[CTX]][0]
// CHECK: scf.if
// CHECK: arith.divui
// CHECK: scf.yield
// CHECK: func.func private @__gpumem_run_blocks_sum(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: scf.for
// CHECK: llvm.store {{.*}} atomic monotonic
// CHECK: call @__gpumem_kernel_block_sum

// With phase-markers, where each barrier was, the copy calls the runtime's
// blockPhase service (offset 120 of the services) between thread loops.
// MARKERS-LABEL: func.func private @__gpumem_kernel_block_sum(
// MARKERS: scf.for
// MARKERS: memref.store
// MARKERS: llvm.getelementptr %{{.*}}[120]
// MARKERS: llvm.call %{{.*}}(%{{.*}}) : !llvm.ptr, (!llvm.ptr) -> ()
// MARKERS: scf.while
// MARKERS: } do {
// MARKERS: llvm.getelementptr %{{.*}}[120]
module attributes {gpu.container_module} {
  gpu.module @tree {
    gpu.func @sum(%in: memref<256xf32>, %out: memref<1xf32>) workgroup(%tree : memref<256xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %tx = gpu.thread_id x
      %v = memref.load %in[%tx] : memref<256xf32>
      memref.store %v, %tree[%tx] : memref<256xf32, 3>
      gpu.barrier
      %end = scf.while (%s = %c128) : (index) -> index {
        %go = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%go) %s : index
      } do {
      ^bb0(%s: index):
        %active = arith.cmpi ult, %tx, %s : index
        scf.if %active {
          %o = arith.addi %tx, %s : index
          %l = memref.load %tree[%tx] : memref<256xf32, 3>
          %h = memref.load %tree[%o] : memref<256xf32, 3>
          %t = arith.addf %l, %h : f32
          memref.store %t, %tree[%tx] : memref<256xf32, 3>
        }
        gpu.barrier
        %next = arith.divui %s, %c2 : index
        scf.yield %next : index
      }
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        %r = memref.load %tree[%c0] : memref<256xf32, 3>
        memref.store %r, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
}

// -----

// A barrier under a condition that depends on the thread id is divergent:
// no block-wide copy, fibers (which report the divergence when it happens).

// CHECK-LABEL: gpu.module @divergent
// CHECK-SAME: name = "k", needs_fibers = true
// CHECK-NOT: __gpumem_kernel_block_k
// CHECK-NOT: run_blocks
module attributes {gpu.container_module} {
  gpu.module @divergent {
    gpu.func @k(%out: memref<64xf32>) kernel {
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %low = arith.cmpi ult, %tx, %c16 : index
      scf.if %low {
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// Shuffles keep fibers too: a warp rendezvous needs the threads alive at
// once.

// CHECK-LABEL: gpu.module @shuffles
// CHECK-SAME: name = "k", needs_fibers = true
// CHECK-NOT: __gpumem_kernel_block_k
module attributes {gpu.container_module} {
  gpu.module @shuffles {
    gpu.func @k(%out: memref<64xf32>) kernel {
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %tx = gpu.thread_id x
      %v = memref.load %out[%tx] : memref<64xf32>
      gpu.barrier
      %s, %ok = gpu.shuffle xor %v, %c1, %c32 : f32
      memref.store %s, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// A per-thread accumulator carried through a K loop with barriers (a tiled
// matmul): the accumulator lives in a per-thread array, filled with its
// initial value before the loop; the loop carries nothing; each thread loads
// its accumulator, adds, and stores it back in the segment between the
// barriers; after the loop each thread reads its own.

// CHECK-LABEL: gpu.module @accumulator
// CHECK-SAME: name = "k", needs_fibers = false
// CHECK: func.func private @__gpumem_kernel_block_k(
// CHECK: %[[ACC:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[ACC]][%{{.*}}] : memref<?xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[OLD:.*]] = memref.load %[[ACC]][%{{.*}}] : memref<?xf32>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// CHECK: memref.store %[[NEW]], %[[ACC]][%{{.*}}] : memref<?xf32>
// CHECK: memref.load %[[ACC]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<64xf32>
module attributes {gpu.container_module} {
  gpu.module @accumulator {
    gpu.func @k(%in: memref<64xf32>, %out: memref<64xf32>) workgroup(%tile : memref<64xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%sum = %zero) -> f32 {
        %v = memref.load %in[%tx] : memref<64xf32>
        memref.store %v, %tile[%tx] : memref<64xf32, 3>
        gpu.barrier
        %w = memref.load %tile[%k] : memref<64xf32, 3>
        %next = arith.addf %sum, %w : f32
        gpu.barrier
        scf.yield %next : f32
      }
      memref.store %acc, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// A value a thread computes before a barrier and uses after it lives in a
// per-thread array; the thread id does not (each segment reads it again).

// CHECK-LABEL: gpu.module @crossing
// CHECK: func.func private @__gpumem_kernel_block_shift(
// CHECK: %[[SAVED:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
// CHECK-NOT: memref.alloca
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<64xf32>
// CHECK: memref.store %[[V]], %[[SAVED]][%{{.*}}] : memref<?xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[BACK:.*]] = memref.load %[[SAVED]][%{{.*}}] : memref<?xf32>
// CHECK: arith.addf %[[BACK]]
module attributes {gpu.container_module} {
  gpu.module @crossing {
    gpu.func @shift(%data: memref<64xf32>) workgroup(%tile : memref<64xf32, 3>) kernel {
      %c1 = arith.constant 1 : index
      %c63 = arith.constant 63 : index
      %tx = gpu.thread_id x
      %v = memref.load %data[%tx] : memref<64xf32>
      memref.store %v, %tile[%tx] : memref<64xf32, 3>
      gpu.barrier
      %n = arith.addi %tx, %c1 : index
      %w = arith.minui %n, %c63 : index
      %u = memref.load %tile[%w] : memref<64xf32, 3>
      %s = arith.addf %v, %u : f32
      memref.store %s, %data[%tx] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// A uniform loop between barriers whose accesses are equal or consecutive
// across x (a tile product: a[ty][k] is the same in every thread of a row,
// b[k][tx] consecutive) runs once per block, around the thread loops, so
// that the loop over x is innermost and vectorizes. Its per-thread sum lives
// in an array, filled before the loop; the loop carries nothing.

// CHECK-LABEL: gpu.module @outside
// CHECK-SAME: name = "dot", needs_fibers = false
// CHECK: func.func private @__gpumem_kernel_block_dot(
// CHECK: %[[SUM:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
//   Segment 1 fills the tiles, then each thread's sum starts at zero.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x16xf32, 3>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[SUM]][%{{.*}}] : memref<?xf32>
//   The k loop, once per block, with the thread loops inside.
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: memref.load
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[OLD:.*]] = memref.load %[[SUM]][%{{.*}}] : memref<?xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<16x16xf32, 3>
// CHECK: memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<16x16xf32, 3>
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[P]] : f32
// CHECK: memref.store %[[NEW]], %[[SUM]][%{{.*}}] : memref<?xf32>
// CHECK: memref.load %[[SUM]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x16xf32>
module attributes {gpu.container_module} {
  gpu.module @outside {
    gpu.func @dot(%in: memref<16x16xf32>, %out: memref<16x16xf32>)
        workgroup(%a : memref<16x16xf32, 3>, %b : memref<16x16xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %in[%ty, %tx] : memref<16x16xf32>
      memref.store %v, %a[%ty, %tx] : memref<16x16xf32, 3>
      memref.store %v, %b[%ty, %tx] : memref<16x16xf32, 3>
      gpu.barrier
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %zero) -> f32 {
        %x = memref.load %a[%ty, %k] : memref<16x16xf32, 3>
        %y = memref.load %b[%k, %tx] : memref<16x16xf32, 3>
        %p = arith.mulf %x, %y : f32
        %s2 = arith.addf %s, %p : f32
        scf.yield %s2 : f32
      }
      memref.store %sum, %out[%ty, %tx] : memref<16x16xf32>
      gpu.return
    }
  }
}

// -----

// Loops that stay inside the thread loop: one that reads a column per
// thread (a[tx][k]: consecutive threads 16 floats apart, a gather), and one
// that prints (running the threads' iterations interleaved would reorder
// the output).

// CHECK-LABEL: gpu.module @inside
// CHECK: func.func private @__gpumem_kernel_block_column(
// CHECK-NOT: memref.alloca(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x16xf32, 3>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK: func.func private @__gpumem_kernel_block_prints(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32, 3>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step
// CHECK-NOT: scf.for
// CHECK: llvm.call @printf
module attributes {gpu.container_module} {
  gpu.module @inside {
    gpu.func @column(%in: memref<16x16xf32>, %out: memref<16xf32>)
        workgroup(%a : memref<16x16xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = memref.load %in[%ty, %tx] : memref<16x16xf32>
      memref.store %v, %a[%ty, %tx] : memref<16x16xf32, 3>
      gpu.barrier
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %zero) -> f32 {
        %x = memref.load %a[%tx, %k] : memref<16x16xf32, 3>
        %s2 = arith.addf %s, %x : f32
        scf.yield %s2 : f32
      }
      memref.store %sum, %out[%tx] : memref<16xf32>
      gpu.return
    }
    gpu.func @prints(%in: memref<16xf32>) workgroup(%a : memref<16xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %tx = gpu.thread_id x
      %v = memref.load %in[%tx] : memref<16xf32>
      memref.store %v, %a[%tx] : memref<16xf32, 3>
      gpu.barrier
      scf.for %k = %c0 to %c4 step %c1 {
        %x = memref.load %a[%tx] : memref<16xf32, 3>
        gpu.printf "%f\n", %x : f32
      }
      gpu.return
    }
  }
}

// -----

// A loop whose bound is carried per thread by a barrier loop differs
// between threads: fission still applies, with that loop inside the thread
// loop (rather than the kernel running on fibers).

// CHECK-LABEL: gpu.module @per_thread_bound
// CHECK-SAME: name = "k", needs_fibers = false
// CHECK: func.func private @__gpumem_kernel_block_k(
// CHECK: %[[N:.*]] = memref.alloca(%{{.*}}) : memref<?xindex>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[BOUND:.*]] = memref.load %[[N]][%{{.*}}] : memref<?xindex>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[BOUND]] step %{{.*}} iter_args
module attributes {gpu.container_module} {
  gpu.module @per_thread_bound {
    gpu.func @k(%out: memref<16xf32>) workgroup(%a : memref<16xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %end = scf.for %i = %c0 to %c2 step %c1 iter_args(%n = %tx) -> index {
        %v = memref.load %out[%tx] : memref<16xf32>
        memref.store %v, %a[%tx] : memref<16xf32, 3>
        gpu.barrier
        %sum = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> f32 {
          %x = memref.load %a[%tx] : memref<16xf32, 3>
          %s2 = arith.addf %s, %x : f32
          scf.yield %s2 : f32
        }
        memref.store %sum, %out[%tx] : memref<16xf32>
        gpu.barrier
        %n2 = arith.addi %n, %c1 : index
        scf.yield %n2 : index
      }
      gpu.return
    }
  }
}

// -----

// One value yielded for two per-thread carried values: each would need it
// in its own array, which fission does not do; the kernel keeps fibers
// (test/Programs/barrier-loop-yields-one-value-twice.mlir runs one).

// CHECK-LABEL: gpu.module @yielded_twice
// CHECK-SAME: name = "k", needs_fibers = true
// CHECK-NOT: __gpumem_kernel_block_k
module attributes {gpu.container_module} {
  gpu.module @yielded_twice {
    gpu.func @k(%out: memref<16xf32>) workgroup(%a : memref<16xf32, 3>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %tx = gpu.thread_id x
      %v0 = memref.load %out[%tx] : memref<16xf32>
      %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%p = %v0, %q = %v0) -> (f32, f32) {
        memref.store %p, %a[%tx] : memref<16xf32, 3>
        gpu.barrier
        %w = memref.load %a[%tx] : memref<16xf32, 3>
        %s = arith.addf %w, %q : f32
        gpu.barrier
        scf.yield %s, %s : f32, f32
      }
      %t = arith.addf %r#0, %r#1 : f32
      memref.store %t, %out[%tx] : memref<16xf32>
      gpu.return
    }
  }
}

// -----

// A kernel without barriers whose uniform loop vectorizes across x (a
// matmul without tiles) gets the block-wide copy too: the loop over k runs
// once per block around the thread loops. The thread's row and column,
// computed before the loop, are computed again inside from the thread ids
// (no per-thread arrays for them); only the sum has one.

// CHECK-LABEL: gpu.module @no_barrier
// CHECK-SAME: name = "naive", needs_fibers = false
// CHECK: func.func private @__gpumem_kernel_block_naive(
// CHECK: %[[SUM:.*]] = memref.alloca(%{{.*}}) : memref<?xf32>
// CHECK-NOT: memref.alloca
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[OLD:.*]] = memref.load %[[SUM]][%{{.*}}] : memref<?xf32>
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<64x64xf32>
// CHECK: memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<64x64xf32>
// CHECK: arith.addf %[[OLD]]
// CHECK: func.func private @__gpumem_run_blocks_naive(
// CHECK: call @__gpumem_kernel_block_naive

// A barrier-free kernel whose loop stays inside gets no block-wide copy.
// CHECK-LABEL: gpu.module @no_barrier_column
// CHECK-SAME: name = "column", needs_fibers = false
// CHECK-NOT: __gpumem_kernel_block_column
module attributes {gpu.container_module} {
  gpu.module @no_barrier {
    gpu.func @naive(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %zero) -> f32 {
        %x = memref.load %a[%row, %k] : memref<64x64xf32>
        %y = memref.load %b[%k, %col] : memref<64x64xf32>
        %p = arith.mulf %x, %y : f32
        %s2 = arith.addf %s, %p : f32
        scf.yield %s2 : f32
      }
      memref.store %sum, %c[%row, %col] : memref<64x64xf32>
      gpu.return
    }
  }
  gpu.module @no_barrier_column {
    gpu.func @column(%a: memref<64x64xf32>, %c: memref<64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %zero) -> f32 {
        %x = memref.load %a[%tx, %k] : memref<64x64xf32>
        %s2 = arith.addf %s, %x : f32
        scf.yield %s2 : f32
      }
      memref.store %sum, %c[%tx] : memref<64xf32>
      gpu.return
    }
  }
}
