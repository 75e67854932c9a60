//===----------------------------------------------------------------------===//
// Device functions inlined into the kernels of a vulkan gpu.module (the
// algorithm is in InlineDeviceFunctions.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_INLINEDEVICEFUNCTIONS_H
#define GPUMEM_LIB_TARGET_VULKAN_INLINEDEVICEFUNCTIONS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem::vulkan {

/// Inlines every func.call of a func.func defined in `module` into the
/// gpu.func kernels, callees' calls too; calls it cannot inline stay. Then
/// erases the functions no kernel reaches. Fails, with a diagnostic at the
/// call, when a kernel calls a function that reaches recursion.
mlir::LogicalResult inlineDeviceFunctions(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_INLINEDEVICEFUNCTIONS_H
