//===----------------------------------------------------------------------===//
// Choosing and creating the Vulkan device, and the probes the tools use
// (gpumemVulkanDeviceKind, gpumemVulkanSubgroupSize, gpumemVulkanDeviceName,
// gpumemVulkanMaxSharedMemory).
//
// The choice: mgpuSetDefaultDevice's index when it came before the first
// use, else $GPUMEM_VULKAN_DEVICE, else the first device with a compute
// queue that is not VK_PHYSICAL_DEVICE_TYPE_CPU, else the first CPU one
// (lavapipe). The device gets one queue of the first compute family,
// timeline semaphores (required: streams are made of them) and
// VK_EXT_external_memory_host when it has it. Whether its allocations are
// staged is decided here too (chooseStagedMemory). It is published through an
// atomic pointer after its entry points are in `vk`, as in the CUDA
// runtime's Device.cpp; a mutex serialises the choice with
// mgpuSetDefaultDevice. Everything here is constant-initialized.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Queue.h"
#include "VulkanRuntime.h"

#include "gpumem/Runtime/TargetSelection.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

using namespace gpumem::vulkan;

namespace {

std::mutex choosing;
std::atomic<Device *> chosen{nullptr};
std::atomic<bool> processExiting{false};
/// mgpuSetDefaultDevice's index before the device was chosen; -1 if none.
int requested = -1;

bool hasComputeQueue(VkPhysicalDevice physical, uint32_t *family) {
  uint32_t count = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count,
                                              families.data());
  for (uint32_t i = 0; i < count; ++i)
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
        families[i].queueCount > 0) {
      if (family)
        *family = i;
      return true;
    }
  return false;
}

VkPhysicalDeviceType typeOf(VkPhysicalDevice physical) {
  VkPhysicalDeviceProperties properties;
  vk.vkGetPhysicalDeviceProperties(physical, &properties);
  return properties.deviceType;
}

/// The index of the device to use, or -1 with `error` set. Never exits.
int choose(const Instance &found, std::string &error) {
  int count = int(found.devices.size());
  if (requested >= 0)
    return requested;
  const char *text = std::getenv("GPUMEM_VULKAN_DEVICE");
  if (text && *text) {
    errno = 0;
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (*text < '0' || *text > '9' || *end != '\0' || errno != 0 ||
        value >= count) {
      error = "GPUMEM_VULKAN_DEVICE must be a device index in 0.." +
              std::to_string(count - 1) + ", not '" + text + "'";
      return -1;
    }
    return int(value);
  }
  int cpu = -1;
  for (int i = 0; i < count; ++i) {
    if (!hasComputeQueue(found.devices[i], nullptr))
      continue;
    if (typeOf(found.devices[i]) != VK_PHYSICAL_DEVICE_TYPE_CPU)
      return i;
    if (cpu < 0)
      cpu = i;
  }
  if (cpu < 0)
    error = "no Vulkan device with a compute queue found";
  return cpu;
}

bool hasExtension(VkPhysicalDevice physical, const char *name) {
  uint32_t count = 0;
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vk.vkEnumerateDeviceExtensionProperties(physical, nullptr, &count,
                                          extensions.data());
  for (const VkExtensionProperties &extension : extensions)
    if (std::strcmp(extension.extensionName, name) == 0)
      return true;
  return false;
}

/// Whether allocations are staged (Device::stagedMemory): as
/// $GPUMEM_VULKAN_MEMORY says (`mapped` or `staged`), else staged on a
/// discrete GPU unless one of its host-visible memory types is in its
/// largest device-local heap (resizable BAR), where mapping costs nothing.
bool chooseStagedMemory(const Device &device) {
  const char *mode = std::getenv("GPUMEM_VULKAN_MEMORY");
  if (mode && *mode && std::strcmp(mode, "auto") != 0) {
    if (std::strcmp(mode, "staged") == 0)
      return true;
    if (std::strcmp(mode, "mapped") == 0)
      return false;
    fatal("GPUMEM_VULKAN_MEMORY must be 'mapped', 'staged' or 'auto', not "
          "'%s'",
          mode);
  }
  if (device.properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)
    return false;
  const VkPhysicalDeviceMemoryProperties &memory = device.memory;
  int largest = -1;
  for (uint32_t h = 0; h < memory.memoryHeapCount; ++h)
    if ((memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
        (largest < 0 ||
         memory.memoryHeaps[h].size > memory.memoryHeaps[largest].size))
      largest = int(h);
  constexpr VkMemoryPropertyFlags mapped = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((memory.memoryTypes[i].propertyFlags & mapped) == mapped &&
        int(memory.memoryTypes[i].heapIndex) == largest)
      return false;
  return true;
}

/// `extension`, a Vk*Features or Vk*Properties structure of `physical`
/// with its sType set, filled in by vkGetPhysicalDevice{Features,
/// Properties}2, and with a null pNext (ready to chain).
template <typename Extension>
Extension query(VkPhysicalDevice physical, Extension extension) {
  constexpr bool features =
      std::is_same_v<Extension, VkPhysicalDeviceTimelineSemaphoreFeatures> ||
      std::is_same_v<Extension,
                     VkPhysicalDeviceSubgroupSizeControlFeaturesEXT> ||
      std::is_same_v<Extension, VkPhysicalDeviceShaderFloat16Int8Features> ||
      std::is_same_v<Extension, VkPhysicalDevice8BitStorageFeatures>;
  if constexpr (features) {
    VkPhysicalDeviceFeatures2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    all.pNext = &extension;
    vk.vkGetPhysicalDeviceFeatures2(physical, &all);
  } else {
    VkPhysicalDeviceProperties2 all{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    all.pNext = &extension;
    vk.vkGetPhysicalDeviceProperties2(physical, &all);
  }
  extension.pNext = nullptr;
  return extension;
}

void onExit() {
  processExiting.store(true, std::memory_order_release);
  drainAtExit();
}

Device *create(const Instance &found, int index) {
  auto *device = new Device{};
  device->index = index;
  device->physical = found.devices[index];
  vk.vkGetPhysicalDeviceProperties(device->physical, &device->properties);
  vk.vkGetPhysicalDeviceMemoryProperties(device->physical, &device->memory);
  const char *name = device->properties.deviceName;
  if (device->properties.apiVersion < VK_API_VERSION_1_1)
    fatal("Vulkan device %d (%s) supports Vulkan %u.%u; gpumem needs 1.1 or "
          "newer",
          index, name, VK_API_VERSION_MAJOR(device->properties.apiVersion),
          VK_API_VERSION_MINOR(device->properties.apiVersion));
  if (!hasComputeQueue(device->physical, &device->queueFamily))
    fatal("Vulkan device %d (%s) has no compute queue", index, name);
  // Mapped allocations, staging buffers and diagnostics buffers are
  // host-visible memory (see Memory.cpp).
  constexpr VkMemoryPropertyFlags shared = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  bool hasShared = false;
  for (uint32_t i = 0; i < device->memory.memoryTypeCount; ++i)
    hasShared |=
        (device->memory.memoryTypes[i].propertyFlags & shared) == shared;
  if (!hasShared)
    fatal("Vulkan device %d (%s) has no host-visible, host-coherent memory "
          "type, which gpumem's Vulkan runtime allocates from",
          index, name);
  device->stagedMemory = chooseStagedMemory(*device);

  // Streams are timeline semaphores.
  if (!hasExtension(device->physical, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME))
    fatal(
        "Vulkan device %d (%s) lacks " VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME
        ", which gpumem's streams are made of",
        index, name);
  auto timeline =
      query(device->physical,
            VkPhysicalDeviceTimelineSemaphoreFeatures{
                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES});
  if (!timeline.timelineSemaphore)
    fatal("Vulkan device %d (%s) has no timeline semaphores, which gpumem's "
          "streams are made of",
          index, name);

  std::vector<const char *> extensions = {
      VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME};
  device->hostImport = hasExtension(device->physical,
                                    VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (device->hostImport) {
    extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
    device->importAlignment =
        query(
            device->physical,
            VkPhysicalDeviceExternalMemoryHostPropertiesEXT{
                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT})
            .minImportedHostPointerAlignment;
  }
  device->subgroupSize =
      query(device->physical,
            VkPhysicalDeviceSubgroupProperties{
                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES})
          .subgroupSize;
  device->minSubgroupSize = device->maxSubgroupSize = device->subgroupSize;
  device->subgroupSizeControl = device->fullSubgroups = false;
  device->maxWorkgroupSubgroups = 0;
  // Kernels compiled for another subgroup size than the default ask for
  // theirs where the device lets compute pipelines choose.
  VkPhysicalDeviceSubgroupSizeControlFeaturesEXT sizeControl{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT};
  if (hasExtension(device->physical,
                   VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME)) {
    auto sizes = query(
        device->physical,
        VkPhysicalDeviceSubgroupSizeControlPropertiesEXT{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES_EXT});
    sizeControl = query(device->physical, sizeControl);
    if (sizeControl.subgroupSizeControl &&
        (sizes.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
      extensions.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
      device->subgroupSizeControl = true;
      device->minSubgroupSize = sizes.minSubgroupSize;
      device->maxSubgroupSize = sizes.maxSubgroupSize;
      device->fullSubgroups = sizeControl.computeFullSubgroups;
      device->maxWorkgroupSubgroups = sizes.maxComputeWorkgroupSubgroups;
      timeline.pNext = &sizeControl;
    }
  }
  // 8-bit integers in shaders and storage buffers, where the device has
  // them (Vulkan 1.2 or its two extensions); modules that need them are
  // refused on a device without (ModuleLoader.cpp).
  VkPhysicalDeviceShaderFloat16Int8Features int8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDevice8BitStorageFeatures storage8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  device->int8 = device->storageBuffer8 = false;
  if (hasExtension(device->physical,
                   VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME) &&
      hasExtension(device->physical, VK_KHR_8BIT_STORAGE_EXTENSION_NAME)) {
    int8 = query(device->physical, int8);
    storage8 = query(device->physical, storage8);
    VkPhysicalDeviceShaderFloat16Int8Features wantInt8{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
    wantInt8.shaderInt8 = int8.shaderInt8;
    VkPhysicalDevice8BitStorageFeatures wantStorage8{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
    wantStorage8.storageBuffer8BitAccess = storage8.storageBuffer8BitAccess;
    int8 = wantInt8;
    storage8 = wantStorage8;
    device->int8 = int8.shaderInt8;
    device->storageBuffer8 = storage8.storageBuffer8BitAccess;
    extensions.push_back(VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);
    extensions.push_back(VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
    // Chained after the features already in the create info's chain.
    storage8.pNext = timeline.pNext;
    int8.pNext = &storage8;
    timeline.pNext = &int8;
  }
  // The 64- and 16-bit types the vulkan target's capabilities allow, where
  // the device has them (a kernel using one it lacks fails to compile in
  // the driver).
  VkPhysicalDeviceFeatures supported{};
  vk.vkGetPhysicalDeviceFeatures(device->physical, &supported);
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderInt64 = supported.shaderInt64;
  enabled.shaderFloat64 = supported.shaderFloat64;
  enabled.shaderInt16 = supported.shaderInt16;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = device->queueFamily;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  // The feature queries' answers, chained: what the device has is enabled.
  info.pNext = &timeline;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.pEnabledFeatures = &enabled;
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkResult result =
      vk.vkCreateDevice(device->physical, &info, nullptr, &device->device);
  if (result != VK_SUCCESS)
    fatal("vkCreateDevice failed for Vulkan device %d (%s): %s", index, name,
          describe(result));
#define GPUMEM_VK_DEVICE(symbol)                                               \
  vk.symbol = reinterpret_cast<PFN_##symbol>(                                  \
      vk.vkGetDeviceProcAddr(device->device, #symbol));                        \
  if (!vk.symbol)                                                              \
    fatal("the Vulkan driver of device %d (%s) has no " #symbol, index, name);
#define GPUMEM_VK_DEVICE_OPTIONAL(symbol)                                      \
  vk.symbol = reinterpret_cast<PFN_##symbol>(                                  \
      vk.vkGetDeviceProcAddr(device->device, #symbol));
#include "VulkanSymbols.def"
  if (!vk.vkGetMemoryHostPointerPropertiesEXT)
    device->hostImport = false;
  vk.vkGetDeviceQueue(device->device, device->queueFamily, 0, &device->queue);
  std::atexit(onExit);
  return device;
}

} // namespace

namespace gpumem::vulkan {

const Device &device() {
  if (Device *current = chosen.load(std::memory_order_acquire))
    return *current;
  const Instance &found = instance();
  std::lock_guard<std::mutex> lock(choosing);
  Device *current = chosen.load(std::memory_order_relaxed);
  if (!current) {
    std::string error;
    int index = choose(found, error);
    if (index < 0)
      fatal("%s", error.c_str());
    current = create(found, index);
    chosen.store(current, std::memory_order_release);
  }
  return *current;
}

bool exiting() { return processExiting.load(std::memory_order_acquire); }

} // namespace gpumem::vulkan

namespace {

/// The index of the device the runtime uses, or would choose, if it has a
/// compute queue; -1 otherwise. Never exits; the caller holds `choosing`.
int probedIndex(const Instance &found) {
  if (Device *current = chosen.load(std::memory_order_relaxed))
    return current->index;
  std::string error;
  int index = choose(found, error);
  return index >= 0 && hasComputeQueue(found.devices[index], nullptr) ? index
                                                                      : -1;
}

/// The physical device gpumem would use here, or null. Never exits.
VkPhysicalDevice probedDevice() {
  const Instance *found = tryInstance(nullptr);
  if (!found)
    return VK_NULL_HANDLE;
  std::lock_guard<std::mutex> lock(choosing);
  int index = probedIndex(*found);
  return index < 0 ? VK_NULL_HANDLE : found->devices[index];
}

} // namespace

extern "C" int gpumemVulkanDeviceKind(void) {
  VkPhysicalDevice physical = probedDevice();
  if (!physical)
    return 0;
  return typeOf(physical) == VK_PHYSICAL_DEVICE_TYPE_CPU ? 1 : 2;
}

extern "C" int gpumemVulkanSubgroupSize(void) {
  VkPhysicalDevice physical = probedDevice();
  if (!physical)
    return 0;
  return int(query(physical,
                   VkPhysicalDeviceSubgroupProperties{
                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES})
                 .subgroupSize);
}

extern "C" size_t gpumemVulkanDeviceName(char *buffer, size_t size) {
  VkPhysicalDevice physical = probedDevice();
  if (!physical)
    return 0;
  VkPhysicalDeviceProperties properties;
  vk.vkGetPhysicalDeviceProperties(physical, &properties);
  size_t length = strnlen(properties.deviceName, sizeof(properties.deviceName));
  if (size > 0) {
    size_t copied = length < size - 1 ? length : size - 1;
    std::memcpy(buffer, properties.deviceName, copied);
    buffer[copied] = '\0';
  }
  return length;
}

extern "C" int64_t gpumemVulkanMaxSharedMemory(void) {
  VkPhysicalDevice physical = probedDevice();
  if (!physical)
    return 0;
  VkPhysicalDeviceProperties properties;
  vk.vkGetPhysicalDeviceProperties(physical, &properties);
  return int64_t(properties.limits.maxComputeSharedMemorySize);
}

extern "C" void mgpuSetDefaultDevice(int32_t index) {
  const Instance &found = instance();
  int count = int(found.devices.size());
  if (index < 0 || index >= count)
    fatal("mgpuSetDefaultDevice(%d): no such device; this machine has %d "
          "Vulkan device%s (indices 0..%d)",
          index, count, count == 1 ? "" : "s", count - 1);
  std::lock_guard<std::mutex> lock(choosing);
  if (Device *current = chosen.load(std::memory_order_relaxed)) {
    if (current->index != index)
      fatal("mgpuSetDefaultDevice(%d): the runtime already uses device %d, "
            "chosen at its first call (modules are loaded before main "
            "runs); set GPUMEM_VULKAN_DEVICE=%d to choose the device before "
            "that",
            index, current->index, index);
    return;
  }
  requested = index;
}

extern "C" int gpumemRuntimeProbe(char *detail, size_t size) {
  const char *error = nullptr;
  if (!tryInstance(&error)) {
    snprintf(detail, size, "%s", error ? error : "no Vulkan driver found");
    return GPUMEM_DEVICE_NONE;
  }
  int kind = gpumemVulkanDeviceKind();
  if (kind == 0) {
    snprintf(detail, size, "no Vulkan device with a compute queue found");
    return GPUMEM_DEVICE_NONE;
  }
  char name[256] = "";
  gpumemVulkanDeviceName(name, sizeof(name));
  snprintf(detail, size, "Vulkan %s \"%s\"",
           kind == 2 ? "GPU" : "CPU implementation", name);
  return kind == 2 ? GPUMEM_DEVICE_GPU : GPUMEM_DEVICE_CPU;
}
