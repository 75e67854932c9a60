//===----------------------------------------------------------------------===//
// The Vulkan loader, loaded at run time: libgpumem_vulkan_runtime.so does
// not link libvulkan, so it loads and builds on machines without Vulkan,
// and a missing driver is one clear error instead of a loader failure. The
// entry points are listed once, in VulkanSymbols.def, and resolved through
// vkGetInstanceProcAddr and vkGetDeviceProcAddr into one table, `vk`. The
// device the mgpu* calls use is in Device.h.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_LOADER_H
#define GPUMEM_RUNTIME_VULKAN_LOADER_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan_core.h>

#include "Fatal.h"

#include <vector>

namespace gpumem::vulkan {

using gpumem::runtime::fatal;

/// Every entry point of VulkanSymbols.def. Constant-initialized (all null):
/// global and instance members are set when the instance is created,
/// device members when the device is (Device.cpp), before either is
/// published.
struct Functions {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define GPUMEM_VK_FUNCTION(name) PFN_##name name = nullptr;
#include "VulkanSymbols.def"
};
extern Functions vk;

/// What the loader found: one instance and its physical devices.
struct Instance {
  /// What was dlopen'ed: $GPUMEM_VULKAN_LOADER, or libvulkan.so.1.
  const char *path = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  std::vector<VkPhysicalDevice> devices; ///< at least one
};

/// The instance, created on first use from any thread: dlopen, instance
/// entry points, vkCreateInstance (Vulkan 1.1), the physical devices.
/// Never exits: on failure returns null and sets `error` to one line.
const Instance *tryInstance(const char **error);

/// tryInstance, or exit with its error.
const Instance &instance();

/// "VK_ERROR_NAME" of `result`, or "VkResult N".
const char *describe(VkResult result);

/// Exits with "CALL failed: VK_ERROR_NAME" unless `result` is VK_SUCCESS.
void check(VkResult result, const char *call);

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_LOADER_H
