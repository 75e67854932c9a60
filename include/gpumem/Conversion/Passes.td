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

#endif // GPUMEM_CONVERSION_PASSES
