//===----------------------------------------------------------------------===//
// Workgroup buffers chosen by control flow, for logical SPIR-V (the
// algorithm is in WorkgroupBufferChoices.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_WORKGROUPBUFFERCHOICES_H
#define GPUMEM_LIB_TARGET_VULKAN_WORKGROUPBUFFERCHOICES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem::vulkan {

/// Rewrites the workgroup memrefs that scf.if, arith.select, scf.for and
/// scf.while yield or carry in `kernel` into indices of the attribution
/// they stand for, and each access through one into an access of every
/// candidate attribution, picked by that index. Fails after a located
/// error when a chosen memref is not one of the kernel's workgroup
/// attributions or is used otherwise than by loads, stores and atomics.
mlir::LogicalResult chooseWorkgroupBuffersByIndex(mlir::gpu::GPUFuncOp kernel);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_WORKGROUPBUFFERCHOICES_H
