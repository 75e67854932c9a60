//===----------------------------------------------------------------------===//
// gpu.all_reduce through workgroup memory, for the vulkan target (the
// algorithm is in WorkgroupAllReduce.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_WORKGROUPALLREDUCE_H
#define GPUMEM_LIB_TARGET_VULKAN_WORKGROUPALLREDUCE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem::vulkan {

/// Rewrites every gpu.all_reduce of `kernel` as a tree reduction in a
/// workgroup attribution of its own, with barriers; independent of the
/// device's subgroup size. Fails after a located diagnostic.
mlir::LogicalResult
lowerAllReduceThroughWorkgroupMemory(mlir::gpu::GPUFuncOp kernel,
                                     int64_t maxBlockThreads);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_WORKGROUPALLREDUCE_H
