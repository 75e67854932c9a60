//===----------------------------------------------------------------------===//
// gpumem's conversion passes: gpu.module kernels lowered for the host CPU
// (cpu, cuda-emu) and for Vulkan (SPIR-V).
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
    thread loops, so that the loop over x is innermost and vectorizes; it
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
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def GPUMemSanitizeMemoryAccessesPass
    : Pass<"gpumem-sanitize-memory-accesses", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Instrument a CPU gpu.module's memref accesses for "
                "--sanitize (bounds, races, uninitialized reads)";
  let description = [{
    Runs after `gpumem-lower-gpu-to-cpu-abi`, on functions that take the
    thread context. Each `memref.load`, `memref.store`,
    `memref.atomic_rmw`, `memref.generic_atomic_rmw`, `vector.load` and
    `vector.store`, in any memory space (device, workgroup, private, views
    and device-function arguments alike), runs only when every index is
    inside its dimension (for vectors, every element); otherwise the
    thread calls the runtime's `accessError` service once per dimension out
    of bounds, with the access's description, its `file:line:col`, the
    dimension, the index and the size, and the access is skipped (a load
    gives zero). The runtime reports and counts the errors, and the program
    then fails (docs/sanitizer.md). With racecheck or initcheck, each
    access of workgroup memory first calls the `sharedAccess` service, and
    each other access but those of private memory `deviceAccess`, with its
    address, size and kind; the runtime compares them with its shadows.
    The checks are also recorded in the module's kernel table for the
    runtime, which makes synccheck's itself.
  }];
  let options = [
    Option<"checks", "checks", "std::string", /*default=*/"\"memcheck\"",
           "The checks to compile in, comma-separated: memcheck, racecheck, "
           "initcheck, synccheck (recorded for the runtime, which makes "
           "that check)">,
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
           "they allow it (else on fibers)">,
    Option<"sanitize", "sanitize", "std::string", /*default=*/"\"\"",
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
    Option<"checks", "checks", "std::string", /*default=*/"\"memcheck\"",
           "The checks, comma-separated: memcheck, racecheck, initcheck, "
           "synccheck">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// The vulkan target.
//===----------------------------------------------------------------------===//

def GPUMemAttachVulkanTargetPass
    : Pass<"gpumem-attach-vulkan-target", "::mlir::ModuleOp"> {
  let summary = "Attach gpumem's vulkan target and a SPIR-V target "
                "environment to every gpu.module";
  let description = [{
    Makes every gpu.module without a target compile to SPIR-V for Vulkan
    (`#gpumem.vulkan`) and gives it the `spirv.target_env` the conversion
    reads: the SPIR-V version, the capabilities of a Vulkan 1.1 compute
    device with 64-bit integers and floats, 8-bit integers (in buffers too)
    and subgroup operations, and the
    device limits (workgroup memory, invocations, subgroup size). The
    defaults suit Mesa's lavapipe and common GPUs; a device with less is
    checked again by the runtime at launch.

    An index constant or `scf.index_switch` case in those modules that the
    shaders' 32-bit index cannot hold (outside -2^31 to 2^32-1) is a
    located error: `'arith.constant' op has index value
    9223372036854775807, which does not fit the 32-bit index of a vulkan
    shader`.

    Before:
    ```mlir
    gpu.module @kernels { ... }
    ```
    After:
    ```mlir
    gpu.module @kernels [#gpumem.vulkan] attributes {spirv.target_env =
        #spirv.target_env<#spirv.vce<v1.3, [Shader, ...], [...]>, api=Vulkan,
        #spirv.resource_limits<max_compute_shared_memory_size = 32768, ...>>}
    ```
  }];
  let dependentDialects = ["::gpumem::GPUMemDialect",
                           "::mlir::spirv::SPIRVDialect"];
  let options = [
    Option<"spirvVersion", "spirv-version", "std::string", /*default=*/"\"1.3\"",
           "SPIR-V version, 1.0 to 1.6 (Vulkan 1.1 reads 1.3)">,
    Option<"subgroupSize", "subgroup-size", "unsigned", /*default=*/"32",
           "Subgroup size the kernels' shuffles assume">,
    Option<"maxSharedMemory", "max-shared-memory", "unsigned",
           /*default=*/"32768",
           "Workgroup memory of a workgroup, in bytes">,
  ];
}

def GPUMemPrepareVulkanKernelsPass
    : Pass<"gpumem-prepare-vulkan-kernels", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give a gpu.module's kernels gpumem's Vulkan kernel ABI and "
                "address every memref from a 1-D root";
  let description = [{
    The first half of the `vulkan` target's device lowering. Logical SPIR-V
    indexes a storage buffer or a workgroup array from its start, with no
    pointers and no dynamic strides, so every memref a kernel touches is
    rewritten to be addressed from a one-dimensional root:

    - a kernel's memref argument becomes a `memref<?xT>` (a storage buffer)
      followed by index arguments for its offset, sizes and strides (push
      constants), and the body sees `memref.reinterpret_cast` of the buffer
      to the original type;
    - workgroup attributions and private `memref.alloca`s of static shape
      become one-dimensional the same way (allocas get the private space);
    - views are expanded into their strided metadata, and every
      `memref.load`, `memref.store`, `memref.atomic_rmw` and
      `memref.generic_atomic_rmw` is rewritten to index its root with the
      linearized offset (float `atomic_rmw` kinds become generic ones, which
      the conversion turns into compare-and-swap loops on integers);
    - every `scf.for` and `scf.while` is followed by a `cf.assert` that it
      ran to its end (one carried value, one comparison after the loop):
      Mesa's llvmpipe, behind lavapipe, leaves every loop once a thread has
      run 65535 loop iterations in all, which is then a located error
      instead of a wrong result.

    The launch's parameters (the host lowering passes a memref as its
    descriptor fields) are recorded as GPUMemVulkanParam records on the
    gpu.module (`gpumem.vulkan_kernels`) for the serializer. A kernel whose
    block size is not known at compile time, a memref that cannot be traced
    to its root, or an argument of a type push constants cannot carry is a
    located error.

    Before:
    ```mlir
    gpu.func @k(%a: memref<4x8xf32>) kernel {
      %v = memref.load %a[%i, %j] : memref<4x8xf32>
    ```
    After (abridged):
    ```mlir
    gpu.func @k(%a: memref<?xf32>, %off: index, %s0: index, %s1: index,
                %t0: index, %t1: index) kernel {
      %l = arith.addi ... // %i * 8 + %j
      %v = memref.load %a[%l] : memref<?xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::spirv::SPIRVDialect"];
  let options = [
    Option<"checkLoopCompletion", "check-loop-completion", "bool",
           /*default=*/"true",
           "Follow every loop with a check that it ran to its end (Mesa's "
           "llvmpipe leaves loops after 65535 iterations in all)">,
  ];
}

def GPUMemConvertGPUToVulkanSPIRVPass
    : Pass<"gpumem-convert-gpu-to-vulkan-spirv", "::mlir::ModuleOp"> {
  let summary = "Convert prepared vulkan-target gpu.modules to a nested "
                "spirv.module";
  let description = [{
    The second half of the `vulkan` target's device lowering, after
    `gpumem-prepare-vulkan-kernels`. Each `#gpumem.vulkan` gpu.module gets a
    `spirv.module` inside it, converted with upstream's SPIR-V patterns
    except for kernels, which get gpumem's ABI: no arguments; a
    `PushConstant` block with the block size at offset 0 and every scalar
    argument at its recorded offset; a `StorageBuffer` variable (set 0,
    its recorded binding) per buffer; a `Workgroup` variable per workgroup
    attribution; a `Function` variable per private attribution. Memory
    spaces of both spellings map to storage classes: global or none to
    `StorageBuffer`, workgroup (3) to `Workgroup`, private (5) to
    `Function`.
    Anything without a lowering is a located error.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect",
                           "::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"checkLoopCompletion", "check-loop-completion", "bool",
           /*default=*/"true",
           "Follow every loop with a check that it ran to its end (Mesa's "
           "llvmpipe leaves loops after 65535 iterations in all)">,
  ];
}

#endif // GPUMEM_CONVERSION_PASSES
