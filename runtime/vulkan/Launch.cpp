//===----------------------------------------------------------------------===//
// mgpuLaunchKernel on Vulkan: check the launch against the device's limits
// (each violation an error naming the kernel and the limit), build the
// push constant block (the block size, then every parameter as its record
// in the image says: see gpumem/Runtime/VulkanKernelABI.h), bind the
// buffer of every memref to its binding in one descriptor set (from a pool
// of its own, freed with the submission) and push the memref's offset from
// that buffer's start (the element count from the buffer to the aligned
// pointer, plus the memref's offset), get the pipeline specialized to
// the block size and dynamic shared words, record one dispatch and submit
// it (Queue.h). A kernel that prints or asserts also gets a diagnostics
// buffer (set 1), reported when the submission retires (Diagnostics.h).
// The launch does not wait for the kernel.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Diagnostics.h"
#include "LaunchLocation.h"
#include "Memory.h"
#include "Module.h"
#include "Queue.h"
#include "VulkanRuntime.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

using namespace gpumem::vulkan;

namespace {

/// Checks block, grid and sizes against the device; the words of dynamic
/// shared memory the pipeline gets (0 for kernels without the array).
uint32_t checkLimits(const Kernel &kernel, const int64_t grid[3],
                     const int64_t block[3], int32_t smem,
                     const VkPhysicalDeviceLimits &limits) {
  const char *name = kernel.record.name.c_str();
  const GPUMemVulkanKernel &header = kernel.record.header;
  if (block[0] < 1 || block[1] < 1 || block[2] < 1)
    fatal("kernel '%s': a block of %lld x %lld x %lld threads: every "
          "dimension must be at least 1",
          name, (long long)block[0], (long long)block[1], (long long)block[2]);
  if (grid[0] < 1 || grid[1] < 1 || grid[2] < 1)
    fatal("kernel '%s': a grid of %lld x %lld x %lld blocks: every dimension "
          "must be at least 1",
          name, (long long)grid[0], (long long)grid[1], (long long)grid[2]);
  for (int d = 0; d < 3; ++d)
    if (block[d] > int64_t(limits.maxComputeWorkGroupSize[d]))
      fatal("kernel '%s': a block of %lld x %lld x %lld threads exceeds the "
            "device's maxComputeWorkGroupSize of %u x %u x %u",
            name, (long long)block[0], (long long)block[1], (long long)block[2],
            limits.maxComputeWorkGroupSize[0],
            limits.maxComputeWorkGroupSize[1],
            limits.maxComputeWorkGroupSize[2]);
  // Each dimension fits 32 bits now, so the product fits 64.
  int64_t threads = block[0] * block[1] * block[2];
  if (threads > int64_t(limits.maxComputeWorkGroupInvocations))
    fatal("kernel '%s': a block of %lld x %lld x %lld = %lld threads exceeds "
          "the device's maxComputeWorkGroupInvocations of %u",
          name, (long long)block[0], (long long)block[1], (long long)block[2],
          (long long)threads, limits.maxComputeWorkGroupInvocations);
  for (int d = 0; d < 3; ++d)
    if (grid[d] > int64_t(limits.maxComputeWorkGroupCount[d]))
      fatal("kernel '%s': a grid of %lld x %lld x %lld blocks exceeds the "
            "device's maxComputeWorkGroupCount of %u x %u x %u",
            name, (long long)grid[0], (long long)grid[1], (long long)grid[2],
            limits.maxComputeWorkGroupCount[0],
            limits.maxComputeWorkGroupCount[1],
            limits.maxComputeWorkGroupCount[2]);
  uint32_t subgroupSize = compiledSubgroupSize(kernel);
  const Device &current = device();
  if (subgroupSize && subgroupSize != current.subgroupSize &&
      (!current.subgroupSizeControl || subgroupSize < current.minSubgroupSize ||
       subgroupSize > current.maxSubgroupSize)) {
    if (current.minSubgroupSize == current.maxSubgroupSize)
      fatal("kernel '%s' was compiled for subgroups of %u threads, but this "
            "device's subgroups have %u (compile with --subgroup-size=%u, "
            "the pipeline option subgroup-size, and shuffle widths to match)",
            name, subgroupSize, current.subgroupSize, current.subgroupSize);
    fatal("kernel '%s' was compiled for subgroups of %u threads, but this "
          "device's subgroups have %u to %u (compile with --subgroup-size, "
          "the pipeline option subgroup-size, and shuffle widths to match)",
          name, subgroupSize, current.minSubgroupSize, current.maxSubgroupSize);
  }
  if (subgroupSize && subgroupSize != current.subgroupSize &&
      !asksForSubgroupSize(kernel, uint64_t(threads)))
    fatal("kernel '%s': a block of %lld threads in subgroups of %u is %lld "
          "subgroups; the device allows at most %u per block when a kernel "
          "asks for its subgroup size (maxComputeWorkgroupSubgroups)",
          name, (long long)threads, subgroupSize,
          (long long)((threads + subgroupSize - 1) / subgroupSize),
          current.maxWorkgroupSubgroups);
  if (smem < 0)
    fatal("kernel '%s': negative dynamic shared memory size %d", name, smem);
  bool dynamic = header.flags & GPUMEM_VULKAN_DYNAMIC_SHARED;
  // The array has at least one word (SPIR-V arrays are not empty).
  uint32_t words =
      dynamic ? std::max<uint32_t>(1, (uint32_t(smem) + 3) / 4) : 0;
  int64_t dynamicBytes = dynamic ? int64_t(words) * 4 : smem;
  int64_t total = int64_t(header.staticSharedBytes) + dynamicBytes;
  if (total > int64_t(limits.maxComputeSharedMemorySize))
    fatal("kernel '%s' asks for %lld bytes of shared memory (%u static + "
          "%lld dynamic); the device allows at most %u per block "
          "(maxComputeSharedMemorySize)",
          name, (long long)total, header.staticSharedBytes,
          (long long)dynamicBytes, limits.maxComputeSharedMemorySize);
  if (header.pushConstantBytes > limits.maxPushConstantsSize)
    fatal("kernel '%s' takes %u bytes of push constants; the device allows "
          "at most %u (maxPushConstantsSize)",
          name, header.pushConstantBytes, limits.maxPushConstantsSize);
  return words;
}

/// `value` as the kernel's 32-bit index, or an error.
int32_t toIndex(const Kernel &kernel, size_t param, int64_t value,
                const char *what) {
  if (value < INT32_MIN || value > INT32_MAX)
    fatal("kernel '%s' parameter %zu: %s %lld does not fit the kernel's "
          "32-bit index type",
          kernel.record.name.c_str(), param, what, (long long)value);
  return int32_t(value);
}

/// The buffer of memref parameter `param`'s aligned pointer: the one
/// holding the pointer, else the one holding the memref's first element
/// (`offset` elements on; host memory registered with
/// mgpuMemHostRegisterMemRef begins there), or an error.
BufferAt locate(const Kernel &kernel, size_t param, void *pointer,
                int64_t offset, uint32_t elementBytes) {
  BufferAt at;
  if (findBuffer(pointer, at))
    return at;
  int64_t firstByte;
  if (!__builtin_mul_overflow(offset, int64_t(elementBytes), &firstByte) &&
      findBuffer(reinterpret_cast<void *>(uintptr_t(pointer) + firstByte),
                 at)) {
    at.byteOffset -= firstByte;
    return at;
  }
  fatal("kernel '%s' parameter %zu: %p is not in memory from mgpuMemAlloc "
        "or mgpuMemHostRegister",
        kernel.record.name.c_str(), param, pointer);
}

/// What a launch binds and pushes.
struct Arguments {
  std::vector<unsigned char> push;
  std::vector<VkDescriptorBufferInfo> buffers;
};

Arguments collect(const Kernel &kernel, const int64_t block[3], int32_t smem,
                  void **params, const VkPhysicalDeviceLimits &limits) {
  const char *name = kernel.record.name.c_str();
  const GPUMemVulkanKernel &header = kernel.record.header;
  Arguments arguments;
  arguments.push.assign(header.pushConstantBytes, 0);
  arguments.buffers.resize(header.bindingCount);
  for (int d = 0; d < 3; ++d) {
    uint32_t size = uint32_t(block[d]);
    std::memcpy(&arguments.push[d * 4], &size, 4);
  }
  std::memcpy(&arguments.push[GPUMEM_VULKAN_PUSH_DYNAMIC_SHARED_BYTES], &smem,
              4);
  // Elements from each binding's buffer start to its memref's pointer.
  std::vector<int64_t> elements(header.bindingCount, 0);
  std::vector<bool> offsetTaken(header.bindingCount, false);
  // Each binding's memref offset, for pointers only their first element
  // locates (host memory registered from the first element on).
  std::vector<int64_t> offsets(header.bindingCount, 0);
  for (size_t i = 0; i < kernel.record.params.size(); ++i)
    if (kernel.record.params[i].kind == GPUMEM_VULKAN_PARAM_BUFFER_OFFSET &&
        params[i])
      std::memcpy(&offsets[kernel.record.params[i].binding], params[i],
                  sizeof(int64_t));
  for (size_t i = 0; i < kernel.record.params.size(); ++i) {
    const GPUMemVulkanParam &param = kernel.record.params[i];
    if (param.kind == GPUMEM_VULKAN_PARAM_IGNORED)
      continue;
    const void *argument = params[i];
    if (!argument)
      fatal("kernel '%s' parameter %zu: null argument pointer", name, i);
    unsigned char *field = &arguments.push[param.pushOffset];
    switch (param.kind) {
    case GPUMEM_VULKAN_PARAM_BUFFER: {
      void *pointer;
      std::memcpy(&pointer, argument, sizeof(pointer));
      BufferAt at = locate(kernel, i, pointer, offsets[param.binding],
                           param.elementBytes);
      if (at.byteOffset % int64_t(param.elementBytes))
        fatal("kernel '%s' parameter %zu: %p is %lld bytes into its buffer, "
              "not a whole number of %u-byte elements",
              name, i, pointer, (long long)at.byteOffset, param.elementBytes);
      if (at.bufferBytes > limits.maxStorageBufferRange)
        fatal("kernel '%s' parameter %zu: its buffer of %llu bytes exceeds "
              "the device's maxStorageBufferRange of %u",
              name, i, (unsigned long long)at.bufferBytes,
              limits.maxStorageBufferRange);
      elements[param.binding] = at.byteOffset / int64_t(param.elementBytes);
      arguments.buffers[param.binding] = {at.buffer, 0, VK_WHOLE_SIZE};
      break;
    }
    case GPUMEM_VULKAN_PARAM_BUFFER_OFFSET: {
      int64_t offset, total;
      std::memcpy(&offset, argument, sizeof(offset));
      if (__builtin_add_overflow(offset, elements[param.binding], &total))
        total = INT64_MAX;
      int32_t value =
          toIndex(kernel, i, total, "the memref offset from its buffer");
      std::memcpy(field, &value, 4);
      offsetTaken[param.binding] = true;
      break;
    }
    case GPUMEM_VULKAN_PARAM_INDEX: {
      int64_t index;
      std::memcpy(&index, argument, sizeof(index));
      int32_t value = toIndex(kernel, i, index, "index value");
      std::memcpy(field, &value, 4);
      break;
    }
    case GPUMEM_VULKAN_PARAM_SCALAR:
      std::memcpy(field, argument, param.hostBytes);
      break;
    }
  }
  for (uint32_t b = 0; b < header.bindingCount; ++b)
    if (elements[b] && !offsetTaken[b])
      fatal("kernel '%s': the memref of binding %u starts %lld elements into "
            "its buffer, but the kernel takes no offset for it",
            name, b, (long long)elements[b]);
  return arguments;
}

/// Allocates and writes the launch's descriptor sets (sets[0]: the
/// buffers, sets[1]: the diagnostics buffer when `diagnostics`) from a pool
/// of their own, which it returns (null when there is nothing to bind).
VkDescriptorPool bindBuffers(Kernel &kernel, const Arguments &arguments,
                             const Diagnostics *diagnostics,
                             VkDescriptorSet sets[2]) {
  uint32_t count = kernel.record.header.bindingCount;
  uint32_t setCount = diagnostics ? 2 : count ? 1 : 0;
  if (setCount == 0)
    return VK_NULL_HANDLE;
  VkDevice handle = device().device;
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                            count + (diagnostics ? 1 : 0)};
  VkDescriptorPoolCreateInfo poolInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = setCount;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &size;
  VkDescriptorPool pool;
  check(vk.vkCreateDescriptorPool(handle, &poolInfo, nullptr, &pool),
        "vkCreateDescriptorPool");
  VkDescriptorSetLayout layouts[2] = {kernel.setLayout,
                                      kernel.diagnosticsLayout};
  VkDescriptorSetAllocateInfo info{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorPool = pool;
  info.descriptorSetCount = setCount;
  info.pSetLayouts = layouts;
  check(vk.vkAllocateDescriptorSets(handle, &info, sets),
        "vkAllocateDescriptorSets");
  std::vector<VkWriteDescriptorSet> writes(count);
  for (uint32_t b = 0; b < count; ++b) {
    writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[b].dstSet = sets[0];
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &arguments.buffers[b];
  }
  if (diagnostics) {
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = sets[1];
    write.dstBinding = 0;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &diagnostics->binding;
    writes.push_back(write);
  }
  vk.vkUpdateDescriptorSets(handle, uint32_t(writes.size()), writes.data(), 0,
                            nullptr);
  return pool;
}

} // namespace

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void *stream, void **params, void **extra,
                                 size_t paramsCount) {
  // What the program printed so far is out before a kernel can fail.
  std::fflush(stdout);
  if (!function)
    fatal("mgpuLaunchKernel: null kernel");
  auto &kernel = *static_cast<Kernel *>(function);
  const char *name = kernel.record.name.c_str();
  const GPUMemVulkanKernel &header = kernel.record.header;
  if (paramsCount != header.paramCount)
    fatal("kernel '%s': takes %u parameters, the launch passes %zu", name,
          header.paramCount, paramsCount);
  if (paramsCount && !params)
    fatal("kernel '%s': null parameter array", name);
  const int64_t grid[3] = {gridX, gridY, gridZ};
  const int64_t block[3] = {blockX, blockY, blockZ};
  const VkPhysicalDeviceLimits &limits = device().properties.limits;
  uint32_t words = checkLimits(kernel, grid, block, smem, limits);
  Arguments arguments = collect(kernel, block, smem, params, limits);
  VkPipeline pipeline = pipelineFor(
      kernel, {uint32_t(blockX), uint32_t(blockY), uint32_t(blockZ), words});
  std::unique_ptr<Diagnostics> diagnostics;
  if (header.flags & GPUMEM_VULKAN_DIAGNOSTICS)
    diagnostics =
        takeDiagnostics(kernel, gpumem::runtime::currentLaunchLocation());
  VkDescriptorSet sets[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
  VkDescriptorPool pool =
      bindBuffers(kernel, arguments, diagnostics.get(), sets);

  Recording recording;
  VkCommandBuffer commands = recording.commands();
  vk.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (pool)
    vk.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                               kernel.pipelineLayout, 0, diagnostics ? 2 : 1,
                               sets, 0, nullptr);
  vk.vkCmdPushConstants(commands, kernel.pipelineLayout,
                        VK_SHADER_STAGE_COMPUTE_BIT, 0,
                        header.pushConstantBytes, arguments.push.data());
  vk.vkCmdDispatch(commands, uint32_t(gridX), uint32_t(gridY), uint32_t(gridZ));
  if (pool)
    recording.whenDone(
        [pool] { vk.vkDestroyDescriptorPool(device().device, pool, nullptr); });
  recording.submit(static_cast<Stream *>(stream),
                   std::string("kernel '") + name + "'",
                   std::move(diagnostics));
  gpumem::runtime::clearLaunchLocation();
}
