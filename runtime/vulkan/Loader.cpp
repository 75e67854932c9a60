//===----------------------------------------------------------------------===//
// Loading Vulkan: dlopen of the loader, vkGetInstanceProcAddr by dlsym, the
// global and then the instance entry points through it, vkCreateInstance
// with API version 1.1 (for VK_KHR_external_memory and
// vkGetPhysicalDeviceProperties2, core there), and the list of physical
// devices. Done once, under the compiler's guard of a function-local
// static; the result (instance or error text) is never destroyed, so it is
// safe from the priority-123 constructors that load modules and from
// destructors at exit. Failure is reported to the caller, not fatal, so
// that gpumemVulkanDeviceKind can probe without exiting.
//===----------------------------------------------------------------------===//

#include "Loader.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

namespace gpumem::vulkan {

Functions vk;

namespace {

constexpr const char *defaultLoaderPath = "libvulkan.so.1";

struct Loaded {
  Instance *instance = nullptr;
  std::string error;
};

Loaded *load() {
  auto *loaded = new Loaded;
  auto fail = [&](std::string text) {
    loaded->error = std::move(text);
    return loaded;
  };
  const char *path = std::getenv("GPUMEM_VULKAN_LOADER");
  if (!path || !*path)
    path = defaultLoaderPath;
  dlerror();
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return fail(std::string("no Vulkan driver found (") + path +
                "): " + dlerror());
  vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(library, "vkGetInstanceProcAddr"));
  if (!vk.vkGetInstanceProcAddr)
    return fail(std::string("the Vulkan loader ") + path +
                " has no vkGetInstanceProcAddr");
#define GPUMEM_VK_GLOBAL(name)                                                 \
  vk.name = reinterpret_cast<PFN_##name>(                                      \
      vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name));
#include "VulkanSymbols.def"
  uint32_t version = VK_API_VERSION_1_0;
  if (vk.vkEnumerateInstanceVersion)
    vk.vkEnumerateInstanceVersion(&version);
  if (!vk.vkCreateInstance || version < VK_API_VERSION_1_1)
    return fail(std::string("the Vulkan loader ") + path + " supports Vulkan " +
                std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
                std::to_string(VK_API_VERSION_MINOR(version)) +
                "; gpumem needs Vulkan 1.1 or newer");

  VkApplicationInfo application{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  application.pApplicationName = "gpumem";
  application.pEngineName = "gpumem";
  application.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &application;
  VkInstance handle = VK_NULL_HANDLE;
  VkResult result = vk.vkCreateInstance(&info, nullptr, &handle);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    return fail(std::string("no Vulkan driver found: the loader ") + path +
                " has no installable client driver "
                "(vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER)");
  if (result != VK_SUCCESS)
    return fail(std::string("vkCreateInstance failed (loader ") + path +
                "): " + describe(result));
#define GPUMEM_VK_INSTANCE(name)                                               \
  vk.name =                                                                    \
      reinterpret_cast<PFN_##name>(vk.vkGetInstanceProcAddr(handle, #name));   \
  if (!vk.name)                                                                \
    return fail(std::string("the Vulkan loader ") + path + " has no " #name);
#include "VulkanSymbols.def"

  uint32_t count = 0;
  result = vk.vkEnumeratePhysicalDevices(handle, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  if (result == VK_SUCCESS && count)
    result = vk.vkEnumeratePhysicalDevices(handle, &count, devices.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE)
    return fail(std::string("vkEnumeratePhysicalDevices failed: ") +
                describe(result));
  devices.resize(count);
  if (devices.empty())
    return fail("no Vulkan device found");
  loaded->instance = new Instance{path, handle, std::move(devices)};
  return loaded;
}

Loaded &loaded() {
  static Loaded *once = load();
  return *once;
}

} // namespace

const Instance *tryInstance(const char **error) {
  Loaded &result = loaded();
  if (error)
    *error = result.error.c_str();
  return result.instance;
}

const Instance &instance() {
  const char *error = nullptr;
  const Instance *found = tryInstance(&error);
  if (!found)
    fatal("%s", error);
  return *found;
}

const char *describe(VkResult result) {
  switch (result) {
#define NAME(value)                                                            \
  case value:                                                                  \
    return #value;
    NAME(VK_SUCCESS)
    NAME(VK_NOT_READY)
    NAME(VK_TIMEOUT)
    NAME(VK_INCOMPLETE)
    NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    NAME(VK_ERROR_INITIALIZATION_FAILED)
    NAME(VK_ERROR_DEVICE_LOST)
    NAME(VK_ERROR_MEMORY_MAP_FAILED)
    NAME(VK_ERROR_LAYER_NOT_PRESENT)
    NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    NAME(VK_ERROR_TOO_MANY_OBJECTS)
    NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    NAME(VK_ERROR_FRAGMENTED_POOL)
    NAME(VK_ERROR_UNKNOWN)
    NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    NAME(VK_ERROR_FRAGMENTATION)
    NAME(VK_ERROR_INVALID_SHADER_NV)
#undef NAME
  default: {
    static thread_local char text[32];
    std::snprintf(text, sizeof(text), "VkResult %d", int(result));
    return text;
  }
  }
}

void check(VkResult result, const char *call) {
  if (result != VK_SUCCESS)
    fatal("%s failed: %s", call, describe(result));
}

} // namespace gpumem::vulkan
