//===----------------------------------------------------------------------===//
// The gpumem passes. docs/passes.md is generated from this file
// (`make docs`); a test checks that it is up to date.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_PASSES
#define GPUMEM_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def GPUMemHoistWorkgroupAllocsPass
    : Pass<"gpumem-hoist-workgroup-allocs", "::mlir::ModuleOp"> {
  let summary = "Turn workgroup-space memref.alloc/alloca inside kernels into "
                "real per-block shared memory";
  let description = [{
    Upstream MLIR lowers a `memref.alloca` or `memref.alloc` whose memory
    space is workgroup (`#gpu.address_space<workgroup>` or the integer `3`)
    inside a kernel to a per-thread stack slot or a per-thread device
    `malloc`, then casts the pointer to shared memory: threads never share the
    buffer. This pass gives such allocations CUDA `__shared__` semantics:

    * inside a `gpu.launch` body (before outlining) or a `gpu.func` kernel
      (after outlining), at any depth (loops, conditionals, nested regions),
      the allocation becomes a workgroup attribution of the kernel;
    * inside a device function (a `func.func` or non-kernel `gpu.func` in a
      `gpu.module`, called from kernels), it becomes a `memref.global` in
      workgroup space in that `gpu.module`, read with `memref.get_global`;
    * an allocation executed several times (in a loop, or on every call of a
      device function) is one buffer per block; its contents persist between
      executions, exactly like `__shared__`;
    * the buffer's `memref.dealloc`s are erased;
    * a function outside any `gpu.module` that allocates or takes workgroup
      memory, has been cloned into a `gpu.module` by outlining, and is no
      longer called from host code is erased, so it cannot break the host
      lowering.

    A dynamic-size allocation in a kernel is checked, its deallocs are
    erased and it stays in place: `gpumem-pack-dynamic-workgroup-allocs`
    packs it into dynamic shared memory after outlining.

    Private allocations (`#gpu.address_space<private>`, `5`, or the default
    space) are left alone. The pass reports, at the allocation, a size that
    depends on the thread id, a dynamic size in a device function, a buffer
    that escapes (returned, stored to memory, or passed to an op the pass
    cannot see through), a non-identity layout, and workgroup memory
    allocated in host code.

    Run it both before and after `gpu-kernel-outlining`; it is idempotent.

    Before:
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      scf.for %k = %c0 %cK step %c1 {
        %tile = memref.alloca() : memref<16xf32, 3>
        memref.store %v, %tile[%tx] : memref<16xf32, 3>
        gpu.barrier
      }
      gpu.terminator
    }
    ```
    After:
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1)
               workgroup(%tile : memref<16xf32, 3>) {
      scf.for %k = %c0 %cK step %c1 {
        memref.store %v, %tile[%tx] : memref<16xf32, 3>
        gpu.barrier
      }
      gpu.terminator
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
  let statistics = [
    Statistic<"numAttributions", "num-attributions",
              "Workgroup allocations turned into kernel attributions">,
    Statistic<"numGlobals", "num-globals",
              "Workgroup allocations in device functions turned into "
              "workgroup globals">,
    Statistic<"numErasedHostCopies", "num-erased-host-copies",
              "Host copies of outlined device functions erased">,
  ];
}

def GPUMemCheckLaunchBoundsPass
    : Pass<"gpumem-check-launch-bounds", "::mlir::ModuleOp"> {
  let summary = "Reject launches whose constant grid or block sizes no GPU "
                "accepts";
  let description = [{
    A `gpu.launch` or `gpu.launch_func` whose block or grid sizes are
    constants is checked against the limits every NVIDIA GPU since sm_70
    shares (and the cpu target enforces the same, so a program that runs on
    the CPU also launches on a GPU): at most 1024 threads per block, block
    dimensions of at most 1024 x 1024 x 64, grid dimensions of at most
    2^31-1 x 65535 x 65535, and no size below 1. A violation is an error at
    the launch instead of a run-time launch failure. Sizes known only at run
    time are checked by the runtimes.

    ```mlir
    // error: 'gpu.launch' op asks for blocks of 32 x 33 x 1 = 1056 threads;
    // a block has at most 1024
    gpu.launch blocks(...) in (...) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c33, %sz = %c1)
    ```
  }];
}

def GPUMemCheckDeviceCodePass
    : Pass<"gpumem-check-device-code", "::mlir::ModuleOp"> {
  let summary = "Reject device code no target can lower: ops outside "
                "functions in a gpu.module, globals of non-LLVM types, "
                "allocations in memory spaces they cannot live in";
  let description = [{
    Run first by every pipeline, so that such input is one located error
    instead of a crash or an `LLVM ERROR` deep in a lowering:
    - an op at the top level of the module or of a `gpu.module` that is not
      a symbol (function or global), e.g. a `gpu.barrier` or a
      `memref.alloc` outside any function;
    - an `llvm.mlir.global` whose type is not an LLVM type (an array of
      `index`, which has no size in LLVM IR);
    - in kernels, launch bodies and device functions (docs/memory.md):
      `memref.alloca` must be in private memory (no memory space, `5` or
      `#gpu.address_space<private>`) or workgroup memory (`3` or
      `#gpu.address_space<workgroup>`); `memref.alloc` in device memory
      (no memory space, `1` or `#gpu.address_space<global>`) or workgroup
      memory. Any other space (`2`, `4`, `7`, a global `alloca`, ...) is an
      error: the allocation would silently not be what it looks like.
    - an `llvm.inline_asm` whose assembly string refers to an operand it
      does not have (`$4` with two operands): LLVM's assembly printers
      abort on it.
    - a memref type (of a value, a function's signature or a
      `memref.global`) whose layout is not strided, such as
      `affine_map<(d0) -> (d0 floordiv 2)>`, anywhere; and in host code
      (outside launch bodies, gpu.modules and the functions device code
      calls) a memref type whose memory space is not an integer, such as
      `#gpu.address_space<global>`: the LLVM lowerings convert neither, and
      fail without a location. Each such type is reported once, where it
      first appears (a workgroup allocation in host code is left to
      gpumem-hoist-workgroup-allocs, which says where to allocate it).
    - a function that declares a block or grid size below 1
      (`known_block_size`, `known_grid_size`, `nvvm.maxntid`,
      `nvvm.reqntid`, `nvvm.cluster_dim`): LLVM's NVPTX backend rejects a
      negative one without a location.

    ```mlir
    gpu.launch ... {
      // error: 'memref.alloca' op allocates in memory space 4 inside device
      // code; an alloca is private (no memory space, 5 or
      // #gpu.address_space<private>) or workgroup (3 or
      // #gpu.address_space<workgroup>) memory
      %t = memref.alloca() : memref<16xf32, 4>
    }
    ```
  }];
}

def GPUMemRecordLaunchLocationsPass
    : Pass<"gpumem-record-launch-locations", "::mlir::ModuleOp"> {
  let summary = "Tell the runtime where each gpu.launch_func is in the "
                "source, so that launch errors name it";
  let description = [{
    `mgpuLaunchKernel` knows the kernel but not where the program launched
    it. Before every `gpu.launch_func` in host code this pass calls
    `gpumemLaunchLocation("file:line:col")`, which both runtimes export;
    an error during the launch (a block too large, too much shared memory,
    a divergent barrier, a failed assertion) then ends with
    `gpumem: note: in the launch at file:line:col`.

    ```mlir
    gpu.launch_func @m::@k blocks in (%g, %c1, %c1) threads in (%b, %c1, %c1)
    // becomes
    %where = llvm.mlir.addressof @__gpumem_launch_location_0 : !llvm.ptr
    llvm.call @gpumemLaunchLocation(%where) : (!llvm.ptr) -> ()
    gpu.launch_func @m::@k blocks in (%g, %c1, %c1) threads in (%b, %c1, %c1)
    ```

    With `memory-calls`, `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy`,
    `gpu.memset` and `gpu.host_register` get a call of
    `gpumemMemoryCallLocation` the same way; the cpu runtime names that
    location in the call's errors and remembers where each allocation was
    made (host memory registered) for `--sanitize`'s reports.
  }];
  let options = [
    Option<"memoryCalls", "memory-calls", "bool", /*default=*/"false",
           "Also record the location of gpu.alloc, gpu.dealloc, gpu.memcpy, "
           "gpu.memset and gpu.host_register (for runtimes that export "
           "gpumemMemoryCallLocation: the cpu runtime)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GPUMemLowerGPUCollectivesPass
    : Pass<"gpumem-lower-gpu-collectives", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrite gpu.all_reduce, gpu.subgroup_reduce and "
                "gpu.subgroup_id into shuffles, barriers and id arithmetic";
  let description = [{
    Upstream's NVVM lowering has no pattern for `gpu.subgroup_id` nor for
    most `gpu.subgroup_reduce` ops (clustered ones, or types and operations
    `redux.sync` lacks), and the cpu target lowers none of them. This pass
    applies upstream's GPU rewrite patterns (a subgroup of
    `subgroup-size` lanes, 32-bit shuffles) so that both targets only see
    shuffles, barriers, lane ids and thread ids. Both gpumem pipelines run
    it right after outlining. `gpu.subgroup_size` becomes the subgroup size
    and `gpu.num_subgroups` the block's thread count divided by it, rounded
    up. The size is 32 (an NVIDIA warp) unless a target's differ: the rocm
    target passes its wavefront size, 64 on gfx9, and the vulkan target the
    size it compiles for. `gpu.all_reduce` takes upstream's steps of 32
    lanes with 32-lane subgroups; with any other size each kernel's
    all_reduce is a tree reduction through workgroup memory of its own
    (one slot per thread of the block), which needs no subgroup.

    Before:
    ```mlir
    %sum = gpu.subgroup_reduce add %v : (f32) -> f32
    ```
    After (abridged):
    ```mlir
    %s1, %ok1 = gpu.shuffle xor %v, %c1, %c32 : f32
    %a1 = arith.addf %v, %s1 : f32
    ...
    ```
  }];
  let options = [
    Option<"allReduce", "all-reduce", "bool", /*default=*/"true",
           "Rewrite gpu.all_reduce too (the vulkan target leaves it and "
           "reduces through workgroup memory, independently of the "
           "device's subgroup size)">,
    Option<"subgroupSize", "subgroup-size", "unsigned", /*default=*/"32",
           "Lanes of a subgroup: 32, 64 for AMD wave64, or any power "
           "of two up to 128 (a Vulkan device's)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def GPUMemIntegerFloatAtomicsPass : Pass<"gpumem-integer-float-atomics"> {
  let summary = "Give memref.generic_atomic_rmw on floats an integer "
                "compare-and-swap the LLVM lowering can make";
  let description = [{
    Upstream's memref-to-llvm lowers `memref.generic_atomic_rmw` to a loop
    around `llvm.cmpxchg` on the element type, which LLVM allows only for
    integers and pointers: on `f16`, `bf16`, `f32` or `f64` memrefs the
    lowered module fails to verify. This pass, which the LLVM-based
    pipelines (cpu, cuda, cuda-emu) run before that lowering, makes such an
    op work on an integer view of the same memref (an
    `unrealized_conversion_cast`, which both element types lower to the
    same descriptor and which then disappears), with `arith.bitcast`s
    around the unchanged body.

    Before:
    ```mlir
    %r = memref.generic_atomic_rmw %m[%i] : memref<4xf32> {
    ^bb0(%old: f32):
      %new = arith.maximumf %old, %x : f32
      memref.atomic_yield %new : f32
    }
    ```
    After:
    ```mlir
    %mi = builtin.unrealized_conversion_cast %m : memref<4xf32> to memref<4xi32>
    %ri = memref.generic_atomic_rmw %mi[%i] : memref<4xi32> {
    ^bb0(%oldi: i32):
      %old = arith.bitcast %oldi : i32 to f32
      %new = arith.maximumf %old, %x : f32
      %newi = arith.bitcast %new : f32 to i32
      memref.atomic_yield %newi : i32
    }
    %r = arith.bitcast %ri : i32 to f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUMemLowerSyncMemoryOpsPass
    : Pass<"gpumem-lower-sync-memory-ops", "::mlir::ModuleOp"> {
  let summary = "Give synchronous gpu.alloc, gpu.memcpy, gpu.memset and "
                "gpu.dealloc a stream of their own, and reject the copies "
                "and fills gpu-to-llvm would get wrong";
  let description = [{
    Upstream's gpu-to-llvm lowers only the asynchronous forms of these ops
    (and a synchronous `gpu.alloc host_shared`): a synchronous device
    allocation fails with `unsupported GPU operation: gpu.alloc`, a
    synchronous copy or free with an unrealized cast in the LLVM IR
    translation. This pass rewrites each synchronous one, in host code, into
    its asynchronous form on a fresh stream (`gpu.wait async` on the op's
    own dependencies, if any) that is waited for right after, which has
    exactly the synchronous meaning and which gpu-to-llvm lowers (a stream
    created, the runtime call, the stream synchronized and destroyed).
    `gpu.alloc host_shared` stays synchronous, as upstream lowers it; the
    stream-ordered `gpu.alloc async host_shared`, which upstream rejects
    (managed memory has no stream-ordered allocation), becomes the
    synchronous allocation and a token from `gpu.wait async` on its
    dependencies. Both gpumem pipelines run it first.

    It also reports, at the op, the copies and fills that gpu-to-llvm would
    lower wrongly or not at all: it copies or fills one contiguous block from
    the memref's aligned pointer, ignoring offsets and strides, so both sides
    of a `gpu.memcpy` and the destination of a `gpu.memset` must have the
    identity layout; and `gpu.memset` fills 16- or 32-bit elements only.
    Static shapes and element types are checked by the ops' verifiers;
    dynamic sizes are not checked (the copy moves the source's bytes).

    Before:
    ```mlir
    %d = gpu.alloc () : memref<8xf32>
    gpu.memcpy %d, %h : memref<8xf32>, memref<8xf32>
    %m, %t = gpu.alloc async [%dep] host_shared () : memref<8xf32>
    ```
    After:
    ```mlir
    %0 = gpu.wait async
    %d, %1 = gpu.alloc async [%0] () : memref<8xf32>
    gpu.wait [%1]
    %2 = gpu.wait async
    %3 = gpu.memcpy async [%2] %d, %h : memref<8xf32>, memref<8xf32>
    gpu.wait [%3]
    %m = gpu.alloc host_shared () : memref<8xf32>
    %t = gpu.wait async [%dep]
    ```

    ```mlir
    // error: 'gpu.memcpy' op copies a contiguous block from the start of
    // each memref, so the destination must have the identity layout, not
    // 'memref<4xf32, strided<[1], offset: 4>>'
    gpu.memcpy %view, %h : memref<4xf32, strided<[1], offset: 4>>, memref<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def GPUMemJoinAsyncDependenciesPass
    : Pass<"gpumem-join-async-dependencies", "::mlir::ModuleOp"> {
  let summary = "Give every asynchronous gpu op in host code exactly one "
                "dependency, as gpu-to-llvm needs";
  let description = [{
    Upstream's gpu-to-llvm lowers an asynchronous `gpu.alloc`, `gpu.dealloc`,
    `gpu.memcpy`, `gpu.memset` or `gpu.launch_func` only when it has exactly
    one async dependency (the stream it runs on). With none, or with
    several, the op is left unlowered and compiling fails with
    `unsupported GPU operation` or `failed to legalize operation`, although
    the program is valid. This pass gives such an op one dependency:
    `gpu.wait async` on its dependencies, which is a fresh stream that waits
    for all of them (none: it starts at once). That is the op's meaning:
    it runs after its dependencies and orders nothing else. A synchronous
    `gpu.launch` or `gpu.launch_func` with dependencies waits for them
    first (`gpu.wait`) and keeps none. It runs on `gpu.launch` as well, so
    outlining passes the single dependency on; `gpu.wait` takes any number
    and is left alone, and so is device code.

    Before:
    ```mlir
    %m, %t = gpu.alloc async () : memref<4xf32>
    %u = gpu.memcpy async [%t, %other] %h, %m : memref<4xf32>, memref<4xf32>
    ```
    After:
    ```mlir
    %0 = gpu.wait async
    %m, %t = gpu.alloc async [%0] () : memref<4xf32>
    %1 = gpu.wait async [%t, %other]
    %u = gpu.memcpy async [%1] %h, %m : memref<4xf32>, memref<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def GPUMemCheckMemcpySizesPass
    : Pass<"gpumem-check-memcpy-sizes", "::mlir::ModuleOp"> {
  let summary = "Stop a program whose gpu.memcpy copies between buffers of "
                "different run-time sizes";
  let description = [{
    Upstream's verifier rejects a `gpu.memcpy` between different static
    shapes; with a dynamic dimension on either side the sizes are compared
    only at run time, and `gpu-to-llvm` copies as many bytes as the source
    holds, so a smaller destination overflows silently. Before every such
    copy in host code this pass compares the sizes in bytes (from
    `memref.dim`) and, when they differ, calls the runtimes'
    `gpumemMemcpySizeMismatch`, which stops the program:

    ```
    gpumem: error: gpu.memcpy at prog.mlir:12:3 copies 32 bytes into a buffer of 16 bytes: the sizes must match
    ```

    Copies between static shapes are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUMemLowerVectorTransfersPass
    : Pass<"gpumem-lower-vector-transfers", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrite vector transfers in a gpu.module into vector loads "
                "and stores, which the NVVM lowering converts and the "
                "sanitizer instruments";
  let description = [{
    Upstream's `convert-gpu-to-nvvm` converts `vector.load`, `vector.store`
    and their masked forms with its memory-space-aware type converter, but
    not `vector.transfer_read`/`transfer_write`, which only
    `convert-vector-to-llvm` rewrites; run on the whole module that pass
    converts workgroup memrefs without the GPU memory space mapping, and
    translation fails; and the cpu target's `--sanitize` instruments loads
    and stores, not transfers. This pass gives transfers that may run out of
    bounds an explicit mask and rewrites 1-D transfers into (masked) loads
    and stores, on any memory space: before the NVVM lowering, and before
    the cpu target's sanitizer instrumentation.

    ```mlir
    %v = vector.transfer_read %s[%i], %pad : memref<16xi32, 3>, vector<2xi32>
    // becomes
    %n = ... // elements of %s from %i on, at most 2
    %m = arith.cmpi slt, [0, 1], %n : vector<2xi32>
    %v = vector.maskedload %s[%i], %m, splat(%pad) : ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUMemCheckDynamicSharedBoundsPass
    : Pass<"gpumem-check-dynamic-shared-bounds", "::mlir::ModuleOp"> {
  let summary = "Reject views of gpu.dynamic_shared_memory that reach past "
                "the constant size a launch passes";
  let description = [{
    For every `gpu.launch` or `gpu.launch_func` whose dynamic shared memory
    size is a constant (no size is 0 bytes), every view of
    `gpu.dynamic_shared_memory` in the launch body or kernel with constant
    bounds (`memref.view` with a
    constant byte offset and a static shape, `memref.subview` and
    `memref.reinterpret_cast` with static offsets, sizes and strides) must
    lie within those bytes; one that does not is an error at the view, with
    a note at the launch. Views whose bounds are not constant are left to
    run time. The pipelines run it before outlining (host constants are
    still visible in launch bodies) and after.

    ```mlir
    // error: 'memref.view' op reads bytes [0, 4096) of dynamic shared memory,
    // but the launch passes only 1024 bytes
    %v = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
                                   to memref<1024xf32, #gpu.address_space<workgroup>>
    ```
  }];
}

def GPUMemInsertDynamicSharedBoundsChecksPass
    : Pass<"gpumem-insert-dynamic-shared-bounds-checks",
           "::mlir::gpu::GPUModuleOp"> {
  let summary = "Check every view of gpu.dynamic_shared_memory against the "
                "launch's size at run time";
  let description = [{
    Opt-in run-time companion of `gpumem-check-dynamic-shared-bounds`
    (pipeline option `dynamic-shared-bounds-checks`, `gpumem-run` and
    `gpumem-compile` flag `--check-dynamic-shared-bounds`). Before every
    `memref.view`, `memref.subview` or `memref.reinterpret_cast` of a
    `gpu.dynamic_shared_memory`, the thread computes the bytes the view can
    address and compares them with `memref.dim` of the dynamic shared memory
    (the bytes the launch passed). Out of bounds, it prints

    ```
    gpumem: error: kernel 'k': view of dynamic shared memory at byte offset 64, size 4096 bytes, is past the 1024 bytes the launch passed
    ```

    and fails a `cf.assert` at the view's location ("view of dynamic shared
    memory out of bounds"), which stops the program with a non-zero exit on
    both targets. Each failing thread prints the line. Run it after
    outlining and before `gpumem-pack-dynamic-workgroup-allocs` and
    `gpumem-move-large-shared-to-dynamic`, so that it checks only the user's
    views, against the user's bytes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let statistics = [
    Statistic<"numChecks", "checks", "Views checked at run time">,
  ];
}

def GPUMemPackDynamicWorkgroupAllocsPass
    : Pass<"gpumem-pack-dynamic-workgroup-allocs", "::mlir::ModuleOp"> {
  let summary = "Pack dynamic-size workgroup allocations of kernels into "
                "dynamic shared memory, sized on the host at each launch";
  let description = [{
    A `memref.alloc(%n)` or `memref.alloca(%n)` in workgroup space inside an
    outlined kernel (left in place by `gpumem-hoist-workgroup-allocs`) gets
    one buffer per block, like a static one, carved out of the kernel's
    dynamic shared memory:

    * the ops that compute the sizes must be free of memory effects and end
      at kernel arguments, constants, `gpu.block_dim` or `gpu.grid_dim`; a
      size that depends on the thread id, the block id, a load inside the
      kernel or a loop variable is a located error;
    * the buffers follow the launch's own dynamic shared memory bytes (the
      user's bytes come first), in program order, each at
      an offset aligned to 16 bytes or its element's alignment (or the
      allocation's `alignment` when larger), after every earlier buffer
      whose live range meets its own (as `gpumem-plan-workgroup-memory`
      computes them): buffers live at different times share bytes, and a
      barrier is inserted where reuse needs one and the kernel has none
      (`reuse=false`: after every earlier buffer);
    * the kernel gets a trailing `index` argument, the launch's own dynamic
      shared memory bytes, and each allocation becomes a `memref.view` of
      `gpu.dynamic_shared_memory` at its offset (offsets computed at the
      kernel's entry); deallocs are erased; `memref.dim` of the user's
      `gpu.dynamic_shared_memory` returns that argument, the user's bytes;
    * every `gpu.launch_func` of the kernel in the module computes the same
      layout on the host from its own operands (kernel arguments, block and
      grid sizes), passes its own bytes as the new argument, and the total
      as its dynamic shared memory size (clamped to 2^31-1 so that the runtime reports an
      oversized launch instead of wrapping it). Launchers outside the module
      must do the same (docs/workgroup-memory.md).

    Before:
    ```mlir
    gpu.func @k(%n: index) kernel {
      %a = memref.alloca(%n) : memref<?xi32, #gpu.address_space<workgroup>>
      %b = memref.alloca(%n) : memref<?xi64, #gpu.address_space<workgroup>>
      ...
    }
    gpu.launch_func @m::@k blocks in (...) threads in (...) args(%n : index)
    ```
    After:
    ```mlir
    gpu.func @k(%n: index, %user_bytes: index) kernel {
      // %a at align16(%user_bytes), %b at align16(%a's offset + 4 * %n)
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %a = memref.view %dyn[%offa][%n] : ... to memref<?xi32, #gpu.address_space<workgroup>>
      %b = memref.view %dyn[%offb][%n] : ... to memref<?xi64, #gpu.address_space<workgroup>>
      ...
    }
    // on the host: the same arithmetic from the launch's operands
    gpu.launch_func @m::@k blocks in (...) threads in (...)
        dynamic_shared_memory_size %total args(%n : index, %c0 : index)
    // (%c0: this launch passed no bytes of its own)
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"reuse", "reuse", "bool", /*default=*/"true",
           "Let buffers whose live ranges are disjoint share bytes">,
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Kernels with dynamic-size buffers">,
    Statistic<"numBuffers", "buffers", "Dynamic-size buffers packed">,
    Statistic<"numBarriers", "barriers", "Barriers inserted for reuse">,
  ];
}

def GPUMemPlanWorkgroupMemoryPass
    : Pass<"gpumem-plan-workgroup-memory", "::mlir::ModuleOp"> {
  let summary = "Give workgroup buffers whose live ranges are disjoint the "
                "same bytes, with the barriers reuse needs, and report every "
                "kernel's layout";
  let description = [{
    After hoisting every workgroup buffer of a kernel is an attribution that
    holds its own bytes for the whole kernel. This pass computes each
    static buffer's live range over the kernel's structured control flow
    (uses through views, casts and device-function calls; widened to a
    whole loop, since contents persist across iterations, and to a whole
    branch without a barrier, whose threads may diverge) and places buffers
    whose ranges are disjoint in the same bytes, first fit, so that the
    kernel's static bytes are the most that is live at any program point
    (each buffer aligned to 16 bytes).

    Reuse is safe: where one buffer's bytes pass to another, a `gpu.barrier`
    must separate the last uses of the first from the first uses of the
    second in the same block, outside loops and divergent branches. An
    existing barrier there is used; else one is inserted before the second
    buffer's first use. Two buffers that no barrier can separate keep
    separate bytes.

    A kernel whose plan saves bytes gets one `i8` workgroup attribution for
    its planned buffers, which become `memref.view`s of it at their offsets;
    other kernels are left as they are. With `byte-views=false` (the vulkan
    target, whose logical SPIR-V cannot view one workgroup array as
    another type) only buffers of the same type share, by becoming one
    attribution. Kernels with unstructured control
    flow keep one buffer after the other. `reuse=false` plans nothing.

    With `report=text` or `report=json` the pass writes, for every kernel,
    each buffer's location, type, bytes, alignment, offset, live range and
    the buffers it shares bytes with, the static totals (planned, lower
    bound, without reuse), dynamic buffers, inserted barriers, the limit,
    and on an NVIDIA `chip` the blocks per SM that shared memory allows.
    `svg` names a file for a picture of the layouts.

    With a `limit` and no `chip` (the cpu and vulkan targets), or with
    `target=rocm` (or `rocm-emu`) and an AMD `chip` (its LDS per workgroup:
    64 KiB, 160 KiB on gfx950; an NVIDIA chip's limit is
    gpumem-move-large-shared-to-dynamic's), a kernel whose
    planned static bytes, plus a launch's dynamic shared memory size when
    it is a constant, exceed the limit is an error at that launch, with a
    note at the kernel's largest buffer; sizes known only at run time are
    the runtime's to check.

    ```mlir
    gpu.func @k() workgroup(%a : memref<256xf32, 3>, %b : memref<256xf32, 3>) kernel {
      ... uses of %a ...
      gpu.barrier
      ... uses of %b ...
    }
    // becomes
    gpu.func @k() workgroup(%arena : memref<1024xi8, #gpu.address_space<workgroup>>) kernel {
      %a = memref.view %arena[%c0][] ... to memref<256xf32, #gpu.address_space<workgroup>>
      %b = memref.view %arena[%c0][] ... to memref<256xf32, #gpu.address_space<workgroup>>
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"reuse", "reuse", "bool", /*default=*/"true",
           "Let buffers with disjoint live ranges share bytes">,
    Option<"byteViews", "byte-views", "bool", /*default=*/"true",
           "Share bytes through views of one i8 buffer; false: only "
           "buffers of the same type share, by becoming one buffer (for "
           "targets whose workgroup memory is typed: vulkan)">,
    Option<"insertBarriers", "barriers", "bool", /*default=*/"true",
           "Insert the barriers reuse needs (false only to show, in tests, "
           "that they are needed)">,
    Option<"report", "report", "::gpumem::ReportFormat",
           /*default=*/"::gpumem::ReportFormat::None",
           "Write a report of every kernel's plan: text or json",
           [{::llvm::cl::values(
             clEnumValN(::gpumem::ReportFormat::None, "", "no report"),
             clEnumValN(::gpumem::ReportFormat::Text, "text", "text"),
             clEnumValN(::gpumem::ReportFormat::JSON, "json", "JSON"))}]>,
    Option<"reportFile", "report-file", "std::string", /*default=*/"\"-\"",
           "Where the report goes: a file, or - for stderr">,
    Option<"svgFile", "svg", "std::string", /*default=*/"\"\"",
           "Write a picture of every kernel's layout to this SVG file">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "NVIDIA chip whose limits and occupancy the report gives, or "
           "with target=rocm the AMD chip whose LDS limit applies">,
    Option<"targetName", "target", "std::string", /*default=*/"\"\"",
           "Target named in the report">,
    Option<"limit", "limit", "uint64_t", /*default=*/"0",
           "Workgroup memory of a block at most, when no chip is named (0: "
           "none): in the report, and a launch whose static bytes (plus "
           "its dynamic bytes when constant) exceed it is an error">,
  ];
  let statistics = [
    Statistic<"numPlanned", "kernels", "Kernels whose buffers share bytes">,
    Statistic<"numBarriers", "barriers", "Barriers inserted for reuse">,
    Statistic<"numSavedBytes", "saved-bytes",
              "Static workgroup bytes saved by reuse">,
  ];
}

def GPUMemHostBuffersToDevicePass
    : Pass<"gpumem-host-buffers-to-device", "::mlir::ModuleOp"> {
  let summary = "Make host memrefs that kernels use usable on the device: "
                "copies, managed memory or host registration";
  let description = [{
    A kernel cannot dereference ordinary host memory on a GPU: a
    `memref.alloc` or `memref.alloca` in host code, a function argument or a
    `memref.get_global` used inside a `gpu.launch` body (or passed to a
    `gpu.launch_func`) faults there. This pass makes every such host buffer
    (default memory space, traced through views to its root) device-visible,
    in one of three modes:

    * `copy` (default): a device buffer (`gpu.alloc`, dynamic sizes from
      `memref.dim`) per run of launches with no host access to the buffer
      between them (in one block; a loop or conditional whose launches use
      the buffer with no host access inside counts as a launch). It is copied
      in before the first launch (unless the buffer was just allocated and
      never touched) and copied out after the last one when a kernel may
      write it, then freed. Read and write come from MemoryEffectOpInterface
      on the kernel's uses; anything else (a call) is read and write. A
      buffer a kernel only writes is still copied in, so elements the kernel
      does not write keep their values. An asynchronous launch gets its own
      device buffer, with the copies chained to its tokens.
    * `managed`: a `memref.alloc` whose uses are views, memory accesses,
      calls, launches and `memref.dealloc` becomes `gpu.alloc host_shared`
      (its deallocs `gpu.dealloc`), shared by host and kernels without
      copies; every other buffer is handled as in `copy` mode.
    * `register`: `gpu.host_register` after the buffer's definition (at
      function entry for arguments and globals), `gpu.host_unregister`
      before its `memref.dealloc` or at the end of its block or function.
      Registered allocations and globals get a 4096-byte alignment.
      Constant globals are copied instead.

    Left alone: memory from `gpu.alloc` or `gpumem.alloc_managed`, memrefs in
    any non-default memory space (workgroup, private, global), and buffers
    the function already passes to `gpu.host_register`. Copy mode cannot copy
    an unranked buffer or one with a non-strided layout: that is an error at
    the launch. The synchronous `gpu.alloc`/`gpu.memcpy`/`gpu.dealloc` it
    makes are lowered by `gpumem-lower-sync-memory-ops`. `docs/memory.md`
    has the rules and the reasons.

    Before:
    ```mlir
    %a = memref.alloc(%n) : memref<?xf32>
    // ... host writes %a ...
    gpu.launch blocks(...) in (...) threads(...) in (...) {
      %x = memref.load %a[%tx] : memref<?xf32>
      memref.store %y, %a[%tx] : memref<?xf32>
      gpu.terminator
    }
    gpu.launch blocks(...) in (...) threads(...) in (...) {
      %x = memref.load %a[%tx] : memref<?xf32>
      gpu.terminator
    }
    ```
    After (`mode=copy`):
    ```mlir
    %dim = memref.dim %a, %c0 : memref<?xf32>
    %d = gpu.alloc (%dim) : memref<?xf32>
    gpu.memcpy %d, %a : memref<?xf32>, memref<?xf32>
    gpu.launch blocks(...) in (...) threads(...) in (...) {
      %x = memref.load %d[%tx] : memref<?xf32>
      memref.store %y, %d[%tx] : memref<?xf32>
      gpu.terminator
    }
    gpu.launch blocks(...) in (...) threads(...) in (...) {
      %x = memref.load %d[%tx] : memref<?xf32>
      gpu.terminator
    }
    gpu.memcpy %a, %d : memref<?xf32>, memref<?xf32>
    gpu.dealloc %d : memref<?xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"mode", "mode", "::gpumem::HostBufferMode",
           /*default=*/"::gpumem::HostBufferMode::Copy",
           "How host buffers reach kernels: copy, managed, register or none (nothing)",
           [{::llvm::cl::values(
             clEnumValN(::gpumem::HostBufferMode::Copy, "copy",
                        "device buffers and copies"),
             clEnumValN(::gpumem::HostBufferMode::Managed, "managed",
                        "managed memory"),
             clEnumValN(::gpumem::HostBufferMode::Register, "register",
                        "host registration"),
             clEnumValN(::gpumem::HostBufferMode::None, "none", "nothing"))}]>,
  ];
  let statistics = [
    Statistic<"numDeviceBuffers", "device-buffers",
              "Device buffers allocated for host buffers (copy mode)">,
    Statistic<"numCopiesIn", "copies-in", "Copies host to device">,
    Statistic<"numCopiesOut", "copies-out", "Copies device to host">,
    Statistic<"numManaged", "managed",
              "Host allocations turned into managed allocations">,
    Statistic<"numRegistered", "registered", "Host buffers registered">,
  ];
}

def GPUMemTrackHostWritesPass
    : Pass<"gpumem-track-host-writes", "::mlir::ModuleOp"> {
  let summary = "With --sanitize=initcheck, report the host's writes of "
                "managed and registered host memory to the runtime";
  let description = [{
    The host reads and writes memory from `gpu.alloc host_shared` directly,
    unseen by the runtime, whose initcheck therefore counts every byte of it
    as written. This pass makes the host's writes seen where it can see
    them all: for each `gpu.alloc host_shared` in host code whose memref
    (and every view of it) goes only to loads, stores, views, `memref.dim`,
    `gpu.launch_func`, `gpu.memcpy`, `gpu.memset`, `gpu.dealloc` and
    `printMemref*` calls, it calls `gpumemMemHostWritesTracked(allocation)`
    right after the allocation (its bytes start as never written), and
    `gpumemMemHostWrote(address, bytes)` before each `memref.store`,
    `vector.store` and atomic of host code into it. A kernel's read of bytes
    nothing wrote is then reported as on device memory. An allocation whose
    memref goes anywhere else (a function call, `memref.copy`, a linalg op)
    is left alone: a write the pass cannot see must not become a false
    report. Only the cpu runtime defines these functions (cpu, cuda-emu
    and rocm-emu; initcheck runs there only).

    Host memory a kernel uses in place (`gpu.host_register`) is written by
    the host before its registration, when the runtime has no shadow for
    it yet. For each `memref.alloc` or `memref.alloca` of host code whose
    memref (or a view of it, ranked or not) reaches a `gpu.host_register`,
    with the same visible uses plus `gpu.host_register`,
    `gpu.host_unregister` and `memref.dealloc`, and whose launches, copies
    and fills all come after a registration (dominated by one), the pass
    calls `gpumemMemHostBufferTracked(buffer, bytes)` after the allocation,
    `gpumemMemHostWrote` before each host store and
    `gpumemMemHostBufferFreed(buffer)` before each `memref.dealloc`: the
    runtime keeps the ranges the host wrote, and the registration's shadow
    counts only those as written.

    ```mlir
    %m = gpu.alloc host_shared () : memref<8xf32>
    memref.store %v, %m[%i] : memref<8xf32>
    // becomes
    %m = gpu.alloc host_shared () : memref<8xf32>
    func.call @gpumemMemHostWritesTracked(%base) : (index) -> ()
    func.call @gpumemMemHostWrote(%address, %c4) : (index, index) -> ()
    memref.store %v, %m[%i] : memref<8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUMemCheckHostMemRefAccessesPass
    : Pass<"gpumem-check-host-memref-accesses", "::mlir::ModuleOp"> {
  let summary = "With --sanitize=memcheck, check the host code's memref "
                "accesses against their memref's bounds";
  let description = [{
    Host code is MLIR too, and a host loop that writes past a
    `memref.alloc` corrupts the host heap (glibc aborts later, or nothing
    says so at all). With memcheck, every `memref.load`, `memref.store`,
    `vector.load` and `vector.store` of host code (outside gpu.modules) on
    a ranked memref runs only when each index is inside its dimension (for
    a vector access, the whole vector along the last one). Otherwise it is
    skipped (a load gives zero) and `gpumemMemHostAccessError(what,
    location, dimension, index, size)` reports it as a kernel's access is
    reported, `in host code` where a kernel would be named, once per site
    and counted in the summary that fails the program at exit.

    ```mlir
    memref.store %v, %m[%i] : memref<8xf32>
    // becomes
    %ok = arith.cmpi ult, %i, %c8 : index
    scf.if %ok {
      memref.store %v, %m[%i] : memref<8xf32>
    } else {
      llvm.call @gpumemMemHostAccessError(%what, %at, %c0_i64, %i_i64, %c8_i64)
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // GPUMEM_TRANSFORMS_PASSES
