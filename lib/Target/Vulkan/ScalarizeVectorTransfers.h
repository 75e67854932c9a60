//===----------------------------------------------------------------------===//
// 1-D vector transfers as scalar loads and stores, for the vulkan target
// (the algorithm is in ScalarizeVectorTransfers.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_SCALARIZEVECTORTRANSFERS_H
#define GPUMEM_LIB_TARGET_VULKAN_SCALARIZEVECTORTRANSFERS_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace gpumem::vulkan {

/// vector.transfer_read and vector.transfer_write of a 1-D vector along a
/// memref's last dimension as one memref.load or memref.store per element
/// (guarded when not in bounds), plus the folds that let vectors built for
/// them disappear. Rewrite patterns.
void populateScalarizeVectorTransferPatterns(mlir::RewritePatternSet &patterns);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_SCALARIZEVECTORTRANSFERS_H
