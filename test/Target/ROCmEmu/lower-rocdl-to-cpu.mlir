// RUN: gpumem-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpumem-lower-rocdl-to-cpu))' | FileCheck %s

// The ROCDL ops' patterns (lib/Target/ROCmEmu) in the ROCDL form
// upstream's convert-gpu-to-rocdl{chipset=gfx1100 runtime=HIP} makes of
// gpu ops. Context offsets: threadId 0, blockId 24, blockDim 48, gridDim
// 72, services 120, barrierAt 144; services: barrier 0, warpSync 32,
// vprintf 40, warpSyncResult 64.

// Ids and dimensions are context loads (workgroup.id.y at 24 + 8,
// grid.dim.z at 72 + 16); mbcnt counts the lanes below the caller's
// (lane = linear id mod 32: the y and x ids and the x size make it) in the
// low and high halves of its mask; wavefrontsize is gfx1100's 32. The only
// synchronization is the barrier, so the kernel is a coroutine that stores
// the barrier's location in ctx->barrierAt and suspends.

// CHECK-LABEL: gpu.module @ids
// CHECK: llvm.getelementptr %[[CTX:.*]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %[[CTX]][32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %[[CTX]][48] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.getelementptr %[[CTX]][88] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[LANE:.*]] = llvm.urem %{{.*}}, %{{.*}} : i64
// CHECK: %[[BIT:.*]] = llvm.shl %{{.*}}, %[[LANE]] : i64
// CHECK: %[[BELOW:.*]] = llvm.sub %[[BIT]], %{{.*}} : i64
// CHECK: %[[LOW:.*]] = llvm.trunc %[[BELOW]] : i64 to i32
// CHECK: %[[MASKED:.*]] = llvm.and %{{.*}}, %[[LOW]] : i32
// CHECK: llvm.intr.ctpop(%[[MASKED]]) : (i32) -> i32
// CHECK: llvm.lshr %{{.*}} : i64
// CHECK: llvm.intr.ctpop
// CHECK: llvm.mlir.constant(32 : i32) : i32
// CHECK: llvm.getelementptr %[[CTX]][144]
// CHECK: llvm.intr.coro.suspend
gpu.module @ids [#rocdl.target<chip = "gfx1100">] {
  llvm.func @k(%out: !llvm.ptr) attributes {gpu.kernel, rocdl.kernel} {
    %0 = rocdl.workitem.id.x : i32
    %1 = rocdl.workgroup.id.y : i32
    %2 = rocdl.workgroup.dim.x : i32
    %3 = rocdl.grid.dim.z : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %all = llvm.mlir.constant(-1 : i32) : i32
    %lo = rocdl.mbcnt.lo %all, %zero {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 32>}]} : (i32, i32) -> i32
    %lane = rocdl.mbcnt.hi %all, %lo {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 64>}]} : (i32, i32) -> i32
    %size = rocdl.wavefrontsize : i32
    rocdl.barrier
    %a = llvm.add %0, %1 : i32
    %b = llvm.add %2, %3 : i32
    %c = llvm.add %lane, %size : i32
    %d = llvm.add %a, %b : i32
    %e = llvm.add %c, %d : i32
    llvm.store %e, %out : i32, !llvm.ptr
    llvm.return
  }
}

// -----

// gpu.shuffle xor and idx (a run-time offset and width) become
// ds_bpermute: warpSync (op 3 = SHFL_IDX) over the wavefront's existing
// lanes with source lane (addr >> 2) & 31 and c = 31 (clamp 31, segment
// mask 0), a suspension, warpSyncResult, and 0 where the source lane does
// not exist. gpu.subgroup_broadcast becomes readfirstlane (the lowest
// active lane, found by a ballot) and readlane (lane l & 31), the same way.

// CHECK-LABEL: gpu.module @shuffles
// CHECK: %[[SHIFTED:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
// CHECK: %[[SOURCE:.*]] = llvm.and %[[SHIFTED]], %{{.*}} : i32
// CHECK: %[[C:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[IDX:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.getelementptr %{{.*}}[32]
// CHECK: llvm.call %{{.*}}(%[[CTX:.*]], %[[IDX]], %[[MASK:.*]], %{{.*}}, %[[SOURCE]], %[[C]], %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, i32, i{{32|64}}, i64, i32, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK: llvm.intr.coro.suspend
// CHECK: llvm.getelementptr %{{.*}}[64]
// CHECK: %[[RAW:.*]] = llvm.call %{{.*}}(%[[CTX]], %{{.*}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr) -> i64
// CHECK: %[[VALUE:.*]] = llvm.trunc %[[RAW]] : i64 to i32
// CHECK: %[[EXISTS:.*]] = llvm.icmp "ult" %[[SOURCE]], %{{.*}} : i32
// CHECK: llvm.select %[[EXISTS]], %[[VALUE]], %{{.*}} : i1, i32
// CHECK: llvm.intr.coro.suspend
// CHECK: llvm.intr.coro.suspend
// CHECK: llvm.intr.coro.suspend
gpu.module @shuffles [#rocdl.target<chip = "gfx1100">] {
  llvm.func @k(%out: !llvm.ptr, %offset: i32, %width: i32) attributes {gpu.kernel, rocdl.kernel} {
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %v = llvm.load %out : !llvm.ptr -> i32
    %0 = llvm.mlir.constant(0 : i32) : i32
    %1 = llvm.mlir.constant(-1 : i32) : i32
    %2 = rocdl.mbcnt.lo %1, %0 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 32>}]} : (i32, i32) -> i32
    %3 = rocdl.mbcnt.hi %1, %2 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 64>}]} : (i32, i32) -> i32
    %4 = llvm.mlir.constant(0 : i32) : i32
    %5 = llvm.sub %4, %c32 : i32
    %6 = llvm.add %3, %c32 : i32
    %7 = llvm.and %6, %5 : i32
    %8 = llvm.xor %3, %c1 : i32
    %9 = llvm.icmp "slt" %8, %7 : i32
    %10 = llvm.select %9, %8, %3 : i1, i32
    %11 = llvm.mlir.constant(2 : i32) : i32
    %12 = llvm.shl %10, %11 : i32
    %13 = rocdl.ds_bpermute %12, %v : (i32, i32) -> i32
    %14 = llvm.mlir.constant(0 : i32) : i32
    %15 = llvm.mlir.constant(-1 : i32) : i32
    %16 = rocdl.mbcnt.lo %15, %14 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 32>}]} : (i32, i32) -> i32
    %17 = rocdl.mbcnt.hi %15, %16 {res_attrs = [{llvm.noundef, llvm.range = #llvm.constant_range<i32, 0, 64>}]} : (i32, i32) -> i32
    %18 = llvm.mlir.constant(0 : i32) : i32
    %19 = llvm.sub %18, %width : i32
    %20 = llvm.add %17, %width : i32
    %21 = llvm.and %20, %19 : i32
    %22 = llvm.icmp "slt" %offset, %21 : i32
    %23 = llvm.select %22, %offset, %17 : i1, i32
    %24 = llvm.mlir.constant(2 : i32) : i32
    %25 = llvm.shl %23, %24 : i32
    %26 = rocdl.ds_bpermute %25, %v : (i32, i32) -> i32
    %27 = rocdl.readfirstlane %v : i32
    %28 = rocdl.readlane %v, %offset : (i32, i32) -> i32
    %29 = llvm.add %13, %26 : i32
    %30 = llvm.add %27, %28 : i32
    %31 = llvm.add %29, %30 : i32
    llvm.store %31, %out : i32, !llvm.ptr
    llvm.return
  }
}

// -----

// HIP's printf: the arguments, 64 bits each, are packed for the constant
// format's conversions as services->vprintf reads them (%d: the low 32
// bits at 0; %ld: 64 bits at 8; %f: the double at 16) in a buffer at the
// function's entry, and vprintf formats them with the format.

// CHECK-LABEL: gpu.module @printf
// CHECK: %[[BUFFER:.*]] = llvm.alloca %{{.*}} x i8 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK: %[[FORMAT:.*]] = llvm.getelementptr %{{.*}}[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<20 x i8>
// CHECK: %[[INT:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK: %[[AT0:.*]] = llvm.getelementptr %[[BUFFER]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[INT]], %[[AT0]] : i32, !llvm.ptr
// CHECK: %[[AT8:.*]] = llvm.getelementptr %[[BUFFER]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %{{.*}}, %[[AT8]] : i64, !llvm.ptr
// CHECK: %[[AT16:.*]] = llvm.getelementptr %[[BUFFER]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %{{.*}}, %[[AT16]] : i64, !llvm.ptr
// CHECK: llvm.getelementptr %{{.*}}[40]
// CHECK: llvm.call %{{.*}}(%{{.*}}, %[[FORMAT]], %[[BUFFER]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT: __ockl_printf
gpu.module @printf [#rocdl.target<chip = "gfx1100">] {
  llvm.mlir.global internal constant @printfFormat_0("lane %d of %ld: %f\0A\00") {addr_space = 0 : i32}
  llvm.func @__ockl_printf_append_string_n(i64, !llvm.ptr, i64, i32) -> i64
  llvm.func @__ockl_printf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32) -> i64
  llvm.func @__ockl_printf_begin(i64) -> i64
  llvm.func @k(%arg0: i32, %arg1: f32) attributes {gpu.kernel, rocdl.kernel} {
    %0 = rocdl.workitem.id.x : i32
    %1 = llvm.sext %0 : i32 to i64
    %2 = llvm.mlir.constant(0 : i64) : i64
    %3 = llvm.call @__ockl_printf_begin(%2) : (i64) -> i64
    %4 = llvm.mlir.addressof @printfFormat_0 : !llvm.ptr
    %5 = llvm.getelementptr %4[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<20 x i8>
    %6 = llvm.mlir.constant(20 : i64) : i64
    %7 = llvm.mlir.constant(1 : i32) : i32
    %8 = llvm.mlir.constant(0 : i32) : i32
    %9 = llvm.call @__ockl_printf_append_string_n(%3, %5, %6, %8) : (i64, !llvm.ptr, i64, i32) -> i64
    %10 = llvm.mlir.constant(3 : i32) : i32
    %11 = llvm.zext %arg0 : i32 to i64
    %12 = llvm.fpext %arg1 : f32 to f64
    %13 = llvm.bitcast %12 : f64 to i64
    %14 = llvm.call @__ockl_printf_append_args(%9, %10, %11, %1, %13, %2, %2, %2, %2, %7) : (i64, i32, i64, i64, i64, i64, i64, i64, i64, i32) -> i64
    llvm.return
  }
}

// -----

// Ops convert-gpu-to-rocdl does not make from gpu ops, written by hand, on
// fibers (the dynamic private alloca keeps the kernel off coroutines): waits and
// scheduling hints go; ds_swizzle in bit-mask mode (0x041F: and 31, or 0,
// xor 1) and quad-permute mode (0x801B: lanes 3, 2, 1, 0 of each quad)
// reads the lane its pattern names with SHFL_IDX (3); ballot is
// VOTE_BALLOT (7) over the existing lanes, truncated to i32.

// CHECK-LABEL: gpu.module @swizzle
// CHECK-NOT: rocdl.s.waitcnt
// CHECK-NOT: rocdl.sched.barrier
// CHECK: %[[AND:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[MASKED:.*]] = llvm.and %{{.*}}, %[[AND]] : i32
// CHECK: %[[OR:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[ORED:.*]] = llvm.or %[[MASKED]], %[[OR]] : i32
// CHECK: %[[XOR:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[BITMASK:.*]] = llvm.xor %[[ORED]], %[[XOR]] : i32
// CHECK: llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BITMASK]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[QUAD:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[PERM:.*]] = llvm.mlir.constant(27 : i32) : i32
// CHECK: %[[PICKED:.*]] = llvm.lshr %[[PERM]], %{{.*}} : i32
// CHECK: %[[WITHIN:.*]] = llvm.and %[[PICKED]], %{{.*}} : i32
// CHECK: %[[QSOURCE:.*]] = llvm.or %[[QUAD]], %[[WITHIN]] : i32
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[QSOURCE]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[BALLOT:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK: %[[RAW:.*]] = llvm.call %{{.*}}(%{{.*}}, %[[BALLOT]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: llvm.trunc %[[RAW]] : i64 to i32
gpu.module @swizzle [#rocdl.target<chip = "gfx1100">] {
  llvm.func @k(%n: i64, %out: !llvm.ptr, %p: i1) attributes {gpu.kernel, rocdl.kernel} {
    %buffer = llvm.alloca %n x f32 : (i64) -> !llvm.ptr<5>
    %v = llvm.load %out : !llvm.ptr -> i32
    rocdl.s.waitcnt 0
    rocdl.sched.barrier 0
    %bitmask = llvm.mlir.constant(0x041F : i32) : i32
    %a = rocdl.ds_swizzle %v, %bitmask : (i32, i32) -> i32
    %quad = llvm.mlir.constant(0x801B : i32) : i32
    %b = rocdl.ds_swizzle %v, %quad : (i32, i32) -> i32
    %c = rocdl.ballot %p : i32
    %ab = llvm.add %a, %b : i32
    %abc = llvm.add %ab, %c : i32
    llvm.store %abc, %out : i32, !llvm.ptr
    llvm.return
  }
}

// -----

// gfx90a's wavefronts have 64 lanes (its default), and so do the runtime's
// warps of the kernel (warp_size 64, the kernel table's last field): lane =
// linear id mod 64, the existing lanes' member mask (1 << lanes) - 1 in 64
// bits, all ones for a full wavefront (a shift by 64 would be poison);
// ds_bpermute's source lane (addr >> 2) & 63 and readlane's l & 63, with c
// = 0 (a 64-lane warp's shuffles have no clamp or segment); ds_swizzle's
// bit-mask mode (0x041F: and 31, or 0, xor 1) stays within its half of the
// wavefront; ballot's 64 bits are the i64 result and truncated for i32;
// wavefrontsize is 64. On fibers (the dynamic alloca).

// CHECK-LABEL: gpu.module @wave64
// CHECK: %[[W:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK: llvm.urem %{{.*}}, %[[W]] : i64
// CHECK: %[[FULL:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK: %[[LANES:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[FULL]] : i1, i64
// CHECK: %[[BELOW:.*]] = llvm.sub %{{.*}}, %{{.*}} : i64
// CHECK: %[[ONES:.*]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK: %[[ISFULL:.*]] = llvm.icmp "eq" %[[LANES]], %[[FULL]] : i64
// CHECK: %[[MASK:.*]] = llvm.select %[[ISFULL]], %[[ONES]], %[[BELOW]] : i1, i64
// CHECK: %[[SHIFTED:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i32
// CHECK: %[[LAST:.*]] = llvm.mlir.constant(63 : i32) : i32
// CHECK: %[[SOURCE:.*]] = llvm.and %[[SHIFTED]], %[[LAST]] : i32
// CHECK: %[[C:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %[[MASK]], %{{.*}}, %[[SOURCE]], %[[C]], %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, i32, i64, i64, i32, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK: %[[RLAST:.*]] = llvm.mlir.constant(63 : i32) : i32
// CHECK: %[[RSOURCE:.*]] = llvm.and %{{.*}}, %[[RLAST]] : i32
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[RSOURCE]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: llvm.mlir.constant(1055 : i32) : i32
// CHECK: %[[LANE:.*]] = llvm.trunc %{{.*}} : i64 to i32
// CHECK: %[[XORED:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
// CHECK: %[[HALF:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[UPPER:.*]] = llvm.and %[[LANE]], %[[HALF]] : i32
// CHECK: %[[SWSOURCE:.*]] = llvm.or %[[UPPER]], %[[XORED]] : i32
// CHECK: llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SWSOURCE]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[BALLOT:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK: %[[B64:.*]] = llvm.call %{{.*}}(%{{.*}}, %[[BALLOT]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: llvm.trunc %[[B64]]
// CHECK: %[[B32:.*]] = llvm.call %{{.*}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : !llvm.ptr, (!llvm.ptr, i32, i64, i64, i32, i32, !llvm.ptr, !llvm.ptr) -> i64
// CHECK: llvm.trunc %[[B32]] : i64 to i32
// CHECK: llvm.mlir.constant(64 : i32) : i32
// CHECK: llvm.store %[[B64]], %{{.*}} : i64, !llvm.ptr
// CHECK: llvm.mlir.global private constant @__gpumem_cpu_kernels
// CHECK: %[[WARP:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK: llvm.insertvalue %[[WARP]], %{{.*}}[15]
gpu.module @wave64 [#rocdl.target<chip = "gfx90a">] {
  llvm.func @k(%n: i64, %out: !llvm.ptr, %addr: i32, %l: i32, %p: i1) attributes {gpu.kernel, rocdl.kernel} {
    %buffer = llvm.alloca %n x f32 : (i64) -> !llvm.ptr<5>
    %v = llvm.load %out : !llvm.ptr -> i32
    %a = rocdl.ds_bpermute %addr, %v : (i32, i32) -> i32
    %b = rocdl.readlane %v, %l : (i32, i32) -> i32
    %bitmask = llvm.mlir.constant(0x041F : i32) : i32
    %c = rocdl.ds_swizzle %v, %bitmask : (i32, i32) -> i32
    %d = rocdl.ballot %p : i64
    %e = rocdl.ballot %p : i32
    %size = rocdl.wavefrontsize : i32
    %ab = llvm.add %a, %b : i32
    %abc = llvm.add %ab, %c : i32
    %abce = llvm.add %abc, %e : i32
    %all = llvm.add %abce, %size : i32
    llvm.store %all, %out : i32, !llvm.ptr
    llvm.store %d, %out : i64, !llvm.ptr
    llvm.return
  }
}

// -----

// A kernel's flat workgroup size bounds its launches (max_threads, field
// 14 of the kernel record); one without it gets the ROCDL translation's
// "1,256", which the AMDGPU backend compiles for.

// CHECK-LABEL: gpu.module @flat_sizes
// CHECK: llvm.mlir.global private constant @__gpumem_cpu_kernels
// CHECK: %[[DEFAULT:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK: llvm.insertvalue %[[DEFAULT]], %{{.*}}[14]
// CHECK: %[[STATED:.*]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK: llvm.insertvalue %[[STATED]], %{{.*}}[14]
gpu.module @flat_sizes [#rocdl.target<chip = "gfx90a">] {
  llvm.func @unbounded() attributes {gpu.kernel, rocdl.kernel} {
    llvm.return
  }
  llvm.func @bounded() attributes {gpu.kernel, rocdl.kernel, rocdl.flat_work_group_size = "1,1024"} {
    llvm.return
  }
}
