//===----------------------------------------------------------------------===//
// What mgpuModuleLoad and mgpuModuleGetFunction return: a module holds the
// image's SPIR-V as one VkShaderModule and a Kernel per kernel record; a
// kernel holds its layouts and its pipelines, one per specialization.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_MODULE_H
#define GPUMEM_RUNTIME_VULKAN_MODULE_H

#include "Image.h"
#include "Loader.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace gpumem::vulkan {

struct Module;

/// A kernel: the handle mgpuModuleGetFunction returns.
struct Kernel {
  Module *module;
  KernelRecord record;
  std::mutex mutex; ///< guards everything below
  /// Created by the first launch (after its limit checks).
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  /// Set 1, the diagnostics buffer: kernels with GPUMEM_VULKAN_DIAGNOSTICS.
  VkDescriptorSetLayout diagnosticsLayout = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  /// By (block x, y, z, dynamic shared words).
  std::map<std::array<uint32_t, 4>, VkPipeline> pipelines;
};

/// A module: the handle mgpuModuleLoad returns.
struct Module {
  VkShaderModule shader;
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::unordered_map<std::string_view, Kernel *> byName;
  /// The printf and assert sites of its kernels.
  std::vector<Site> sites;
};

/// The pipeline of `kernel` specialized to `key`, created and cached on
/// first use together with the kernel's layouts; exits on failure.
VkPipeline pipelineFor(Kernel &kernel, const std::array<uint32_t, 4> &key);

/// The subgroup size `kernel` was compiled for; 0 when it has no subgroup
/// operations.
uint32_t compiledSubgroupSize(const Kernel &kernel);

/// Whether a pipeline of `kernel` for blocks of `threads` asks for the
/// subgroup size the kernel was compiled for: when the kernel has subgroup
/// operations, the device lets it ask, and the block has at most the
/// device's maxComputeWorkgroupSubgroups subgroups of that size.
bool asksForSubgroupSize(const Kernel &kernel, uint64_t threads);

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_MODULE_H
