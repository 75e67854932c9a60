//===----------------------------------------------------------------------===//
// Helpers of the Vulkan runtime tests: the test kernels' SPIR-V
// (VulkanRuntimeTestKernels.spvasm, assembled at build time into the file
// CMake names as GPUMEM_VULKAN_TEST_KERNELS when spirv-as exists), a
// builder that wraps SPIR-V words with the kernel records of
// gpumem/Runtime/VulkanKernelABI.h as the compiler does, the records of
// the test kernels, and memref arguments expanded as the host lowering
// passes them (allocated, aligned, offset, size, stride).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_UNITTESTS_VULKANRUNTIMETESTSUPPORT_H
#define GPUMEM_UNITTESTS_VULKANRUNTIMETESTSUPPORT_H

#include "VulkanRuntime.h"
#include "gpumem/Runtime/VulkanKernelABI.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace gpumem_vulkan_test {

/// One kernel record, before serialization.
struct TestKernel {
  std::string name;
  uint32_t bindingCount = 0;
  uint32_t pushConstantBytes = 16;
  uint32_t flags = 0;
  uint32_t staticSharedBytes = 0;
  std::vector<GPUMemVulkanParam> params;

  /// Appends the five parameters of a 1-D memref: the allocated pointer
  /// (ignored), the aligned pointer (buffer `binding`), the offset at
  /// `pushOffset`, the size and the stride after it.
  TestKernel &memref(uint32_t binding, uint32_t elementBytes,
                     uint32_t pushOffset) {
    params.push_back({GPUMEM_VULKAN_PARAM_IGNORED, 0, 0, 0, 0, 0});
    params.push_back(
        {GPUMEM_VULKAN_PARAM_BUFFER, binding, elementBytes, 0, 0, 0});
    params.push_back(
        {GPUMEM_VULKAN_PARAM_BUFFER_OFFSET, binding, 0, pushOffset, 0, 0});
    params.push_back({GPUMEM_VULKAN_PARAM_INDEX, 0, 0, pushOffset + 4, 0, 0});
    params.push_back({GPUMEM_VULKAN_PARAM_INDEX, 0, 0, pushOffset + 8, 0, 0});
    return *this;
  }
  TestKernel &scalar(uint32_t hostBytes, uint32_t pushBytes,
                     uint32_t pushOffset) {
    params.push_back(
        {GPUMEM_VULKAN_PARAM_SCALAR, 0, 0, pushOffset, hostBytes, pushBytes});
    return *this;
  }
};

/// The image: header, SPIR-V, then each kernel's record, name (padded) and
/// parameters, as little-endian words.
inline std::vector<uint32_t>
buildImage(const std::vector<uint32_t> &spirv,
           const std::vector<TestKernel> &kernels) {
  std::vector<uint32_t> image = {
      GPUMEM_VULKAN_IMAGE_MAGIC, GPUMEM_VULKAN_ABI_VERSION,
      uint32_t(kernels.size()), uint32_t(spirv.size())};
  image.insert(image.end(), spirv.begin(), spirv.end());
  for (const TestKernel &kernel : kernels) {
    GPUMemVulkanKernel header{uint32_t(kernel.name.size()),
                              uint32_t(kernel.params.size()),
                              kernel.bindingCount,
                              kernel.pushConstantBytes,
                              kernel.flags,
                              kernel.staticSharedBytes};
    const auto *words = reinterpret_cast<const uint32_t *>(&header);
    image.insert(image.end(), words, words + sizeof(header) / 4);
    std::vector<uint32_t> name((kernel.name.size() + 3) / 4, 0);
    std::memcpy(name.data(), kernel.name.data(), kernel.name.size());
    image.insert(image.end(), name.begin(), name.end());
    for (const GPUMemVulkanParam &param : kernel.params) {
      words = reinterpret_cast<const uint32_t *>(&param);
      image.insert(image.end(), words, words + sizeof(param) / 4);
    }
  }
  return image;
}

/// add(memref<?xf32> a, b, c, f32 s): c[i] = a[i] + b[i] * s for i <
/// size(c); 16 parameters.
inline TestKernel addKernel() {
  TestKernel kernel{"add", 3, 56};
  kernel.memref(0, 4, 16).memref(1, 4, 28).memref(2, 4, 40).scalar(4, 4, 52);
  return kernel;
}

/// reverse(memref<?xi32> d): reverses each block's elements through the
/// dynamic workgroup array; 5 parameters.
inline TestKernel reverseKernel() {
  TestKernel kernel{"reverse", 1, 28, GPUMEM_VULKAN_DYNAMIC_SHARED};
  kernel.memref(0, 4, 16);
  return kernel;
}

/// The test kernels' SPIR-V words; empty when they were not assembled.
inline std::vector<uint32_t> testSpirv() {
#ifdef GPUMEM_VULKAN_TEST_KERNELS
  std::vector<uint32_t> words;
  if (FILE *file = std::fopen(GPUMEM_VULKAN_TEST_KERNELS, "rb")) {
    uint32_t word;
    while (std::fread(&word, 4, 1, file) == 1)
      words.push_back(word);
    std::fclose(file);
  }
  return words;
#else
  return {};
#endif
}

/// The image of the test kernels (add, reverse); empty without SPIR-V.
inline std::vector<uint32_t> testImage() {
  std::vector<uint32_t> spirv = testSpirv();
  if (spirv.empty())
    return {};
  return buildImage(spirv, {addKernel(), reverseKernel()});
}

/// The test kernels' module, loaded once per process.
inline void *testModule() {
  static void *module = [] {
    std::vector<uint32_t> image = testImage();
    return mgpuModuleLoad(image.data(), image.size() * 4);
  }();
  return module;
}

/// A 1-D memref as the host lowering expands it into kernel arguments.
struct MemRef {
  void *allocated;
  void *aligned;
  int64_t offset, size, stride;
  /// Appends pointers to the five fields to `params`.
  void pass(std::vector<void *> &params) {
    for (void *field : {(void *)&allocated, (void *)&aligned, (void *)&offset,
                        (void *)&size, (void *)&stride})
      params.push_back(field);
  }
};

/// The parameters of add(a, b, c, s), pointing into the arguments.
inline std::vector<void *> addParams(MemRef &a, MemRef &b, MemRef &c,
                                     float &s) {
  std::vector<void *> params;
  a.pass(params);
  b.pass(params);
  c.pass(params);
  params.push_back(&s);
  return params;
}

/// Skips a test that needs a Vulkan device where there is none, and one
/// that needs the test kernels where they were not assembled.
#define GPUMEM_REQUIRE_VULKAN_DEVICE()                                         \
  do {                                                                         \
    if (gpumemVulkanDeviceKind() == 0)                                         \
      GTEST_SKIP() << "no Vulkan device";                                      \
  } while (0)
#define GPUMEM_REQUIRE_TEST_KERNELS()                                          \
  do {                                                                         \
    GPUMEM_REQUIRE_VULKAN_DEVICE();                                            \
    if (gpumem_vulkan_test::testSpirv().empty())                               \
      GTEST_SKIP() << "the test kernels were not assembled (no spirv-as)";     \
  } while (0)

} // namespace gpumem_vulkan_test

/// For sanitizer builds (LeakSanitizer reads this hook; nothing else
/// does): lavapipe keeps pointers to some of its allocations in memory
/// that LeakSanitizer does not scan (llvmpipe's JIT-compiled shader
/// variants), so they are reported as leaks of libvulkan_lvp.so's own.
/// Define GPUMEM_VULKAN_TEST_LEAK_SUPPRESSIONS in exactly one file of an
/// executable.
#ifdef GPUMEM_VULKAN_TEST_LEAK_SUPPRESSIONS
extern "C" __attribute__((used)) const char *__lsan_default_suppressions() {
  return "leak:libvulkan_lvp.so\n";
}
extern "C" __attribute__((used)) const char *__lsan_default_options() {
  return "print_suppressions=0";
}
#endif

#endif // GPUMEM_UNITTESTS_VULKANRUNTIMETESTSUPPORT_H
