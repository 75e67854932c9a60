//===----------------------------------------------------------------------===//
// Dynamic workgroup memory on the vulkan target: gpu.dynamic_shared_memory
// as one workgroup array of 32-bit words sized at pipeline creation, its
// typed views as word accesses (the algorithm is in
// DynamicWorkgroupMemory.cpp). Two steps of gpumem-prepare-vulkan-kernels.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_DYNAMICWORKGROUPMEMORY_H
#define GPUMEM_LIB_TARGET_VULKAN_DYNAMICWORKGROUPMEMORY_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/SmallVector.h"

namespace gpumem::vulkan {

/// The kernel attribute naming the workgroup attribution that holds the
/// dynamic word array (its position among the workgroup attributions).
constexpr llvm::StringLiteral kDynamicSharedAttrName =
    "gpumem.vulkan_dynamic_shared";

struct DynamicSharedRoots {
  /// The word array, a workgroup attribution; null without dynamic memory.
  mlir::BlockArgument words;
  /// Typed views of it: placeholder roots memref<?xT>, each an unrealized
  /// cast of the word array and the view's byte shift.
  llvm::SmallVector<mlir::Value> views;
};

/// Before views are expanded: gives `kernel` the word array (and, when
/// memref.dim asks for the size, an index argument read from the push
/// constants at `bytesPushOffset`) and makes each view of its
/// gpu.dynamic_shared_memory a reinterpret_cast of a placeholder root.
/// Fails after a located diagnostic.
mlir::FailureOr<DynamicSharedRoots>
makeDynamicSharedRoots(mlir::gpu::GPUFuncOp kernel, uint32_t bytesPushOffset);

/// After accesses are linearized onto the placeholder roots: rewrites them
/// into word accesses of the array, whose notional address (what
/// memref.extract_aligned_pointer_as_index returns) is `address`, and
/// erases the placeholders. Fails after a located diagnostic.
mlir::LogicalResult lowerDynamicSharedAccesses(DynamicSharedRoots &roots,
                                               int64_t address);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_DYNAMICWORKGROUPMEMORY_H
