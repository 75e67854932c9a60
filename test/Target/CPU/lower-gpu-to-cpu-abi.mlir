// RUN: gpumem-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(gpumem-lower-gpu-to-cpu-abi))' | FileCheck %s

// A kernel with a barrier: thread-context loads, arena views after the
// module's workgroup globals, a barrier service call, a private alloca, the
// params-unpacking run_thread wrapper, no run_blocks, and the stub.

// CHECK-LABEL: gpu.module @fibers
// CHECK-SAME: gpumem.cpu_kernels = [{name = "k", needs_fibers = true, num_params = 6 : i32, param_bytes = array<i32: 8, 8, 8, 8, 8, 8>, run_thread = @__gpumem_run_thread_k, shared_bytes = 320 : i64}]
// CHECK: func.func private @__gpumem_kernel_k(%[[OUT:.*]]: memref<64xf32>, %[[N:.*]]: index, %[[CTX:.*]]: !llvm.ptr)
//   The attribution: ctx->sharedMemory (offset 96) + 64, after the 8 x i64 global.
// CHECK: %[[SHARED_SLOT:.*]] = llvm.getelementptr %[[CTX]][96] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[SHARED:.*]] = llvm.load %[[SHARED_SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.getelementptr %[[SHARED]][64] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[TILE:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<64xf32, 3>
// CHECK: %[[SCRATCH:.*]] = memref.alloca() : memref<4xf32, 5>
//   gpu.thread_id x: ctx->threadId[0] at offset 0; gpu.block_id y at 32.
// CHECK: llvm.getelementptr %[[CTX]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %[[CTX]][32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: memref.store %{{.*}}, %[[TILE]]
//   gpu.barrier: ctx->services (offset 120)->barrier (offset 0)(ctx, location).
// CHECK: %[[WHERE:.*]] = llvm.mlir.addressof @__gpumem_str_{{.*}} : !llvm.ptr
// CHECK: %[[SERVICES_SLOT:.*]] = llvm.getelementptr %[[CTX]][120]
// CHECK: %[[SERVICES:.*]] = llvm.load %[[SERVICES_SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[BARRIER_SLOT:.*]] = llvm.getelementptr %[[SERVICES]][0]
// CHECK: %[[BARRIER:.*]] = llvm.load %[[BARRIER_SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call %[[BARRIER]](%[[CTX]], %[[WHERE]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr) -> ()
//   The workgroup global: offset 0 of the arena.
// CHECK: llvm.getelementptr %{{.*}}[0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: builtin.unrealized_conversion_cast %{{.*}} to memref<8xi64, 3>
// CHECK: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK: return
// CHECK: func.func private @__gpumem_run_thread_k(%[[PARAMS:.*]]: !llvm.ptr, %[[WCTX:.*]]: !llvm.ptr)
// CHECK-COUNT-6: llvm.getelementptr %[[PARAMS]][{{[0-5]}}] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: call @__gpumem_kernel_k(%{{.*}}, %{{.*}}, %[[WCTX]]) : (memref<64xf32>, index, !llvm.ptr) -> ()
// CHECK-NOT: __gpumem_run_blocks_k
// CHECK: gpu.func @k(%{{.*}}: memref<64xf32>, %{{.*}}: index) kernel
// CHECK-NEXT: gpu.return
// CHECK-NOT: memref.global
module attributes {gpu.container_module} {
  gpu.module @fibers {
    memref.global "private" @shared_table : memref<8xi64, 3> = uninitialized
    gpu.func @k(%out: memref<64xf32>, %n: index) workgroup(%tile : memref<64xf32, 3>) private(%scratch : memref<4xf32, 5>) kernel {
      %tx = gpu.thread_id x
      %by = gpu.block_id y
      %v = memref.load %out[%tx] : memref<64xf32>
      memref.store %v, %tile[%by] : memref<64xf32, 3>
      gpu.barrier
      %table = memref.get_global @shared_table : memref<8xi64, 3>
      %c0 = arith.constant 0 : index
      %i = arith.index_cast %tx : index to i64
      memref.store %i, %table[%c0] : memref<8xi64, 3>
      memref.store %v, %scratch[%c0] : memref<4xf32, 5>
      gpu.return
    }
  }
}

// -----

// No barrier or warp op: a run_blocks wrapper loops over the blocks
// [first, last), x fastest, stepping the block id from the first's and
// storing it into the context with relaxed atomic stores (which LLVM keeps
// in the loop, so that a fault names its block); in each block it loops z,
// y, x over the threads, storing each thread id into the context before calling
// the kernel. Its context is noalias: nothing else touches it while the
// blocks run.

// CHECK-LABEL: gpu.module @loop
// CHECK-SAME: name = "scale", needs_fibers = false, num_params = 5 : i32, param_bytes = array<i32: 8, 8, 8, 8, 8>, run_blocks = @__gpumem_run_blocks_scale, run_thread = @__gpumem_run_thread_scale, shared_bytes = 0 : i64
// CHECK: func.func private @__gpumem_run_blocks_scale(%{{.*}}: !llvm.ptr, %[[CTX:.*]]: !llvm.ptr {llvm.noalias}, %[[FIRST:.*]]: i64, %[[LAST:.*]]: i64)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[GXSLOT:.*]] = llvm.getelementptr %[[CTX]][72]
// CHECK: %[[GX64:.*]] = llvm.load %[[GXSLOT]]
// CHECK: %[[GX:.*]] = arith.index_cast %[[GX64]]
// CHECK: %[[GYSLOT:.*]] = llvm.getelementptr %[[CTX]][80]
// CHECK: %[[GY64:.*]] = llvm.load %[[GYSLOT]]
// CHECK: %[[GY:.*]] = arith.index_cast %[[GY64]]
// CHECK: %[[F:.*]] = arith.index_cast %[[FIRST]] : i64 to index
// CHECK: %[[L:.*]] = arith.index_cast %[[LAST]] : i64 to index
// CHECK: %[[ROWS:.*]] = arith.divui %[[F]], %[[GX]]
// CHECK: %[[BX0:.*]] = arith.remui %[[F]], %[[GX]]
// CHECK: %[[BY0:.*]] = arith.remui %[[ROWS]], %[[GY]]
// CHECK: %[[BZ0:.*]] = arith.divui %[[ROWS]], %[[GY]]
// CHECK: scf.for %{{.*}} = %[[F]] to %[[L]] step %[[C1]] iter_args(%[[BX:.*]] = %[[BX0]], %[[BY:.*]] = %[[BY0]], %[[BZ:.*]] = %[[BZ0]])
// CHECK: %[[BX64:.*]] = arith.index_cast %[[BX]] : index to i64
// CHECK: %[[BXSLOT:.*]] = llvm.getelementptr %[[CTX]][24]
// CHECK: llvm.store %[[BX64]], %[[BXSLOT]] atomic monotonic
// CHECK: llvm.getelementptr %[[CTX]][32]
// CHECK: llvm.store {{.*}} atomic monotonic
// CHECK: llvm.getelementptr %[[CTX]][40]
// CHECK: llvm.store {{.*}} atomic monotonic
// CHECK: scf.for %[[Z:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[Z64:.*]] = arith.index_cast %[[Z]] : index to i64
// CHECK: %[[ZSLOT:.*]] = llvm.getelementptr %[[CTX]][16]
// CHECK: llvm.store %[[Z64]], %[[ZSLOT]] : i64, !llvm.ptr
// CHECK: scf.for
// CHECK: llvm.getelementptr %[[CTX]][8]
// CHECK: scf.for
// CHECK: llvm.getelementptr %[[CTX]][0]
// CHECK: func.call @__gpumem_kernel_scale(%{{.*}}, %[[CTX]])
// CHECK: %[[NX:.*]] = arith.addi %[[BX]], %[[C1]]
// CHECK: %[[WX:.*]] = arith.cmpi eq, %[[NX]], %[[GX]]
// CHECK: %[[CY:.*]] = arith.select %[[WX]], %[[C1]], %[[C0]]
// CHECK: %[[NY:.*]] = arith.addi %[[BY]], %[[CY]]
// CHECK: %[[WY:.*]] = arith.cmpi eq, %[[NY]], %[[GY]]
// CHECK: %[[CZ:.*]] = arith.select %[[WY]], %[[C1]], %[[C0]]
// CHECK: %[[NZ:.*]] = arith.addi %[[BZ]], %[[CZ]]
// CHECK: %[[SX:.*]] = arith.select %[[WX]], %[[C0]], %[[NX]]
// CHECK: %[[SY:.*]] = arith.select %[[WY]], %[[C0]], %[[NY]]
// CHECK: scf.yield %[[SX]], %[[SY]], %[[NZ]]
module attributes {gpu.container_module} {
  gpu.module @loop {
    gpu.func @scale(%data: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %v = memref.load %data[%i] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %data[%i] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// Each param's byte size is in the table, so that an asynchronous launch can
// copy its arguments: a memref is 3 + 2 * rank words, an index a word, any
// other argument its data-layout size.

// CHECK-LABEL: gpu.module @sizes
// CHECK-SAME: num_params = 10 : i32, param_bytes = array<i32: 8, 8, 8, 8, 8, 1, 2, 4, 8, 16>
module attributes {gpu.container_module} {
  gpu.module @sizes {
    gpu.func @k(%m: memref<?xf32>, %b: i1, %h: f16, %f: f32, %n: index,
                %v: vector<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Device functions take the context too; a function that calls one with a
// barrier needs fibers, and so does its kernel. Shuffles go through the
// shuffle service with the value widened to 64 bits and the ABI's mode
// (GPUMEM_SHUFFLE_DOWN is 1).

// CHECK-LABEL: gpu.module @device
// CHECK-SAME: name = "k", needs_fibers = true
// CHECK: func.func @inner(%[[V:.*]]: f32, %[[ICTX:.*]]: !llvm.ptr) -> f32
// CHECK: %[[VALID:.*]] = llvm.alloca %{{.*}} x i32 : (i64) -> !llvm.ptr
// CHECK: %[[BITS:.*]] = arith.bitcast %[[V]] : f32 to i32
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i32 to i64
// CHECK: %[[MODE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[R:.*]] = llvm.call %{{.*}}(%[[ICTX]], %[[WIDE]], %{{.*}}, %{{.*}}, %[[MODE]], %[[VALID]], %{{.*}}) : !llvm.ptr, (!llvm.ptr, i64, i32, i32, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK: %[[NARROW:.*]] = arith.trunci %[[R]] : i64 to i32
// CHECK: arith.bitcast %[[NARROW]] : i32 to f32
// CHECK: llvm.load %[[VALID]] : !llvm.ptr -> i32
// CHECK: func.func @outer(%{{.*}}: f32, %[[OCTX:.*]]: !llvm.ptr) -> f32
// CHECK: call @inner(%{{.*}}, %[[OCTX]]) : (f32, !llvm.ptr) -> f32
// CHECK: func.func private @__gpumem_kernel_k(%{{.*}}: memref<32xf32>, %[[CTX:.*]]: !llvm.ptr)
// CHECK: call @outer(%{{.*}}, %[[CTX]]) : (f32, !llvm.ptr) -> f32
module attributes {gpu.container_module} {
  gpu.module @device {
    func.func @inner(%v: f32) -> f32 {
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %s, %ok = gpu.shuffle down %v, %c1, %c32 : f32
      %r = arith.select %ok, %s, %v : f32
      return %r : f32
    }
    func.func @outer(%v: f32) -> f32 {
      %r = func.call @inner(%v) : (f32) -> f32
      return %r : f32
    }
    gpu.func @k(%out: memref<32xf32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %out[%tx] : memref<32xf32>
      %r = func.call @outer(%v) : (f32) -> f32
      memref.store %r, %out[%tx] : memref<32xf32>
      gpu.return
    }
  }
}

// -----

// printf calls libc's printf with C's argument promotions; dynamic shared
// memory is ctx->dynamicSharedMemory (104) sized by ctx->dynamicSharedBytes
// (112); a failed cf.assert calls the assertFail service (offset 16) with
// the message, file, line and function CUDA's message names. A kernel that
// may assert has no run_blocks: its threads run one by one.

// CHECK-LABEL: gpu.module @misc attributes {gpumem.cpu_kernels = [{name = "k", needs_fibers = false, num_params = 5 : i32, param_bytes = array<i32: 8, 8, 8, 8, 8>, run_thread = @__gpumem_run_thread_k, shared_bytes = 0 : i64}]}
// CHECK: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK: func.func private @__gpumem_kernel_k(%{{.*}}: memref<4xf32>, %[[CTX:.*]]: !llvm.ptr)
// CHECK: %[[F64:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: %[[I32:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK: llvm.call @printf(%{{.*}}, %{{.*}}, %[[F64]], %[[I32]]) vararg(!llvm.func<i32 (ptr, ...)>)
// CHECK: llvm.getelementptr %[[CTX]][104]
// CHECK: llvm.getelementptr %[[CTX]][112]
// CHECK: builtin.unrealized_conversion_cast %{{.*}} to memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK: %[[LINE:.*]] = arith.constant [[#@LINE+14]] : i32
// CHECK: llvm.getelementptr %{{.*}}[16]
// CHECK: llvm.call %{{.*}}(%[[CTX]], %{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr) -> ()
module attributes {gpu.container_module} {
  gpu.module @misc {
    gpu.func @k(%data: memref<4xf32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %data[%c0] : memref<4xf32>
      %b = arith.constant 7 : i8
      gpu.printf "thread %lld value %f byte %d\n", %tx, %v, %b : index, f32, i8
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %byte = memref.load %dyn[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
      %ok = arith.cmpi ne, %byte, %b : i8
      cf.assert %ok, "byte must not be 7"
      gpu.return
    }
  }
}

// -----

// A kernel with barriers that may assert (in a device function) gets no
// barrier-free block-wide copy either. CUDA's file and function come from
// the callee of the call sites around a named location.

// CHECK-LABEL: gpu.module @asserts attributes {gpumem.cpu_kernels = [{name = "k", needs_fibers = true, num_params = 1 : i32, param_bytes = array<i32: 1>, run_thread = @__gpumem_run_thread_k, shared_bytes = 0 : i64}]}
// CHECK-DAG: llvm.mlir.global {{.*}}("inner.cc\00")
// CHECK-DAG: llvm.mlir.global {{.*}}("inner_function\00")
// CHECK: func.func private @check(
// CHECK: arith.constant 7 : i32
// CHECK-NOT: __gpumem_kernel_block_k
module attributes {gpu.container_module} {
  gpu.module @asserts {
    func.func private @check(%ok: i1) {
      cf.assert %ok, "fails" loc(callsite(callsite("inner_function"("inner.cc":7:9) at "middle.cc":10:8) at "outer.cc":11:12))
      return
    }
    gpu.func @k(%ok: i1) kernel {
      gpu.barrier
      func.call @check(%ok) : (i1) -> ()
      gpu.barrier
      gpu.return
    }
  }
}

// -----

// A user function whose name looks like a generated one is still a device
// function: it gets the context argument, and its thread id is lowered.

// CHECK-LABEL: gpu.module @names
// CHECK: func.func @__gpumem_run_helper(%{{.*}}: memref<32xf32>, %[[CTX:.*]]: !llvm.ptr)
// CHECK: llvm.getelementptr %[[CTX]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: func.func private @__gpumem_kernel_k(%{{.*}}: memref<32xf32>, %[[KCTX:.*]]: !llvm.ptr)
// CHECK: call @__gpumem_run_helper(%{{.*}}, %[[KCTX]])
module attributes {gpu.container_module} {
  gpu.module @names {
    func.func @__gpumem_run_helper(%out: memref<32xf32>) {
      %tx = gpu.thread_id x
      %f = arith.constant 1.0 : f32
      memref.store %f, %out[%tx] : memref<32xf32>
      return
    }
    gpu.func @k(%out: memref<32xf32>) kernel {
      func.call @__gpumem_run_helper(%out) : (memref<32xf32>) -> ()
      gpu.return
    }
  }
}

// -----

// A known_block_size is compiled in: the kernel table records it for the
// runtime's launch check, gpu.block_dim becomes a constant, and run_blocks
// loops over constant bounds.

// CHECK-LABEL: gpu.module @known
// CHECK-SAME: known_block_size = array<i32: 64, 2, 1>
// CHECK: func.func private @__gpumem_kernel_k(
// CHECK-NOT: llvm.getelementptr %{{.*}}[48]
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: memref.store %[[C64]]
// CHECK: func.func private @__gpumem_run_blocks_k(
// CHECK-DAG: %[[X:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[Y:.*]] = arith.constant 2 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[Y]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[X]]
module attributes {gpu.container_module} {
  gpu.module @known {
    gpu.func @k(%out: memref<1xindex>) kernel attributes {known_block_size = array<i32: 64, 2, 1>} {
      %c0 = arith.constant 0 : index
      %n = gpu.block_dim x
      memref.store %n, %out[%c0] : memref<1xindex>
      gpu.return
    }
  }
}
