//===----------------------------------------------------------------------===//
// The #gpumem.vulkan target attribute's serialization
// (gpu::TargetAttrInterface), attached to the attribute as an external model,
// as upstream attaches #nvvm.target's in mlir/Target/LLVM/NVVM/Target.h.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_VULKAN_TARGET_H
#define GPUMEM_TARGET_VULKAN_TARGET_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace gpumem {

/// Makes #gpumem.vulkan serialize gpu.modules in every context `registry` is
/// appended to.
void registerVulkanTargetInterfaceExternalModels(
    mlir::DialectRegistry &registry);

} // namespace gpumem

#endif // GPUMEM_TARGET_VULKAN_TARGET_H
