//===----------------------------------------------------------------------===//
// Atomics the vulkan target needs beyond upstream's memref.atomic_rmw
// lowering (integer kinds only): float kinds become memref.generic_atomic_rmw,
// which becomes a compare-and-swap loop on integer elements.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_SPIRV_VULKANATOMICS_H
#define GPUMEM_LIB_TARGET_SPIRV_VULKANATOMICS_H

namespace mlir {
class RewritePatternSet;
class SPIRVTypeConverter;
} // namespace mlir

namespace gpumem::vulkan {

/// memref.atomic_rmw of a float kind (addf, mulf, maximumf, minimumf, ...)
/// as memref.generic_atomic_rmw: SPIR-V has float atomics only through
/// extensions many devices lack. Rewrite patterns, before the conversion.
void populateFloatAtomicsToGenericPatterns(mlir::RewritePatternSet &patterns);

/// memref.generic_atomic_rmw of a 32- or 64-bit integer element as a loop
/// around spirv.AtomicCompareExchange. Conversion patterns.
void populateGenericAtomicToSPIRVPatterns(
    const mlir::SPIRVTypeConverter &converter,
    mlir::RewritePatternSet &patterns);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_SPIRV_VULKANATOMICS_H
