//===----------------------------------------------------------------------===//
// The gpumem dialect: attributes (and later ops) gpumem adds to MLIR.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_DIALECT_GPUMEM_IR_GPUMEM
#define GPUMEM_DIALECT_GPUMEM_IR_GPUMEM

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/Dialect/GPU/IR/CompilationAttrInterfaces.td"

def GPUMem_Dialect : Dialect {
  let name = "gpumem";
  let summary = "GPU memory made to work end to end";
  let cppNamespace = "::gpumem";
  let useDefaultAttributePrinterParser = 1;
}

def GPUMem_CPUTargetAttr
    : AttrDef<GPUMem_Dialect, "CPUTarget",
              [DeclareAttrInterfaceMethods<GPUTargetAttrInterface>]> {
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

#endif // GPUMEM_DIALECT_GPUMEM_IR_GPUMEM
