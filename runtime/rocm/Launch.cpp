//===----------------------------------------------------------------------===//
// mgpuLaunchKernel: hipModuleLaunchKernel with the launch's dynamic LDS
// bytes as its sharedMemBytes.
//
// AMD GPUs have no opt-in for more LDS, as NVIDIA's have for shared memory:
// a workgroup may use up to hipDeviceAttributeMaxSharedMemoryPerBlock bytes
// (64 KiB so far), static and dynamic together, and there is no limit to
// raise first. A launch whose static + dynamic LDS exceeds it is an error
// that names the kernel and the sizes, before HIP is asked; so is a block or
// grid beyond the device's limits (HIPLaunchLimits.h, the checks of
// hipModuleLaunchKernel, which the cpu runtime makes for rocm-emu kernels
// too), reported with the error HIP would answer and the limit it does
// not name (decision 102). What HIP refuses is reported with its own name
// and description of the error.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Driver.h"
#include "HIPLaunchLimits.h"
#include "LaunchLocation.h"
#include "Module.h"
#include "ROCmRuntime.h"
#include "Support.h"

#include <cstdio>

using namespace gpumem::rocm;

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void *stream, void **params, void **extra,
                                 size_t paramsCount) {
  (void)paramsCount;
  // What the program printed so far is out before a kernel can fail.
  std::fflush(stdout);
  if (!function)
    fatal("mgpuLaunchKernel: null kernel");
  auto &kernel = *static_cast<Kernel *>(function);
  const char *name = kernel.name.c_str();
  const Device &device = enterDevice();
  const intptr_t grid[3] = {gridX, gridY, gridZ};
  const intptr_t block[3] = {blockX, blockY, blockZ};
  // The device's limits as HIP reports them; its grid limits are
  // hipModuleLaunchKernel's own.
  gpumem::runtime::HIPLaunchLimits limits = {
      device.launchLimits.maxThreadsPerBlock,
      {gpumem::runtime::kHIPMaxGrid[0], gpumem::runtime::kHIPMaxGrid[1],
       gpumem::runtime::kHIPMaxGrid[2]},
      device.maxSharedBytesPerBlock};
  char where[300];
  std::snprintf(where, sizeof(where), "device %d (%s)", device.ordinal,
                device.name);
  gpumem::runtime::checkHIPLaunch(
      {name, grid, block, smem, kernel.staticSharedBytes, 0, where}, limits);
  hipError_t result = hip().hipModuleLaunchKernel(
      kernel.function, unsigned(gridX), unsigned(gridY), unsigned(gridZ),
      unsigned(blockX), unsigned(blockY), unsigned(blockZ), unsigned(smem),
      static_cast<hipStream_t>(stream), params, extra);
  if (result != hipSuccess)
    fatal("hipModuleLaunchKernel failed for kernel '%s' (grid "
          "%lldx%lldx%lld, block %lldx%lldx%lld, %d bytes of dynamic LDS): "
          "%s",
          name, (long long)gridX, (long long)gridY, (long long)gridZ,
          (long long)blockX, (long long)blockY, (long long)blockZ, smem,
          describe(result).c_str());
  gpumem::runtime::clearLaunchLocation();
}
