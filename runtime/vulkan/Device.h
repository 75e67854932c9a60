//===----------------------------------------------------------------------===//
// The one Vulkan device the mgpu* calls use: chosen and created on first
// use from any thread, never destroyed (the process's end reclaims it).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_DEVICE_H
#define GPUMEM_RUNTIME_VULKAN_DEVICE_H

#include "Loader.h"

namespace gpumem::vulkan {

struct Device {
  int index; ///< in vkEnumeratePhysicalDevices' order
  VkPhysicalDevice physical;
  VkDevice device;
  uint32_t queueFamily; ///< the first family with VK_QUEUE_COMPUTE_BIT
  VkQueue queue;        ///< its queue 0; every stream submits here
  VkPhysicalDeviceProperties properties; ///< limits included
  VkPhysicalDeviceMemoryProperties memory;
  /// VK_EXT_external_memory_host is enabled (mgpuMemHostRegister).
  bool hostImport;
  VkDeviceSize importAlignment; ///< minImportedHostPointerAlignment
  uint32_t subgroupSize;        ///< VkPhysicalDeviceSubgroupProperties'
  /// Compute pipelines may ask for a subgroup size
  /// (VK_EXT_subgroup_size_control), from min to max (both subgroupSize
  /// without it).
  bool subgroupSizeControl;
  uint32_t minSubgroupSize, maxSubgroupSize;
  /// Subgroups a block of a pipeline that asks for its size may have.
  uint32_t maxWorkgroupSubgroups;
  /// Compute pipelines may require full subgroups (computeFullSubgroups).
  bool fullSubgroups;
  /// mgpuMemAlloc gives device-local buffers the host reaches only through
  /// copies (discrete GPUs), rather than mapped host-visible ones: see
  /// Memory.cpp and $GPUMEM_VULKAN_MEMORY.
  bool stagedMemory;
  /// 8-bit integers in shaders (shaderInt8) and in storage buffers
  /// (storageBuffer8BitAccess) are enabled: modules that declare the
  /// Int8 or StorageBuffer8BitAccess capability need them.
  bool int8;
  bool storageBuffer8;
};

/// The device, created on first use: the index mgpuSetDefaultDevice gave,
/// else $GPUMEM_VULKAN_DEVICE, else the first device that is not a CPU
/// implementation, else the first one; exits on any failure. The device
/// has timeline semaphores (VK_KHR_timeline_semaphore), which streams are.
const Device &device();

/// True once the process has begun to exit (an atexit handler registered
/// when the device was created, which first waits for submitted work):
/// release calls from global destructors then do nothing, since the
/// Vulkan driver, dlopen'ed after the program, is finalized before them.
bool exiting();

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_DEVICE_H
