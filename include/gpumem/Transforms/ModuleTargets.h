//===----------------------------------------------------------------------===//
// The target attribute a pipeline gives each gpu.module. A module without
// targets gets the pipeline's; one that already names it keeps its own; one
// made for another GPU (an #nvvm.target in the vulkan pipeline) is refused,
// because gpu-module-to-binary would serialize it for that GPU, whose
// backend aborts on what it cannot select or whose object the pipeline's
// runtime cannot load.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_MODULETARGETS_H
#define GPUMEM_TRANSFORMS_MODULETARGETS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem {

/// Gives every gpu.module in `root` the target `target` as above; the
/// error on a foreign target names `pipeline` ("vulkan"). Fails when one
/// was refused.
mlir::LogicalResult attachOwnTarget(mlir::Operation *root,
                                    mlir::Attribute target,
                                    llvm::StringRef pipeline);

/// The same with several targets of one kind (one per chip), which a
/// module without a target gets all of, in order; the first stands for
/// them in the error.
mlir::LogicalResult attachOwnTargets(mlir::Operation *root,
                                     llvm::ArrayRef<mlir::Attribute> targets,
                                     llvm::StringRef pipeline);

/// Refuses, at the first such op of each gpu.module in `root`, device code
/// already lowered for another GPU: ops of `foreignDialects` ("nvvm",
/// "nvgpu") and functions with attributes of theirs ("nvvm.kernel"), which
/// `pipeline`'s backend cannot compile (it aborts on them). `vendor` names
/// their GPU ("NVIDIA"). A pipeline may add its target to a module that has
/// another's (one binary for several GPUs), but only for gpu dialect code.
mlir::LogicalResult
refuseForeignDeviceCode(mlir::Operation *root,
                        llvm::ArrayRef<llvm::StringRef> foreignDialects,
                        llvm::StringRef vendor, llvm::StringRef pipeline);

/// Refuses, at the first one in a gpu.module of `root`, the tensor-core
/// fragment ops (gpu.subgroup_mma_*), which `pipeline` has no lowering
/// for; `why` says why ("AMD's matrix cores ..."), and the message names
/// the targets that run them.
mlir::LogicalResult refuseTensorCoreFragments(mlir::Operation *root,
                                              llvm::StringRef pipeline,
                                              llvm::StringRef why);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_MODULETARGETS_H
