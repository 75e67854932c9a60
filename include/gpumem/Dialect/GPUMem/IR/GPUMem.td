//===----------------------------------------------------------------------===//
// The gpumem dialect: the #gpumem.cpu target attribute, and host-side ops
// for managed (unified) memory: allocation, prefetch and advice.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_DIALECT_GPUMEM_IR_GPUMEM
#define GPUMEM_DIALECT_GPUMEM_IR_GPUMEM

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/GPU/IR/CompilationAttrInterfaces.td"
include "mlir/Dialect/GPU/IR/GPUBase.td"
include "gpumem/Dialect/GPUMem/IR/GPUMemEnums.td"

def GPUMem_Dialect : Dialect {
  let name = "gpumem";
  let summary = "GPU memory made to work end to end";
  let cppNamespace = "::gpumem";
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def GPUMem_CPUTargetAttr
    : AttrDef<GPUMem_Dialect, "CPUTarget"> {
  let mnemonic = "cpu";
  let summary = "Runs a gpu.module's kernels on host CPU cores";
  let description = [{
    A GPU target whose binary is a host shared object: `gpu-module-to-binary`
    compiles the (LLVM dialect) gpu.module for the host, links it with `ld`
    and embeds the shared object. gpumem's CPU runtime loads it from memory
    and runs blocks on worker threads and the threads of a block as fibers
    (include/gpumem/Runtime/CPUKernelABI.h).

    `O` is the LLVM optimization level, `cpu` the host CPU to tune for
    (empty: this machine's CPU; `x86-64` for a portable object), `features`
    extra LLVM target features.

    ```mlir
    gpu.module @kernels [#gpumem.cpu<O = 2, cpu = "x86-64">] { ... }
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"int", "2", "LLVM optimization level">:$O,
    StringRefParameter<"host CPU, empty for this machine's", "\"\"">:$cpu,
    StringRefParameter<"extra LLVM target features", "\"\"">:$features
  );
  let assemblyFormat = "(`<` struct(params)^ `>`)?";
}

def GPUMem_VulkanTargetAttr
    : AttrDef<GPUMem_Dialect, "VulkanTarget"> {
  let mnemonic = "vulkan";
  let summary = "Runs a gpu.module's kernels as Vulkan compute shaders";
  let description = [{
    A GPU target whose binary is gpumem's Vulkan kernel image
    (include/gpumem/Runtime/VulkanKernelABI.h): the SPIR-V module that
    `gpumem-convert-gpu-to-vulkan-spirv` nested in the gpu.module, serialized,
    followed by one record per kernel saying how the launch's parameters
    become push constants and storage buffers. gpumem's Vulkan runtime loads
    it on any Vulkan 1.1 device (Mesa's lavapipe on a machine without a GPU).

    ```mlir
    gpu.module @kernels [#gpumem.vulkan] { ... }
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Ops.
//===----------------------------------------------------------------------===//

class GPUMem_Op<string mnemonic, list<Trait> traits = []>
    : Op<GPUMem_Dialect, mnemonic, traits>;

def GPUMem_AllocManagedOp : GPUMem_Op<"alloc_managed"> {
  let summary = "Allocate managed memory, usable by the host and by kernels";
  let description = [{
    Allocates a buffer of managed (unified) memory, synchronously, from host
    code: the host and every kernel can read and write it through the same
    address, and the driver migrates its pages on demand. On the CUDA
    runtime this is `cuMemAllocManaged(CU_MEM_ATTACH_GLOBAL)`; on the cpu
    target it is ordinary host memory. Free it with `gpu.dealloc`.

    One index operand per dynamic dimension of the result. The result has
    the identity layout and the default memory space: managed memory is
    global memory, never workgroup or private memory.

    ```mlir
    %a = gpumem.alloc_managed() : memref<256xf32>
    %b = gpumem.alloc_managed(%rows) : memref<?x4xf32>
    ...
    gpu.dealloc %b : memref<?x4xf32>
    ```
  }];
  let arguments = (ins Variadic<Index>:$dynamicSizes);
  let results = (outs Res<AnyMemRef, "", [MemAllocAt<0, FullEffect>]>:$memref);
  let assemblyFormat = "`(` $dynamicSizes `)` attr-dict `:` type($memref)";
  let extraClassDeclaration = [{
    ::mlir::MemRefType getType() {
      return ::llvm::cast<::mlir::MemRefType>(getMemref().getType());
    }
  }];
  let hasVerifier = 1;
}

def GPUMem_PrefetchOp : GPUMem_Op<"prefetch", [GPU_AsyncOpInterface]> {
  let summary = "Move managed memory to the device or to the host";
  let description = [{
    Migrates the pages of managed memory that the memref can address (from
    its lowest to its highest element) to the device the runtime uses, or to
    the host, ahead of their use there. It is a performance hint: the
    contents never change, and memory that is already there is not moved.

    Without `async` the op returns when the pages have moved. With `async`
    it is ordered on a stream like other gpu ops: it starts after its
    dependencies and returns a `!gpu.async.token` (a stream on which the
    move is queued).

    On the CUDA runtime this is `cuMemPrefetchAsync`; on devices without
    concurrent managed access, and on the cpu target, it does nothing.

    ```mlir
    gpumem.prefetch %a to device : memref<256xf32>
    %t1 = gpumem.prefetch async [%t0] %b to host : memref<?x4xf32>
    ```
  }];
  let arguments = (ins Variadic<GPU_AsyncToken>:$asyncDependencies,
                   AnyMemRef:$memref,
                   GPUMem_PrefetchDestination:$destination);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) ``
    $memref `to` $destination attr-dict `:` type($memref)
  }];
  let hasVerifier = 1;
}

def GPUMem_AdviseOp : GPUMem_Op<"advise"> {
  let summary = "Tell the driver how managed memory will be used";
  let description = [{
    Gives a usage hint for the managed memory the memref can address (from
    its lowest to its highest element), synchronously:

    * `read_mostly` / `unset_read_mostly`: mostly read; processors that read
      it may keep read-only copies (a write invalidates them);
    * `preferred_location_device` / `preferred_location_host`: where the
      pages should live; `unset_preferred_location` drops that;
    * `accessed_by_device` / `unset_accessed_by_device`: keep the pages
      mapped for the device wherever they live.

    On the CUDA runtime this is `cuMemAdvise`; on devices without
    concurrent managed access, and on the cpu target, it does nothing.

    ```mlir
    gpumem.advise %a, read_mostly : memref<256xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$memref,
                   GPUMem_MemoryAdvice:$advice);
  let assemblyFormat = "$memref `,` $advice attr-dict `:` type($memref)";
  let hasVerifier = 1;
}

#endif // GPUMEM_DIALECT_GPUMEM_IR_GPUMEM
