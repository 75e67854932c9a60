//===----------------------------------------------------------------------===//
// mgpuModuleLoad and friends. The image is checked in full (Image.cpp)
// before the device is touched; its SPIR-V becomes one VkShaderModule
// shared by the module's kernels. A kernel's descriptor set layouts
// (bindingCount storage buffers at set 0; the diagnostics buffer at set 1
// when it prints or asserts) and pipeline layout (its push constant block)
// are made at its first launch, once the launch's checks
// passed; pipelines are made per (block size, dynamic shared words) with
// specialization constants 0..2 = block size and, for kernels with the
// dynamic shared flag, 3 = words, and cached in the kernel. Unloading waits
// for submitted work, and does nothing once the process is exiting.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Module.h"
#include "Queue.h"
#include "VulkanRuntime.h"

#include <string>

using namespace gpumem::vulkan;

namespace {

void createLayouts(Kernel &kernel, VkDevice handle) {
  const GPUMemVulkanKernel &header = kernel.record.header;
  std::vector<VkDescriptorSetLayoutBinding> bindings(header.bindingCount);
  for (uint32_t b = 0; b < header.bindingCount; ++b)
    bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo setInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = header.bindingCount;
  setInfo.pBindings = bindings.data();
  check(vk.vkCreateDescriptorSetLayout(handle, &setInfo, nullptr,
                                       &kernel.setLayout),
        "vkCreateDescriptorSetLayout");
  VkDescriptorSetLayout layouts[2] = {kernel.setLayout, VK_NULL_HANDLE};
  if (header.flags & GPUMEM_VULKAN_DIAGNOSTICS) {
    VkDescriptorSetLayoutBinding diagnostics = {
        0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
        nullptr};
    setInfo.bindingCount = 1;
    setInfo.pBindings = &diagnostics;
    check(vk.vkCreateDescriptorSetLayout(handle, &setInfo, nullptr,
                                         &kernel.diagnosticsLayout),
          "vkCreateDescriptorSetLayout");
    layouts[1] = kernel.diagnosticsLayout;
  }
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           header.pushConstantBytes};
  VkPipelineLayoutCreateInfo info{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = kernel.diagnosticsLayout ? 2 : 1;
  info.pSetLayouts = layouts;
  info.pushConstantRangeCount = 1;
  info.pPushConstantRanges = &push;
  check(
      vk.vkCreatePipelineLayout(handle, &info, nullptr, &kernel.pipelineLayout),
      "vkCreatePipelineLayout");
}

} // namespace

uint32_t gpumem::vulkan::compiledSubgroupSize(const Kernel &kernel) {
  return (kernel.record.header.flags & GPUMEM_VULKAN_SUBGROUP_SIZE_MASK) >>
         GPUMEM_VULKAN_SUBGROUP_SIZE_SHIFT;
}

bool gpumem::vulkan::asksForSubgroupSize(const Kernel &kernel,
                                         uint64_t threads) {
  uint32_t size = compiledSubgroupSize(kernel);
  const Device &current = device();
  return size && current.subgroupSizeControl &&
         threads <= uint64_t(current.maxWorkgroupSubgroups) * size;
}

VkPipeline gpumem::vulkan::pipelineFor(Kernel &kernel,
                                       const std::array<uint32_t, 4> &key) {
  std::lock_guard<std::mutex> lock(kernel.mutex);
  auto found = kernel.pipelines.find(key);
  if (found != kernel.pipelines.end())
    return found->second;
  VkDevice handle = device().device;
  if (!kernel.pipelineLayout)
    createLayouts(kernel, handle);
  bool dynamic = kernel.record.header.flags & GPUMEM_VULKAN_DYNAMIC_SHARED;
  VkSpecializationMapEntry entries[4];
  for (uint32_t i = 0; i < 4; ++i)
    entries[i] = {i, uint32_t(i * sizeof(uint32_t)), sizeof(uint32_t)};
  static_assert(GPUMEM_VULKAN_SPEC_BLOCK_X == 0 &&
                    GPUMEM_VULKAN_SPEC_BLOCK_Y == 1 &&
                    GPUMEM_VULKAN_SPEC_BLOCK_Z == 2 &&
                    GPUMEM_VULKAN_SPEC_DYNAMIC_SHARED_WORDS == 3,
                "the specialization constants are key[0..3]");
  VkSpecializationInfo specialization{dynamic ? 4u : 3u, entries,
                                      (dynamic ? 4 : 3) * sizeof(uint32_t),
                                      key.data()};
  VkComputePipelineCreateInfo info{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = kernel.module->shader;
  info.stage.pName = kernel.record.name.c_str();
  info.stage.pSpecializationInfo = &specialization;
  info.layout = kernel.pipelineLayout;
  // A kernel with subgroup operations gets the subgroup size it was
  // compiled for, and full subgroups when its blocks' rows fill them (as a
  // CUDA block's warps are), where the device lets it ask.
  uint32_t subgroupSize = compiledSubgroupSize(kernel);
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfoEXT required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO_EXT};
  if (asksForSubgroupSize(kernel, uint64_t(key[0]) * key[1] * key[2])) {
    required.requiredSubgroupSize = subgroupSize;
    info.stage.pNext = &required;
    if (device().fullSubgroups && key[0] % subgroupSize == 0)
      info.stage.flags |=
          VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT;
  }
  VkPipeline pipeline;
  VkResult result = vk.vkCreateComputePipelines(handle, VK_NULL_HANDLE, 1,
                                                &info, nullptr, &pipeline);
  if (result != VK_SUCCESS)
    fatal("vkCreateComputePipelines failed for kernel '%s' (block "
          "%ux%ux%u%s): %s",
          kernel.record.name.c_str(), key[0], key[1], key[2],
          dynamic ? (", " + std::to_string(key[3]) +
                     " words of dynamic shared memory")
                        .c_str()
                  : "",
          describe(result));
  kernel.pipelines.emplace(key, pipeline);
  return pipeline;
}

/// Refuses a module that declares a capability the device was not given
/// (8-bit integers), rather than letting the driver run it wrongly or fail
/// with a code.
static void checkCapabilities(const Image &image, const Device &current) {
  // SPIR-V: a 5-word header, then instructions whose first word holds the
  // word count (high 16 bits) and the opcode (low); OpCapability is 17.
  constexpr uint32_t kOpCapability = 17, kInt8 = 39,
                     kStorageBuffer8BitAccess = 4448;
  const std::vector<uint32_t> &words = image.spirv;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    if (count == 0)
      break;
    if (opcode == kOpCapability && count == 2) {
      uint32_t capability = words[at + 1];
      if ((capability == kInt8 && !current.int8) ||
          (capability == kStorageBuffer8BitAccess && !current.storageBuffer8))
        fatal("the kernels use 8-bit integers%s, which Vulkan device %d "
              "(%s) does not offer (shaderInt8 and storageBuffer8BitAccess "
              "of Vulkan 1.2, or VK_KHR_shader_float16_int8 and "
              "VK_KHR_8bit_storage); run them on another target",
              capability == kInt8 ? "" : " in buffers", current.index,
              current.properties.deviceName);
    }
    at += count;
  }
}

extern "C" void *mgpuModuleLoad(void *data, size_t size) {
  Image image = parseImage(data, size);
  const Device &current = device();
  checkCapabilities(image, current);
  auto *module = new Module;
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = image.spirv.size() * sizeof(uint32_t);
  info.pCode = image.spirv.data();
  VkResult result =
      vk.vkCreateShaderModule(current.device, &info, nullptr, &module->shader);
  if (result != VK_SUCCESS)
    fatal("vkCreateShaderModule failed for a SPIR-V module of %zu words on "
          "Vulkan device %d (%s): %s",
          image.spirv.size(), current.index, current.properties.deviceName,
          describe(result));
  module->sites = std::move(image.sites);
  for (KernelRecord &record : image.kernels) {
    auto kernel = std::make_unique<Kernel>();
    kernel->module = module;
    kernel->record = std::move(record);
    module->byName.emplace(kernel->record.name, kernel.get());
    module->kernels.push_back(std::move(kernel));
  }
  return module;
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  fatal("mgpuModuleLoadJIT: the Vulkan runtime cannot JIT-compile PTX; "
        "compile the gpu.module for the vulkan target, or run it with "
        "libgpumem_cuda_runtime.so");
}

extern "C" void mgpuModuleUnload(void *module) {
  auto *loaded = static_cast<Module *>(module);
  if (!loaded || exiting())
    return;
  waitAll();
  VkDevice handle = device().device;
  for (auto &kernel : loaded->kernels) {
    for (auto &[key, pipeline] : kernel->pipelines)
      vk.vkDestroyPipeline(handle, pipeline, nullptr);
    if (kernel->pipelineLayout) {
      vk.vkDestroyPipelineLayout(handle, kernel->pipelineLayout, nullptr);
      vk.vkDestroyDescriptorSetLayout(handle, kernel->setLayout, nullptr);
      if (kernel->diagnosticsLayout)
        vk.vkDestroyDescriptorSetLayout(handle, kernel->diagnosticsLayout,
                                        nullptr);
    }
  }
  vk.vkDestroyShaderModule(handle, loaded->shader, nullptr);
  delete loaded;
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  auto *loaded = static_cast<Module *>(module);
  if (!loaded)
    fatal("mgpuModuleGetFunction: null module (looking for kernel '%s')",
          name ? name : "");
  if (!name)
    fatal("mgpuModuleGetFunction: null kernel name");
  auto found = loaded->byName.find(std::string_view(name));
  if (found != loaded->byName.end())
    return found->second;
  std::string names;
  for (auto &kernel : loaded->kernels)
    names += (names.empty() ? "'" : ", '") + kernel->record.name + "'";
  fatal("mgpuModuleGetFunction: the module has no kernel '%s' (it has %s)",
        name, names.empty() ? "none" : names.c_str());
}
