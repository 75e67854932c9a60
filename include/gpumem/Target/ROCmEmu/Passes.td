//===----------------------------------------------------------------------===//
// The rocm-emu target's passes: the ROCDL form of the kernels lowered to
// host code with AMDGPU semantics (docs/rocm-emu.md), run by runtime/cpu.
// docs/passes.md is generated from this file and its siblings.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_ROCMEMU_PASSES
#define GPUMEM_TARGET_ROCMEMU_PASSES

include "mlir/Pass/PassBase.td"

def GPUMemLowerROCDLToCPUPass
    : Pass<"gpumem-lower-rocdl-to-cpu", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make a gpu.module in ROCDL form host code for the CPU "
                "runtime, with AMDGPU semantics (the rocm-emu target)";
  let description = [{
    The device lowering of the `rocm-emu` target. Its input is a
    `gpu.module` as the rocm pipeline hands it to the AMDGPU backend: LLVM
    dialect with ROCDL ops, after `convert-gpu-to-rocdl` and gpumem's AMD
    passes. Its output follows the CPU kernel ABI
    (include/gpumem/Runtime/CPUKernelABI.h), so `libgpumem_cpu_runtime.so`
    runs it, with AMDGPU's semantics rather than the `gpu` dialect's:

    - work-item and workgroup ids, workgroup and grid sizes are read from
      the thread context;
    - `rocdl.barrier` and `rocdl.s.barrier` wait for the workgroup;
      `ds_bpermute`, `ds_swizzle`, `readlane`, `readfirstlane`, `ballot`
      and `mbcnt` work on the wavefront, whose size comes from the module's
      `#rocdl.target` (its chip, or its wavefront-size feature);
    - ocml's `__ocml_*` math functions become libm's;
    - every `addrspace(3)` global (LDS) gets its own offset and alignment
      in the block's arena, the `extern` array follows them; address spaces
      are erased.

    Anything else AMD-specific (other ROCDL ops, inline AMDGPU assembly,
    other `llvm.amdgcn.*` intrinsics, private globals, a dynamic-size
    `llvm.alloca` outside private memory, which the AMDGPU backend cannot
    select) is a located error. A kernel's `rocdl.flat_work_group_size`
    bounds its launches, 256 work-items without one (the ROCDL
    translation's default).
    Each kernel `K` becomes `__gpumem_kernel_K` and `__gpumem_run_thread_K`;
    `K` stays an empty stub, and the module exports its kernel table with
    the chip and its LDS limit. The module's targets are removed:
    `gpumem-attach-cpu-target` gives it `#gpumem.cpu`.
  }];
  let options = [
    Option<"coroutines", "coroutines", "bool", /*default=*/"true",
           "Run kernels with barriers or cross-lane operations as "
           "coroutines when they allow it (else on fibers)">,
    Option<"sanitize", "sanitize", "::gpumem::SanitizerChecks",
           /*default=*/"::gpumem::SanitizerChecks{}",
           "--sanitize's checks, recorded in the kernel table for the "
           "runtime (gpumem-sanitize-rocdl-accesses instruments the "
           "accesses)">
  ];
}

def GPUMemSanitizeROCDLAccessesPass
    : Pass<"gpumem-sanitize-rocdl-accesses", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Instrument a rocm-emu gpu.module's loads, stores and "
                "atomics for --sanitize, by address";
  let description = [{
    Runs after `gpumem-lower-rocdl-to-cpu`, and does for rocm-emu what
    `gpumem-sanitize-nvvm-accesses` does for cuda-emu, with the same code
    (the host-kernel layer's): before each `llvm.load`, `llvm.store`,
    `llvm.atomicrmw` and `llvm.cmpxchg` of the kernels and their device
    functions, the thread calls the cpu runtime's `addressAccess` service
    with the address, the access's size, what it does ("store of 4 bytes")
    and its `file:line:col`. LDS addresses, offsets on an AMD GPU, are the
    block's arena's host addresses by then, so the runtime finds what an
    address is (LDS, device memory, the redzone after an allocation, freed
    memory) and reports out-of-bounds accesses and use after free
    (memcheck), races (racecheck) and uninitialized reads (initcheck) with
    cuda-emu's text (docs/sanitizer.md). `gpumem-lower-rocdl-to-cpu`'s
    `sanitize` option records the checks in the kernel table for the
    runtime (synccheck, device memory shadows).

    Before (abridged):
    ```mlir
    llvm.func internal @__gpumem_kernel_k(%p: !llvm.ptr, %ctx: !llvm.ptr) {
      llvm.store %v, %p : f32, !llvm.ptr
    ```
    After:
    ```mlir
      llvm.call %addressAccess(%ctx, %p, %c4, %kind, %what, %where)
      llvm.store %v, %p : f32, !llvm.ptr
    ```
  }];
  let options = [
    Option<"checks", "checks", "::gpumem::SanitizerChecks",
           /*default=*/"::gpumem::SanitizerChecks{GPUMEM_CHECK_MEMCHECK}",
           "The checks, comma-separated: memcheck, racecheck, initcheck, "
           "synccheck">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // GPUMEM_TARGET_ROCMEMU_PASSES
