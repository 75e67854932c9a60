//===----------------------------------------------------------------------===//
// The cuda-emu target's passes: the NVVM form of the kernels lowered to
// host code with PTX semantics (docs/cuda-emu.md), run by runtime/cpu.
// docs/passes.md is generated from this file and its siblings.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_CUDAEMU_PASSES
#define GPUMEM_TARGET_CUDAEMU_PASSES

include "mlir/Pass/PassBase.td"

def GPUMemLowerNVVMToCPUPass
    : Pass<"gpumem-lower-nvvm-to-cpu", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make a gpu.module in NVVM form host code for the CPU "
                "runtime, with PTX semantics (the cuda-emu target)";
  let description = [{
    The device lowering of the `cuda-emu` target. Its input is a
    `gpu.module` exactly as the cuda pipeline hands it to the NVPTX backend:
    LLVM dialect with NVVM ops, after `convert-gpu-to-nvvm` and gpumem's
    NVIDIA fix-ups. Its output follows the CPU kernel ABI
    (include/gpumem/Runtime/CPUKernelABI.h), so `libgpumem_cpu_runtime.so`
    runs it, with PTX's semantics rather than the `gpu` dialect's:

    - special registers (`%tid`, `%ntid`, `%ctaid`, `%nctaid`, `%laneid`,
      `%warpid`, `%nwarpid`, `%lanemask_*`, `%dynamic_smem_size`,
      `%total_smem_size`, cluster registers of a 1-block cluster) are read
      from the thread context;
    - `nvvm.barrier0`, `nvvm.barrier` (with an id and thread count),
      `nvvm.shfl.sync` (PTX's clamp and segment mask, the member mask
      checked), `nvvm.vote.sync`, `nvvm.redux.sync`, `nvvm.match.sync` and
      `nvvm.bar.warp.sync` call the runtime's PTX services; fences are host
      fences;
    - the tensor-core ops (`nvvm.wmma.load`, `nvvm.wmma.store`,
      `nvvm.wmma.mma`, `nvvm.mma.sync`, `nvvm.ldmatrix`) are one warp-wide
      runtime call each, which computes the warp's result with the PTX
      ISA's per-lane fragment layouts; `nvvm.cp.async.shared.global`, its
      commit and its wait record copies that the runtime performs at the
      wait that covers them;
    - `vprintf` and `__assertfail` behave as CUDA's; libdevice's `__nv_*`
      math functions become libm's;
    - every `addrspace(3)` global gets its own offset and alignment in the
      block's shared arena, the `extern` array follows them; address spaces
      are erased.

    Anything else NVVM-specific (tensor-core ops of other shapes or types,
    TMA, mbarriers, inline PTX, other `llvm.nvvm.*` intrinsics) is a
    located error. Each kernel `K` becomes
    `__gpumem_kernel_K` and `__gpumem_run_thread_K`; `K` stays an empty
    stub, and the module exports its kernel table with the chip (from the
    module's `#nvvm.target`) and its shared memory limit, which the runtime
    enforces at launch with the cuda runtime's messages. The module's
    targets are removed: `gpumem-attach-cpu-target` gives it `#gpumem.cpu`.

    Before:
    ```mlir
    gpu.module @m [#nvvm.target<chip = "sm_90">] {
      llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
        %0 = nvvm.read.ptx.sreg.tid.x : i32
        nvvm.barrier0
        llvm.return
      }
    }
    ```
    After (abridged):
    ```mlir
    gpu.module @m {
      llvm.func internal @__gpumem_kernel_k(%ctx: !llvm.ptr) {
        %0 = llvm.load ... : !llvm.ptr -> i64   // ctx->threadId[0]
        llvm.call %barrier(%ctx, %where)        // ctx->services->barrier
        llvm.return
      }
      llvm.func @k() attributes {gpu.kernel} { llvm.return }
      llvm.func internal @__gpumem_run_thread_k(%params: !llvm.ptr, %ctx: !llvm.ptr)
      llvm.mlir.global external constant @__gpumem_cpu_module() ...
    }
    ```
  }];
  let options = [
    Option<"coroutines", "coroutines", "bool", /*default=*/"true",
           "Run kernels with barriers or warp operations as coroutines when "
           "they allow it (else on fibers)">,
    Option<"sanitize", "sanitize", "::gpumem::SanitizerChecks",
           /*default=*/"::gpumem::SanitizerChecks{}",
           "--sanitize's checks, recorded in the kernel table for the "
           "runtime (gpumem-sanitize-nvvm-accesses instruments the "
           "accesses)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GPUMemSanitizeNVVMAccessesPass
    : Pass<"gpumem-sanitize-nvvm-accesses", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Instrument a cuda-emu gpu.module's loads, stores and "
                "atomics for --sanitize, by address";
  let description = [{
    Runs after `gpumem-lower-nvvm-to-cpu`. Before each `llvm.load`,
    `llvm.store`, `llvm.atomicrmw` and `llvm.cmpxchg` of the kernels and
    their device functions, the thread calls the cpu runtime's
    `addressAccess` service with the address, the access's size, what it
    does ("store of 4 bytes") and its `file:line:col`. The runtime finds
    what the address is (the block's shared memory, device memory, the
    redzone after an allocation, freed memory; anything else, such as the
    thread's stack, is not checked) and reports out-of-bounds accesses and
    use after free (memcheck), races (racecheck) and uninitialized reads
    (initcheck), as compute-sanitizer does on a GPU (docs/sanitizer.md).
    `gpumem-lower-nvvm-to-cpu`'s `sanitize` option records the checks in
    the kernel table for the runtime (synccheck, device memory shadows).
  }];
  let options = [
    Option<"checks", "checks", "::gpumem::SanitizerChecks",
           /*default=*/"::gpumem::SanitizerChecks{GPUMEM_CHECK_MEMCHECK}",
           "The checks, comma-separated: memcheck, racecheck, initcheck, "
           "synccheck">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // GPUMEM_TARGET_CUDAEMU_PASSES
