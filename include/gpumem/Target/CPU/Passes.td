//===----------------------------------------------------------------------===//
// The cpu target's passes: kernels lowered to host code with GPU semantics
// (docs/cpu-runtime.md), run by runtime/cpu.
// docs/passes.md is generated from this file and its siblings.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_CPU_PASSES
#define GPUMEM_TARGET_CPU_PASSES

include "mlir/Pass/PassBase.td"

def GPUMemAttachCPUTargetPass
    : Pass<"gpumem-attach-cpu-target", "::mlir::ModuleOp"> {
  let summary = "Attach gpumem's cpu target to every gpu.module";
  let description = [{
    Makes every gpu.module without a target compile for the host CPU
    (`#gpumem.cpu`): gpu-module-to-binary then embeds a host shared object
    that gpumem's CPU runtime runs. A gpu.module already made for another
    GPU (an `#nvvm.target`, say) is an error: it would become an object the
    CPU runtime cannot load.

    Before:
    ```mlir
    gpu.module @kernels { ... }
    ```
    After:
    ```mlir
    gpu.module @kernels [#gpumem.cpu<O = 2>] { ... }
    ```
  }];
  let dependentDialects = ["::gpumem::GPUMemDialect"];
  let options = [
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"2",
           "LLVM optimization level of the kernels, 0 to 3">,
    Option<"cpu", "cpu", "std::string", /*default=*/"\"\"",
           "Host CPU to compile for; empty: this machine's">,
  ];
}

def GPUMemLowerGPUToCPUABIPass
    : Pass<"gpumem-lower-gpu-to-cpu-abi", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrite a gpu.module's kernels into host functions that "
                "follow gpumem's CPU kernel ABI";
  let description = [{
    The first half of the `cpu` target's device lowering (the ABI is
    include/gpumem/Runtime/CPUKernelABI.h). Every function gets a trailing
    `!llvm.ptr` thread-context argument. A kernel `K` becomes
    `__gpumem_kernel_K` plus wrappers `__gpumem_run_thread_K` (one thread)
    and, when the kernel uses no barrier or warp operation,
    `__gpumem_run_blocks_K` (a loop over a range of blocks, and over each
    block's threads), which unpack `mgpuLaunchKernel`'s parameter array; `K` stays as an empty stub for the
    host's `gpu.launch_func` to verify against. Thread, block and lane ids
    and dims are loads from the context; `gpu.barrier`, `gpu.shuffle` and a
    failed `cf.assert` call runtime services through the context;
    `gpu.printf` calls libc's `printf`; workgroup attributions, workgroup
    globals and `gpu.dynamic_shared_memory` are views of the block's arena.
    `gpu.all_reduce`, `gpu.subgroup_reduce` and `gpu.subgroup_id` must have
    been rewritten by `gpumem-lower-gpu-collectives` (the pipeline does).
    Any other GPU-specific op is an error.

    `run_blocks`' context argument is `llvm.noalias` (nothing else touches
    the context while its blocks run), so LLVM keeps thread ids in registers
    and vectorizes the thread loops; it stores each block's id into the
    context with relaxed atomic stores, which LLVM keeps in the loop, so
    that a fault report names the block. A kernel with `known_block_size` has
    constant thread loops and `gpu.block_dim` values, and its kernel table
    entry records the size, which the runtime checks at each launch. A
    kernel that may reach a `cf.assert` gets no `run_blocks` and no
    fissioned copy: a thread that fails an assert stops alone (the
    service gets CUDA's file, line and function).

    A kernel whose barriers all sit in block-uniform structured control flow
    also gets `__gpumem_kernel_block_K`, a copy split at its barriers into
    loops over the block's threads (thread-loop fission, values crossing a
    barrier kept in per-thread arrays); its `run_blocks` calls that copy and
    the kernel runs without fibers. A barrier-free loop with the same
    bounds in every thread, whose accesses are equal or consecutive across
    x (a tile product's loop over k), runs once per block around the
    thread loops, so that the loop over x is innermost and vectorizes (a
    loop that carries a small vector, a tensor-core accumulator, does too,
    so that the threads' FMA chains overlap); it
    stays inside the thread loop when it prints, calls, uses atomics, or
    under `phase-markers`. A kernel without barriers that has such a loop
    gets the block-wide copy too. Thread ids, and pure arithmetic on them,
    are computed again in each segment that uses them rather than kept in
    per-thread arrays. Divergent barriers, shuffles, private
    memory and calls into functions with barriers keep fibers. Option
    `fission=false` keeps fibers for every kernel with barriers; option
    `phase-markers` makes the copy call the runtime's `blockPhase` service
    where each barrier was (for `--sanitize`'s racecheck, which counts
    barrier phases).

    Before:
    ```mlir
    gpu.func @k(%out: memref<32xf32>) workgroup(%t : memref<32xf32, 3>) kernel {
      %tx = gpu.thread_id x
      gpu.barrier
      gpu.return
    }
    ```
    After (abridged):
    ```mlir
    func.func private @__gpumem_run_thread_k(%params: !llvm.ptr, %ctx: !llvm.ptr)
    gpu.func @k(%out: memref<32xf32>) kernel { gpu.return }
    func.func private @__gpumem_kernel_k(%out: memref<32xf32>, %ctx: !llvm.ptr) {
      %t = ... view of the arena at offset 0 ...
      %tx = llvm.load ... : i64        // ctx->threadId[0]
      llvm.call %barrier(%ctx, %where) // ctx->services->barrier
      return
    }
    ```
  }];
  let options = [
    Option<"fission", "fission", "bool", /*default=*/"true",
           "Give kernels with block-uniform barriers a barrier-free "
           "block-wide copy (thread-loop fission)">,
    Option<"phaseMarkers", "phase-markers", "bool", /*default=*/"false",
           "In the block-wide copy, call the blockPhase service where each "
           "barrier was">,
    Option<"wholeFragments", "whole-fragments", "bool", /*default=*/"false",
           "Every lane's A and B tensor-core fragments hold the whole "
           "matrices (for --sanitize, which then checks each lane's access "
           "to the warp's whole tile); else a lane holds the row of A and "
           "the columns of B its share of C needs">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUMemSanitizeMemoryAccessesPass
    : Pass<"gpumem-sanitize-memory-accesses", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Instrument a gpu.module's memref accesses for --sanitize "
                "(bounds, races, uninitialized reads) on the cpu, cuda-emu "
                "and rocm-emu targets";
  let description = [{
    Each `memref.load`, `memref.store`, `memref.atomic_rmw`,
    `memref.generic_atomic_rmw`, `vector.load` and `vector.store`, in any
    memory space (device, workgroup, private, views and device-function
    arguments alike), runs only when every index is inside its dimension
    (for vectors, every element); otherwise the thread calls the runtime's
    `accessError` service once per dimension out of bounds, with the
    access's description, its `file:line:col`, the dimension, the index and
    the size, and the access is skipped (a load gives zero). The runtime
    reports and counts the errors, and the program then fails
    (docs/sanitizer.md). With racecheck or initcheck, each access of
    workgroup memory first calls the `sharedAccess` service, and each other
    access but those of private memory `deviceAccess`, with its address,
    size and kind; the runtime compares them with its shadows.

    On the cpu target it runs after `gpumem-lower-gpu-to-cpu-abi`, on
    functions that take the thread context, and records the checks in the
    module's kernel table for the runtime, which makes synccheck's itself.
    With `before-device-lowering` (cuda-emu, rocm-emu) it runs before the
    NVVM or ROCDL lowering: the services are calls of
    `__gpumem_sanitizer_*` functions, which the lowering to host code binds
    to them, and each instrumented access's location is marked for the
    checks by address to check only where its address lies.

    On the cpu target, with memcheck, each block of a launch wrapper that
    runs without fibers first evaluates, once, the ranges of the kernel's
    indices over the whole block (thread and block ids, scalar arguments,
    loop induction variables through affine arithmetic); when every
    provable access is inside its memref and no memref argument lies in
    freed memory, the block runs a copy of the kernel whose proved accesses
    are not checked (`version-blocks`).
  }];
  let options = [
    Option<"checks", "checks", "::gpumem::SanitizerChecks",
           /*default=*/"::gpumem::SanitizerChecks{GPUMEM_CHECK_MEMCHECK}",
           "The checks to compile in, comma-separated: memcheck, racecheck, "
           "initcheck, synccheck (recorded for the runtime, which makes "
           "that check)">,
    Option<"beforeDeviceLowering", "before-device-lowering", "bool",
           /*default=*/"false",
           "Call the services through __gpumem_sanitizer_* functions, before "
           "a GPU dialect's lowering, rather than through the thread context">,
    Option<"versionBlocks", "version-blocks", "bool", /*default=*/"true",
           "On the cpu target with memcheck, run a copy of the kernel without "
           "the bounds checks of accesses proved inside their memrefs for "
           "the whole block">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUMemFinalizeCPUModulePass
    : Pass<"gpumem-finalize-cpu-module", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Convert a CPU gpu.module to LLVM dialect and emit its "
                "kernel table";
  let description = [{
    The second half of the `cpu` target's device lowering, after
    `gpumem-lower-gpu-to-cpu-abi` and the structural lowering (SCF to CF,
    strided metadata, affine). Converts every op to LLVM dialect with every
    memory space mapped to address space 0, turns kernel stubs into
    `llvm.func`s marked `gpu.kernel`, and emits the exported
    `__gpumem_cpu_module` descriptor the CPU runtime looks up after loading
    the module.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // GPUMEM_TARGET_CPU_PASSES
