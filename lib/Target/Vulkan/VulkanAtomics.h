//===----------------------------------------------------------------------===//
// Atomics the vulkan target needs beyond upstream's memref.atomic_rmw
// lowering (integer kinds only): float kinds become memref.generic_atomic_rmw,
// which becomes a compare-and-swap loop on integer elements.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_VULKANATOMICS_H
#define GPUMEM_LIB_TARGET_VULKAN_VULKANATOMICS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
class RewritePatternSet;
class SPIRVTypeConverter;
} // namespace mlir

namespace gpumem::vulkan {

/// A located error on `op` (an atomic) unless the vulkan target has
/// atomics on `element`: 32- and 64-bit integers and floats.
mlir::LogicalResult checkAtomicElement(mlir::Operation *op, mlir::Type element);

/// memref.atomic_rmw of a float kind (addf, mulf, maximumf, minimumf, ...)
/// as memref.generic_atomic_rmw: SPIR-V has float atomics only through
/// extensions many devices lack. Rewrite patterns, before the conversion.
void populateFloatAtomicsToGenericPatterns(mlir::RewritePatternSet &patterns);

/// Rewrites float generic_atomic_rmw `op` as one on `integers` (integers of
/// the float's width, the same bytes) at `indices`: the body sees and
/// yields floats through bitcasts, and the result is bitcast back.
void retypeFloatGenericAtomic(mlir::memref::GenericAtomicRMWOp op,
                              mlir::Value integers, mlir::ValueRange indices);

/// When a float generic_atomic_rmw updates `root` (a 1-D buffer, array or
/// alloca whose accesses all index it directly), makes its elements
/// integers of the same width: loads and stores bitcast, atomics through
/// retypeFloatGenericAtomic. Fails after a located diagnostic on any other
/// use.
mlir::LogicalResult retypeFloatRootAsIntegers(mlir::Value root);

/// memref.generic_atomic_rmw of a 32- or 64-bit integer element as a loop
/// around spirv.AtomicCompareExchange. Conversion patterns.
void populateGenericAtomicToSPIRVPatterns(
    const mlir::SPIRVTypeConverter &converter,
    mlir::RewritePatternSet &patterns);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_VULKANATOMICS_H
