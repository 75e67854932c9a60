//===----------------------------------------------------------------------===//
// The target attribute a pipeline gives each gpu.module (ModuleTargets.h):
// a target counts as the pipeline's own when it is an attribute of the same
// kind (the same C++ class), whatever its parameters. Device code already
// lowered for another GPU is recognized by its dialect: its ops, or
// attributes named after it on functions.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/ModuleTargets.h"

using namespace mlir;

LogicalResult gpumem::attachOwnTarget(Operation *root, Attribute target,
                                      StringRef pipeline) {
  return attachOwnTargets(root, target, pipeline);
}

LogicalResult gpumem::attachOwnTargets(Operation *root, ArrayRef<Attribute> own,
                                       StringRef pipeline) {
  Attribute target = own.front();
  bool failed = false;
  root->walk([&](gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || targets.empty()) {
      module.setTargetsAttr(ArrayAttr::get(module.getContext(), own));
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

LogicalResult gpumem::refuseForeignDeviceCode(Operation *root,
                                              ArrayRef<StringRef> dialects,
                                              StringRef vendor,
                                              StringRef pipeline) {
  auto isForeign = [&](StringRef name) {
    return llvm::any_of(dialects, [&](StringRef dialect) {
      return name == dialect ||
             (name.starts_with(dialect) &&
              name.drop_front(dialect.size()).starts_with("."));
    });
  };
  WalkResult result = root->walk([&](gpu::GPUModuleOp module) {
    return module.walk([&](Operation *op) -> WalkResult {
      if (isForeign(op->getName().getDialectNamespace()))
        return op->emitOpError()
               << "is " << vendor << " device code, which the " << pipeline
               << " pipeline cannot compile";
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (isForeign(attr.getName().getValue()))
          return op->emitOpError()
                 << "has the attribute '" << attr.getName().getValue()
                 << "' of " << vendor << " device code, which the " << pipeline
                 << " pipeline cannot compile";
      return WalkResult::advance();
    });
  });
  return failure(result.wasInterrupted());
}

LogicalResult gpumem::refuseTensorCoreFragments(Operation *root,
                                                StringRef pipeline,
                                                StringRef why) {
  WalkResult result = root->walk([&](gpu::GPUModuleOp module) {
    return module.walk([&](Operation *op) -> WalkResult {
      if (!isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
               gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp,
               gpu::SubgroupMmaElementwiseOp>(op))
        return WalkResult::advance();
      return op->emitOpError() << "is a tensor-core fragment op, which the "
                               << pipeline << " target cannot run: " << why
                               << "; the cuda, cuda-emu and cpu targets run it";
    });
  });
  return failure(result.wasInterrupted());
}
