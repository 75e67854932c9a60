//===----------------------------------------------------------------------===//
// A located error when a Vulkan driver stops a loop before its end (the
// algorithm is in LoopCompletionChecks.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_LOOPCOMPLETIONCHECKS_H
#define GPUMEM_LIB_TARGET_VULKAN_LOOPCOMPLETIONCHECKS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem::vulkan {

/// Follows every scf.for and scf.while of `module` with a cf.assert that
/// the loop ran to its end, which fails where the device left it early.
void checkLoopsComplete(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_LOOPCOMPLETIONCHECKS_H
