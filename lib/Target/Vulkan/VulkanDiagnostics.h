//===----------------------------------------------------------------------===//
// gpu.printf and cf.assert on the vulkan target: device code that writes
// the diagnostics buffer of include/gpumem/Runtime/VulkanKernelABI.h, and
// the site table the serializer puts in the image (the algorithm is in
// VulkanDiagnostics.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_VULKANDIAGNOSTICS_H
#define GPUMEM_LIB_TARGET_VULKAN_VULKANDIAGNOSTICS_H

#include "VulkanKernelRecords.h"

namespace mlir {
class Operation;
class RewritePatternSet;
class SPIRVTypeConverter;
} // namespace mlir

namespace gpumem::vulkan {

/// Whether `op` is a gpu.printf or cf.assert.
bool isDiagnosticOp(mlir::Operation *op);

/// Conversion patterns for gpu.printf and cf.assert, which number their
/// sites by appending them to `sites` (which must outlive the conversion).
void populateDiagnosticsToSPIRVPatterns(
    const mlir::SPIRVTypeConverter &converter,
    mlir::RewritePatternSet &patterns,
    llvm::SmallVectorImpl<DiagnosticSite> &sites);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_VULKANDIAGNOSTICS_H
