//===----------------------------------------------------------------------===//
// The HSA code objects of a gpu.binary: its `bin` objects of a
// #rocdl.target, as gpumem-link-hsa-code-objects leaves them, for the passes
// that read them (the offload bundle, the register report).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_ROCM_CODEOBJECTS_H
#define GPUMEM_LIB_TARGET_ROCM_CODEOBJECTS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace gpumem::rocm {

struct CodeObject {
  mlir::gpu::ObjectAttr object;
  mlir::ROCDL::ROCDLTargetAttr target;
};

/// The code objects of `binary`, in its order.
inline llvm::SmallVector<CodeObject>
getCodeObjects(mlir::gpu::BinaryOp binary) {
  llvm::SmallVector<CodeObject> found;
  for (mlir::Attribute attribute : binary.getObjects()) {
    auto object = llvm::dyn_cast<mlir::gpu::ObjectAttr>(attribute);
    auto target =
        object
            ? llvm::dyn_cast<mlir::ROCDL::ROCDLTargetAttr>(object.getTarget())
            : nullptr;
    if (target && object.getFormat() == mlir::gpu::CompilationTarget::Binary)
      found.push_back({object, target});
  }
  return found;
}

} // namespace gpumem::rocm

#endif // GPUMEM_LIB_TARGET_ROCM_CODEOBJECTS_H
