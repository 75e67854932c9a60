// RUN: gpumem-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpumem-lower-nvvm-to-cpu))' | FileCheck %s

// Special registers are context loads; shared globals get offsets in
// module order at their alignment, the extern array follows them. The
// kernel has a barrier, so it becomes a coroutine: its frame comes from
// services->coroutineFrame (services at context offset 120, that one at
// 56); its only synchronization is nvvm.barrier0, so there it stores the
// barrier's location in ctx->barrierAt (offset 144) and suspends; its
// return becomes services->coroutineReturned (offset 72) and the final
// suspension. The kernel table carries the chip, its limit and the
// barriers-only flag.

// CHECK-LABEL: gpu.module @layout
// CHECK-NOT: addr_space = 3
// CHECK: llvm.func internal @__gpumem_kernel_k(%[[CTX:.*]]: !llvm.ptr) -> !llvm.ptr attributes {passthrough = ["presplitcoroutine"]}
// CHECK: %[[ID:.*]] = llvm.intr.coro.id
// CHECK: %[[SIZE:.*]] = llvm.intr.coro.size : i64
// CHECK: %[[FRAMESVC:.*]] = llvm.getelementptr %{{.*}}[56]
// CHECK: %[[FRAMEFN:.*]] = llvm.load %[[FRAMESVC]]
// CHECK: %[[MEM:.*]] = llvm.call %[[FRAMEFN]](%[[CTX]], %[[SIZE]])
// CHECK: %[[HDL:.*]] = llvm.intr.coro.begin %[[ID]], %[[MEM]]
// CHECK: %[[TIDP:.*]] = llvm.getelementptr %[[CTX]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[TID:.*]] = llvm.load %[[TIDP]] : !llvm.ptr -> i64
// CHECK: llvm.trunc %[[TID]] : i64 to i32
// CHECK: %[[BASE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.getelementptr %[[BASE]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[DYNP:.*]] = llvm.getelementptr %[[CTX]][104]
// CHECK: llvm.load %[[DYNP]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[CTX]][144]
// CHECK: %[[WHERE:.*]] = llvm.mlir.addressof @__gpumem_str_
// CHECK: llvm.store %[[WHERE]], %[[AT]] : !llvm.ptr, !llvm.ptr
// CHECK: llvm.intr.coro.suspend
// CHECK: llvm.switch
// CHECK: llvm.getelementptr %{{.*}}[72]
// CHECK: llvm.call %{{.*}}(%[[CTX]]) : !llvm.ptr, (!llvm.ptr) -> ()
// CHECK: llvm.intr.coro.suspend
// CHECK: llvm.intr.coro.end %[[HDL]]
// CHECK: llvm.return %[[HDL]] : !llvm.ptr
// CHECK: llvm.func @k() attributes {gpu.kernel}
// CHECK: llvm.func internal @__gpumem_start_coroutine_k(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.func internal @__gpumem_resume_coroutine(%[[H:.*]]: !llvm.ptr)
// CHECK: llvm.intr.coro.resume %[[H]]
// CHECK: llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.mlir.constant(232448 : i64) : i64
// CHECK: llvm.mlir.addressof @__gpumem_start_coroutine_k
// CHECK: llvm.mlir.addressof @__gpumem_resume_coroutine
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.mlir.global external constant @__gpumem_cpu_module()
gpu.module @layout [#nvvm.target<chip = "sm_90">] {
  llvm.mlir.global internal @a() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<3 x i32>
  llvm.mlir.global internal @b() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x f32>
  llvm.mlir.global external @dyn() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %b = llvm.mlir.addressof @b : !llvm.ptr<3>
    %d = llvm.mlir.addressof @dyn : !llvm.ptr<3>
    %g = llvm.addrspacecast %d : !llvm.ptr<3> to !llvm.ptr
    llvm.store %tid, %b : i32, !llvm.ptr<3>
    llvm.store %tid, %g : i32, !llvm.ptr
    nvvm.barrier0
    llvm.return
  }
}

// -----

// A shuffle with its validity passes PTX's operands to the warpSync
// service (offset 32; op 2 = shfl.sync.down) and a slot for the predicate;
// in a coroutine kernel the thread then suspends and reads the result with
// warpSyncResult (offset 64). A named barrier passes its id and count.
// Device functions get the context too; the one with a warp-level read is
// not synchronizing and stays a call.

// CHECK-LABEL: gpu.module @warp
// CHECK: llvm.func @helper(%[[X:.*]]: i32, %[[HCTX:.*]]: !llvm.ptr) -> i32
// CHECK: llvm.func internal @__gpumem_kernel_k(%{{.*}}: i32, %[[CTX:.*]]: !llvm.ptr) -> !llvm.ptr
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x i32
// CHECK: llvm.call @helper(%{{.*}}, %[[CTX]]) : (i32, !llvm.ptr) -> i32
// CHECK: %[[OP:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.getelementptr %{{.*}}[32]
// CHECK: llvm.call %{{.*}}(%[[CTX]], %[[OP]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SLOT]], %{{.*}}) : !llvm.ptr, (!llvm.ptr, i32, i64, i64, i32, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK: llvm.intr.coro.suspend
// CHECK: llvm.getelementptr %{{.*}}[64]
// CHECK: llvm.call %{{.*}}(%[[CTX]], %[[SLOT]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr) -> i64
// CHECK: llvm.load %[[SLOT]] : !llvm.ptr -> i32
// CHECK: llvm.insertvalue
// CHECK: llvm.call %{{.*}}(%[[CTX]], %{{.*}}, %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, i32, i32, !llvm.ptr) -> ()
// CHECK: llvm.intr.coro.suspend
gpu.module @warp [#nvvm.target<chip = "sm_80">] {
  llvm.func @helper(%x: i32) -> i32 {
    %lane = nvvm.read.ptx.sreg.laneid : i32
    %r = llvm.add %x, %lane : i32
    llvm.return %r : i32
  }
  llvm.func @k(%v: i32) attributes {gpu.kernel, nvvm.kernel} {
    %full = llvm.mlir.constant(-1 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %c = llvm.mlir.constant(31 : i32) : i32
    %count = llvm.mlir.constant(64 : i32) : i32
    %w = llvm.call @helper(%v) : (i32) -> i32
    %s = nvvm.shfl.sync down %full, %w, %one, %c {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
    nvvm.barrier id = %one number_of_threads = %count
    llvm.return
  }
}

// -----

// libdevice: functions libm has become libm's; rsqrt gets a body.

// CHECK-LABEL: gpu.module @math
// CHECK-DAG: llvm.func @expf(f32) -> f32
// CHECK-DAG: llvm.func internal @__nv_rsqrtf(%[[X:.*]]: f32) -> f32
// CHECK: llvm.call @expf(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call @__nv_rsqrtf(%{{.*}}) : (f32) -> f32
gpu.module @math [#nvvm.target<chip = "sm_90">] {
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @__nv_rsqrtf(f32) -> f32
  llvm.func @k(%x: f32) attributes {gpu.kernel, nvvm.kernel} {
    %e = llvm.call @__nv_expf(%x) : (f32) -> f32
    %r = llvm.call @__nv_rsqrtf(%e) : (f32) -> f32
    llvm.return
  }
}

// -----

// A private buffer whose size is known only at run time keeps the kernel on
// fibers (LLVM's coroutine frames hold only static allocas): it gets a
// run_thread entry, no coroutine, and nvvm.barrier0 calls the barrier
// service (the first of the services at context offset 120) with the op's
// location.

// CHECK-LABEL: gpu.module @fibers
// CHECK: llvm.func internal @__gpumem_kernel_k(%{{.*}}: i64, %[[CTX:.*]]: !llvm.ptr) {
// CHECK-NOT: coro
// CHECK: %[[WHERE:.*]] = llvm.mlir.addressof @__gpumem_str_
// CHECK: llvm.getelementptr %[[CTX]][120]
// CHECK: llvm.load
// CHECK: llvm.getelementptr %{{.*}}[0]
// CHECK: %[[BARRIER:.*]] = llvm.load
// CHECK: llvm.call %[[BARRIER]](%[[CTX]], %[[WHERE]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.func internal @__gpumem_run_thread_k
// CHECK-NOT: coro
gpu.module @fibers [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%n: i64) attributes {gpu.kernel, nvvm.kernel} {
    %buffer = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
    nvvm.barrier0
    llvm.return
  }
}

// -----

// Fences are host fences; vote, redux and match call the warpSync service
// with their operation (5 = vote.sync.any, 8 = redux.sync.add,
// 16 = match.any.sync, 18 = bar.warp.sync) on a fiber kernel (the dynamic
// alloca keeps it off coroutines).

// CHECK-LABEL: gpu.module @warp_ops
// CHECK: llvm.fence seq_cst
// CHECK: llvm.mlir.constant(5 : i32) : i32
// CHECK: llvm.trunc %{{.*}} : i64 to i1
// CHECK: llvm.mlir.constant(8 : i32) : i32
// CHECK: llvm.mlir.constant(16 : i32) : i32
// CHECK: llvm.mlir.constant(18 : i32) : i32
gpu.module @warp_ops [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%n: i64, %v: i32, %p: i1) attributes {gpu.kernel, nvvm.kernel} {
    %buffer = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
    %full = llvm.mlir.constant(-1 : i32) : i32
    nvvm.memory.barrier #nvvm.mem_scope<cta>
    %any = nvvm.vote.sync any %full, %p -> i1
    %sum = nvvm.redux.sync add %v, %full : i32 -> i32
    %m = nvvm.match.sync any %full, %v : i32 -> i32
    nvvm.bar.warp.sync %full : i32
    llvm.return
  }
}
