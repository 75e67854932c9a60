//===----------------------------------------------------------------------===//
// The vulkan target's passes: kernels as SPIR-V compute shaders
// (docs/vulkan.md), run by runtime/vulkan.
// docs/passes.md is generated from this file and its siblings.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_VULKAN_PASSES
#define GPUMEM_TARGET_VULKAN_PASSES

include "mlir/Pass/PassBase.td"

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
    checked again by the runtime at launch. A gpu.module already made for
    another GPU (an `#nvvm.target`, say) is an error: gpu-module-to-binary
    would hand it to that GPU's backend.

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

#endif // GPUMEM_TARGET_VULKAN_PASSES
