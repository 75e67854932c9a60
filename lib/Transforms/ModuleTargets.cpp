//===----------------------------------------------------------------------===//
// The target attribute a pipeline gives each gpu.module (ModuleTargets.h):
// a target counts as the pipeline's own when it is an attribute of the same
// kind (the same C++ class), whatever its parameters.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/ModuleTargets.h"

using namespace mlir;

LogicalResult gpumem::attachOwnTarget(Operation *root, Attribute target,
                                      StringRef pipeline) {
  bool failed = false;
  root->walk([&](gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || targets.empty()) {
      module.setTargetsAttr(ArrayAttr::get(module.getContext(), {target}));
      return;
    }
    for (Attribute other : targets)
      if (other.getTypeID() != target.getTypeID()) {
        module.emitOpError()
            << "already has the target " << other << ", which the " << pipeline
            << " pipeline does not compile for; it compiles gpu.modules "
               "without a target (or with "
            << target << ")";
        failed = true;
        return;
      }
  });
  return failure(failed);
}
