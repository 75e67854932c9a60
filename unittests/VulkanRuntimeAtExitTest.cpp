//===----------------------------------------------------------------------===//
// The Vulkan runtime from global constructors and destructors, as compiled
// host code uses it: a module loaded at constructor priority 123 (before
// the runtime's own statics could be relied on), a launch left running
// when main returns, and memory freed and the module unloaded from
// destructors at exit, after the Vulkan driver may have been finalized.
// Prints "ok" and exits 0 when all of that is quiet; also where there is
// no Vulkan device or no test kernels (nothing to check there).
//===----------------------------------------------------------------------===//

#define GPUMEM_VULKAN_TEST_LEAK_SUPPRESSIONS
#include "VulkanRuntimeTestSupport.h"

#include <cstdio>
#include <vector>

using namespace gpumem_vulkan_test;

namespace {
void *module = nullptr;
void *data = nullptr;
} // namespace

__attribute__((constructor(123))) static void loadAtStartup() {
  if (gpumemVulkanDeviceKind() == 0)
    return;
  std::vector<uint32_t> image = testImage();
  if (!image.empty())
    module = mgpuModuleLoad(image.data(), image.size() * 4);
}

__attribute__((destructor(123))) static void releaseAtExit() {
  mgpuMemFree(data, nullptr);
  mgpuModuleUnload(module);
}

int main() {
  if (module) {
    constexpr int n = 1 << 16;
    data = mgpuMemAlloc(n * 4, nullptr, false);
    MemRef memref{data, data, 0, n, 1};
    std::vector<void *> params;
    memref.pass(params);
    // Left running: the runtime waits for it at exit.
    mgpuLaunchKernel(mgpuModuleGetFunction(module, "reverse"), n / 256, 1, 1,
                     256, 1, 1, 256 * 4, nullptr, params.data(), nullptr,
                     params.size());
  }
  std::printf("ok\n");
  return 0;
}
