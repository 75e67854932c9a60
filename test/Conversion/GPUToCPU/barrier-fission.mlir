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
