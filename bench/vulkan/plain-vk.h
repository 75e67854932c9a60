// A plain Vulkan host for the benchmarks, shared by plain-launch.cpp and
// plain-kernels.cpp: libvulkan.so.1 opened with dlopen (never linked), one
// instance, the first device with a compute queue (a GPU before a CPU
// device, as gpumem's runtime chooses), one queue, host-visible coherent
// buffers mapped for their whole life, and a compute pipeline made from a
// SPIR-V file with `bindings` storage buffers at set 0 and `pushBytes` of
// push constants (specialization constants 0-2 set to the block size when
// the shader declares them). Errors print and exit.
#pragma once
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

// clang-format off
#define VK_FUNCTIONS(X)                                                        \
  X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)               \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                  \
  X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice)                     \
  X(vkGetDeviceProcAddr)
#define VK_DEVICE_FUNCTIONS(X)                                                 \
  X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkGetBufferMemoryRequirements)       \
  X(vkAllocateMemory) X(vkBindBufferMemory) X(vkMapMemory)                     \
  X(vkCreateShaderModule) X(vkCreateDescriptorSetLayout)                       \
  X(vkCreatePipelineLayout) X(vkCreateComputePipelines)                        \
  X(vkCreateDescriptorPool) X(vkDestroyDescriptorPool)                         \
  X(vkAllocateDescriptorSets) X(vkUpdateDescriptorSets)                        \
  X(vkCreateCommandPool) X(vkAllocateCommandBuffers) X(vkFreeCommandBuffers)   \
  X(vkResetCommandBuffer) X(vkBeginCommandBuffer) X(vkEndCommandBuffer)        \
  X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets) X(vkCmdPushConstants)        \
  X(vkCmdDispatch) X(vkCmdPipelineBarrier) X(vkCreateFence)                    \
  X(vkDestroyFence) X(vkResetFences) X(vkGetFenceStatus) X(vkQueueSubmit)      \
  X(vkWaitForFences) X(vkCreateSemaphore) X(vkWaitSemaphoresKHR)               \
  X(vkGetSemaphoreCounterValueKHR)
// clang-format on

#define VK_DECLARE(name) static PFN_##name name;
VK_DECLARE(vkGetInstanceProcAddr)
VK_DECLARE(vkCreateInstance)
VK_FUNCTIONS(VK_DECLARE)
VK_DEVICE_FUNCTIONS(VK_DECLARE)

[[noreturn]] inline void die(const char *what) {
  std::fprintf(stderr, "plain vulkan: %s\n", what);
  std::exit(1);
}
inline void check(VkResult result, const char *what) {
  if (result != VK_SUCCESS) {
    std::fprintf(stderr, "plain vulkan: %s failed (%d)\n", what, int(result));
    std::exit(1);
  }
}
inline double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Context {
  VkDevice device;
  VkQueue queue;
  uint32_t family;
  VkPhysicalDeviceMemoryProperties memory;
  VkCommandPool commandPool;
  std::string name;
};

inline Context createContext() {
  void *library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    die(dlerror());
  vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
      dlsym(library, "vkGetInstanceProcAddr"));
  vkCreateInstance = reinterpret_cast<PFN_vkCreateInstance>(
      vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance"));
  VkApplicationInfo application{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  application.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &application;
  VkInstance instance;
  check(vkCreateInstance(&instanceInfo, nullptr, &instance),
        "vkCreateInstance");
#define VK_LOAD(name)                                                          \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));
  VK_FUNCTIONS(VK_LOAD)
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  Context context{};
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  for (int pass = 0; pass < 2 && !physical; ++pass)
    for (VkPhysicalDevice candidate : devices) {
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(candidate, &properties);
      bool cpu = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
      if (cpu != (pass == 1))
        continue;
      uint32_t families = 0;
      vkGetPhysicalDeviceQueueFamilyProperties(candidate, &families, nullptr);
      std::vector<VkQueueFamilyProperties> props(families);
      vkGetPhysicalDeviceQueueFamilyProperties(candidate, &families,
                                               props.data());
      for (uint32_t f = 0; f < families && !physical; ++f)
        if (props[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
          physical = candidate;
          context.family = f;
          context.name = properties.deviceName;
        }
      if (physical)
        break;
    }
  if (!physical)
    die("no Vulkan device with a compute queue");
  vkGetPhysicalDeviceMemoryProperties(physical, &context.memory);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = context.family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  // Timeline semaphores, as gpumem's runtime enables them (per-launch mode
  // of plain-launch.cpp waits on one).
  const char *timelineExtension = VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME;
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  timeline.timelineSemaphore = VK_TRUE;
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.pNext = &timeline;
  deviceInfo.enabledExtensionCount = 1;
  deviceInfo.ppEnabledExtensionNames = &timelineExtension;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  check(vkCreateDevice(physical, &deviceInfo, nullptr, &context.device),
        "vkCreateDevice");
#define VK_LOAD_DEVICE(name)                                                   \
  name = reinterpret_cast<PFN_##name>(                                         \
      vkGetDeviceProcAddr(context.device, #name));
  VK_DEVICE_FUNCTIONS(VK_LOAD_DEVICE)
  vkGetDeviceQueue(context.device, context.family, 0, &context.queue);
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT |
                   VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = context.family;
  check(vkCreateCommandPool(context.device, &poolInfo, nullptr,
                            &context.commandPool),
        "vkCreateCommandPool");
  return context;
}

struct Buffer {
  VkBuffer buffer;
  float *data;
};

inline Buffer createBuffer(const Context &context, size_t floats) {
  Buffer result;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = floats * sizeof(float);
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  check(vkCreateBuffer(context.device, &info, nullptr, &result.buffer),
        "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(context.device, result.buffer, &requirements);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (type < context.memory.memoryTypeCount &&
         (!(requirements.memoryTypeBits & (1u << type)) ||
          (context.memory.memoryTypes[type].propertyFlags & wanted) != wanted))
    ++type;
  if (type == context.memory.memoryTypeCount)
    die("no host-visible coherent memory");
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  VkDeviceMemory memory;
  check(vkAllocateMemory(context.device, &allocate, nullptr, &memory),
        "vkAllocateMemory");
  check(vkBindBufferMemory(context.device, result.buffer, memory, 0),
        "vkBindBufferMemory");
  void *mapped;
  check(vkMapMemory(context.device, memory, 0, VK_WHOLE_SIZE, 0, &mapped),
        "vkMapMemory");
  result.data = static_cast<float *>(mapped);
  return result;
}

struct Pipeline {
  VkDescriptorSetLayout setLayout;
  VkPipelineLayout layout;
  VkPipeline pipeline;
};

inline Pipeline createPipeline(const Context &context, const char *spirvPath,
                               const char *entry, uint32_t bindings,
                               uint32_t pushBytes, const uint32_t block[3]) {
  std::ifstream file(spirvPath, std::ios::binary);
  std::vector<char> bytes{std::istreambuf_iterator<char>(file), {}};
  if (bytes.empty() || bytes.size() % 4)
    die("cannot read the SPIR-V file");
  VkShaderModuleCreateInfo moduleInfo{
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  moduleInfo.codeSize = bytes.size();
  moduleInfo.pCode = reinterpret_cast<const uint32_t *>(bytes.data());
  VkShaderModule module;
  check(vkCreateShaderModule(context.device, &moduleInfo, nullptr, &module),
        "vkCreateShaderModule");
  Pipeline result;
  std::vector<VkDescriptorSetLayoutBinding> layoutBindings(bindings);
  for (uint32_t b = 0; b < bindings; ++b)
    layoutBindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                         VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo setInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = bindings;
  setInfo.pBindings = layoutBindings.data();
  check(vkCreateDescriptorSetLayout(context.device, &setInfo, nullptr,
                                    &result.setLayout),
        "vkCreateDescriptorSetLayout");
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
  VkPipelineLayoutCreateInfo layoutInfo{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &result.setLayout;
  layoutInfo.pushConstantRangeCount = pushBytes ? 1 : 0;
  layoutInfo.pPushConstantRanges = &push;
  check(vkCreatePipelineLayout(context.device, &layoutInfo, nullptr,
                               &result.layout),
        "vkCreatePipelineLayout");
  VkSpecializationMapEntry entries[3];
  for (uint32_t i = 0; i < 3; ++i)
    entries[i] = {i, i * 4, 4};
  VkSpecializationInfo specialization{3, entries, 12, block};
  VkComputePipelineCreateInfo info{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = entry;
  info.stage.pSpecializationInfo = &specialization;
  info.layout = result.layout;
  check(vkCreateComputePipelines(context.device, VK_NULL_HANDLE, 1, &info,
                                 nullptr, &result.pipeline),
        "vkCreateComputePipelines");
  return result;
}

/// Writes `buffers` to bindings 0.. of `set`.
inline void writeSet(const Context &context, VkDescriptorSet set,
                     const std::vector<VkBuffer> &buffers) {
  std::vector<VkDescriptorBufferInfo> infos;
  std::vector<VkWriteDescriptorSet> writes(buffers.size());
  for (VkBuffer buffer : buffers)
    infos.push_back({buffer, 0, VK_WHOLE_SIZE});
  for (uint32_t b = 0; b < buffers.size(); ++b) {
    writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[b].dstSet = set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &infos[b];
  }
  vkUpdateDescriptorSets(context.device, uint32_t(writes.size()), writes.data(),
                         0, nullptr);
}

/// A descriptor pool for one set of `bindings` storage buffers, and the set.
inline VkDescriptorPool allocateSet(const Context &context,
                                    const Pipeline &pipeline, uint32_t bindings,
                                    VkDescriptorSet &set) {
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, bindings};
  VkDescriptorPoolCreateInfo poolInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &size;
  VkDescriptorPool pool;
  check(vkCreateDescriptorPool(context.device, &poolInfo, nullptr, &pool),
        "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo info{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorPool = pool;
  info.descriptorSetCount = 1;
  info.pSetLayouts = &pipeline.setLayout;
  check(vkAllocateDescriptorSets(context.device, &info, &set),
        "vkAllocateDescriptorSets");
  return pool;
}

/// One primary command buffer from the context's pool.
inline VkCommandBuffer allocateCommands(const Context &context) {
  VkCommandBufferAllocateInfo info{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = context.commandPool;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  VkCommandBuffer commands;
  check(vkAllocateCommandBuffers(context.device, &info, &commands),
        "vkAllocateCommandBuffers");
  return commands;
}

inline void memoryBarrier(VkCommandBuffer commands, VkPipelineStageFlags from,
                          VkAccessFlags fromAccess, VkPipelineStageFlags to,
                          VkAccessFlags toAccess) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = fromAccess;
  barrier.dstAccessMask = toAccess;
  vkCmdPipelineBarrier(commands, from, to, 0, 1, &barrier, 0, nullptr, 0,
                       nullptr);
}

/// Records into `commands` (begun and ended here): bind pipeline, bind
/// set, push constants, dispatch, and the compute to host barrier that
/// makes the kernel's writes visible to the host after the wait.
inline void recordDispatch(VkCommandBuffer commands, const Pipeline &pipeline,
                           VkDescriptorSet set, const void *push,
                           uint32_t pushBytes, const uint32_t grid[3]) {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                    pipeline.pipeline);
  vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                          pipeline.layout, 0, 1, &set, 0, nullptr);
  if (pushBytes)
    vkCmdPushConstants(commands, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT,
                       0, pushBytes, push);
  vkCmdDispatch(commands, grid[0], grid[1], grid[2]);
  memoryBarrier(commands,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT);
  check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
}

/// Submits `commands` with `fence` (unsignaled) and waits for it.
inline void submitAndWait(const Context &context, VkCommandBuffer commands,
                          VkFence fence) {
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  check(vkQueueSubmit(context.queue, 1, &submit, fence), "vkQueueSubmit");
  check(vkWaitForFences(context.device, 1, &fence, VK_TRUE, UINT64_MAX),
        "vkWaitForFences");
}
