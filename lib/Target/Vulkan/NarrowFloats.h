//===----------------------------------------------------------------------===//
// 16-bit floats (f16, bf16) in vulkan kernels as their bits in i16, with
// arithmetic in f32 rounded back after every operation (the algorithm is in
// NarrowFloats.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_NARROWFLOATS_H
#define GPUMEM_LIB_TARGET_VULKAN_NARROWFLOATS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/LLVM.h"

namespace gpumem::vulkan {

/// Rewrites every f16 and bf16 value, memref and vector of `module` (a
/// prepared clone) as i16 bits, so that no 16-bit float reaches upstream's
/// SPIR-V type conversion. A located error for what has no exact rewrite.
mlir::LogicalResult narrowFloatsToBits(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_NARROWFLOATS_H
