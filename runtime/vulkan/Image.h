//===----------------------------------------------------------------------===//
// Reading a gpumem Vulkan kernel image (gpumem/Runtime/VulkanKernelABI.h)
// into checked, aligned copies of its parts.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_IMAGE_H
#define GPUMEM_RUNTIME_VULKAN_IMAGE_H

#include "gpumem/Runtime/VulkanKernelABI.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::vulkan {

/// One kernel record.
struct KernelRecord {
  std::string name;
  GPUMemVulkanKernel header;
  std::vector<GPUMemVulkanParam> params;
};

/// A gpu.printf or cf.assert of the module (GPUMemVulkanSite).
struct Site {
  uint32_t kind;
  std::vector<uint32_t> argKinds;
  std::string text;
  std::string location;
};

/// An image whose every record was checked: see parseImage.
struct Image {
  std::vector<uint32_t> spirv;
  std::vector<KernelRecord> kernels;
  std::vector<Site> sites;
};

/// Copies and checks the image at `data`: header, sizes and bounds of
/// every record (the records end exactly at `size`), a SPIR-V module whose
/// GLCompute entry points include every kernel, unique kernel names, and
/// parameters that fit the kernel's push constants and bindings (every
/// binding is one BUFFER parameter, at most one BUFFER_OFFSET follows it,
/// no two push constant fields overlap the block size or each other), and
/// sites of known kinds.
/// Exits with "mgpuModuleLoad: malformed Vulkan kernel image ..." when any
/// check fails; never reads outside [data, data + size).
Image parseImage(const void *data, size_t size);

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_IMAGE_H
