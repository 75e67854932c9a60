//===----------------------------------------------------------------------===//
// gpu.shuffle with gpu.shuffle's own semantics on SPIR-V, whatever the
// width and mode (the algorithm is in ShuffleWidths.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_SHUFFLEWIDTHS_H
#define GPUMEM_LIB_TARGET_VULKAN_SHUFFLEWIDTHS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace gpumem::vulkan {

/// A located error for each gpu.shuffle whose constant width is outside
/// 1..subgroupSize.
mlir::LogicalResult checkShuffleWidths(mlir::gpu::GPUModuleOp module,
                                       uint32_t subgroupSize);

/// Every gpu.shuffle that upstream's SPIR-V lowering would get wrong or
/// refuse (any width but the subgroup size; `up` and `down`, whose
/// out-of-range lanes it leaves undefined and calls valid) as a full-width
/// `idx` shuffle from a computed lane. Rewrite patterns.
void populateShuffleWidthPatterns(mlir::RewritePatternSet &patterns,
                                  uint32_t subgroupSize);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_SHUFFLEWIDTHS_H
