//===----------------------------------------------------------------------===//
// gpumem's conversion passes: gpu.module kernels lowered for the host CPU.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_CONVERSION_PASSES
#define GPUMEM_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

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
    `__gpumem_run_block_K` (a loop over the block's threads), which unpack
    `mgpuLaunchKernel`'s parameter array; `K` stays as an empty stub for the
    host's `gpu.launch_func` to verify against. Thread, block and lane ids
    and dims are loads from the context; `gpu.barrier`, `gpu.shuffle` and a
    failed `cf.assert` call runtime services through the context;
    `gpu.printf` calls libc's `printf`; workgroup attributions, workgroup
    globals and `gpu.dynamic_shared_memory` are views of the block's arena.
    `gpu.all_reduce`, `gpu.subgroup_reduce` and `gpu.subgroup_id` must have
    been rewritten by `gpumem-lower-gpu-collectives` (the pipeline does).
    Any other GPU-specific op is an error.

    A kernel whose barriers all sit in block-uniform structured control flow
    also gets `__gpumem_kernel_block_K`, a copy split at its barriers into
    loops over the block's threads (thread-loop fission, values crossing a
    barrier kept in per-thread arrays); its `run_block` calls that copy and
    the kernel runs without fibers. Divergent barriers, shuffles, private
    memory and calls into functions with barriers keep fibers.

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
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
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
    - `vprintf` and `__assertfail` behave as CUDA's; libdevice's `__nv_*`
      math functions become libm's;
    - every `addrspace(3)` global gets its own offset and alignment in the
      block's shared arena, the `extern` array follows them; address spaces
      are erased.

    Anything else NVVM-specific (tensor-core ops, inline PTX, other
    `llvm.nvvm.*` intrinsics) is a located error. Each kernel `K` becomes
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
           "they allow it (else on fibers)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // GPUMEM_CONVERSION_PASSES
