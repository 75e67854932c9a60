//===----------------------------------------------------------------------===//
// mgpuLaunchKernel: cuLaunchKernel with the kernel's dynamic shared memory
// limit raised when a launch needs more.
//
// A kernel may use up to CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
// bytes of dynamic shared memory (48 KiB minus its static shared memory by
// default); more, up to the device's opt-in maximum per block minus the
// static part, once that attribute is raised. The runtime tracks each
// kernel's current limit: a launch that fits it calls nothing else; one
// that needs more raises the attribute to exactly what it needs, once, and
// later launches that fit the new limit again call nothing. A launch whose
// static + dynamic shared memory exceeds the opt-in maximum is an error
// that names the kernel and the sizes, before the driver is asked; so is a
// block or grid beyond the device's limits (CUDALaunchLimits.h), which the
// driver would answer with CUDA_ERROR_INVALID_VALUE alone.
//===----------------------------------------------------------------------===//

#include "CUDALaunchLimits.h"
#include "CUDARuntime.h"
#include "Device.h"
#include "Driver.h"
#include "LaunchLocation.h"
#include "Module.h"
#include "Support.h"

#include <climits>
#include <cstdio>
#include <mutex>

using namespace gpumem::cuda;

namespace {

/// Serialises raising limits, so that a limit never goes down when two
/// threads raise the same kernel's at once.
std::mutex raising;

void reserveDynamicShared(Kernel &kernel, int32_t smem, const Device &device) {
  int64_t total = int64_t(kernel.staticSharedBytes) + smem;
  if (total > device.maxSharedBytesPerBlock)
    fatal("kernel '%s' asks for %lld bytes of shared memory (%d static + %d "
          "dynamic); the device allows at most %d per block",
          kernel.name.c_str(), (long long)total, kernel.staticSharedBytes, smem,
          device.maxSharedBytesPerBlock);
  if (smem <= kernel.dynamicSharedLimit.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> lock(raising);
  if (smem <= kernel.dynamicSharedLimit.load(std::memory_order_relaxed))
    return;
  CUresult result = driver().cuFuncSetAttribute(
      kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem);
  if (result != CUDA_SUCCESS)
    fatal("cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
          "%d) failed for kernel '%s': %s",
          smem, kernel.name.c_str(), describe(result).c_str());
  kernel.dynamicSharedLimit.store(smem, std::memory_order_release);
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
  const char *name = kernel.name.c_str();
  const Device &device = enterContext();
  const intptr_t grid[3] = {gridX, gridY, gridZ};
  const intptr_t block[3] = {blockX, blockY, blockZ};
  gpumem::runtime::checkCUDALaunch(name, grid, block, smem,
                                   device.launchLimits);
  reserveDynamicShared(kernel, smem, device);
  CUresult result = driver().cuLaunchKernel(
      kernel.function, unsigned(gridX), unsigned(gridY), unsigned(gridZ),
      unsigned(blockX), unsigned(blockY), unsigned(blockZ), unsigned(smem),
      static_cast<CUstream>(stream), params, extra);
  if (result != CUDA_SUCCESS)
    fatal("cuLaunchKernel failed for kernel '%s' (grid %lldx%lldx%lld, block "
          "%lldx%lldx%lld, %d bytes of dynamic shared memory): %s",
          name, (long long)gridX, (long long)gridY, (long long)gridZ,
          (long long)blockX, (long long)blockY, (long long)blockZ, smem,
          describe(result).c_str());
  if (kernel.sanitizerLog) {
    const int64_t grid64[3] = {gridX, gridY, gridZ};
    const int64_t block64[3] = {blockX, blockY, blockZ};
    reportSanitizerLog(kernel, static_cast<CUstream>(stream), grid64, block64);
  }
  gpumem::runtime::clearLaunchLocation();
}
