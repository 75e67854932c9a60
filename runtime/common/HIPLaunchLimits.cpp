//===----------------------------------------------------------------------===//
// HIP launch limits (HIPLaunchLimits.h), in the order HIP's
// hipModuleLaunchKernel checks them: the grid's bounds, the workgroup's
// work-items, the dynamic LDS, zero dimensions (all hipErrorInvalidValue),
// then the kernel's flat workgroup size (hipErrorLaunchFailure); before
// them, what its unsigned parameters cannot hold, and after them static
// plus dynamic LDS. Each message is the one hipModuleLaunchKernel's failure
// gets in the rocm runtime, HIP's error name and description, followed by
// the limit in parentheses.
//===----------------------------------------------------------------------===//

#include "HIPLaunchLimits.h"
#include "Fatal.h"

#include <climits>
#include <cstdio>

namespace {

using gpumem::runtime::HIPLaunch;

[[noreturn]] void refuse(const HIPLaunch &launch, const char *error,
                         const char *why) {
  const intptr_t *grid = launch.grid, *block = launch.block;
  gpumem::runtime::fatal(
      "hipModuleLaunchKernel failed for kernel '%s' (grid %lldx%lldx%lld, "
      "block %lldx%lldx%lld, %d bytes of dynamic LDS): %s (%s)",
      launch.kernel, (long long)grid[0], (long long)grid[1], (long long)grid[2],
      (long long)block[0], (long long)block[1], (long long)block[2],
      launch.smem, error, why);
}

constexpr const char *kInvalidValue = "hipErrorInvalidValue: invalid argument";

} // namespace

void gpumem::runtime::checkHIPLaunch(const HIPLaunch &launch,
                                     const HIPLaunchLimits &limits) {
  const intptr_t *grid = launch.grid, *block = launch.block;
  char why[200];
  for (int d = 0; d < 3; ++d)
    if (grid[d] < 0 || block[d] < 0 || uint64_t(grid[d]) > UINT_MAX ||
        uint64_t(block[d]) > UINT_MAX) {
      std::snprintf(why, sizeof(why),
                    "every dimension must be in 0..%u, hipModuleLaunchKernel "
                    "takes unsigned sizes",
                    UINT_MAX);
      refuse(launch, kInvalidValue, why);
    }
  if (launch.smem < 0)
    refuse(launch, kInvalidValue, "a negative dynamic LDS size");
  const int64_t *maxGrid = limits.maxGrid;
  if (grid[0] > maxGrid[0] || grid[1] > maxGrid[1] || grid[2] > maxGrid[2]) {
    std::snprintf(why, sizeof(why),
                  "a grid of %lld x %lld x %lld workgroups; HIP allows at "
                  "most %lld x %lld x %lld",
                  (long long)grid[0], (long long)grid[1], (long long)grid[2],
                  (long long)maxGrid[0], (long long)maxGrid[1],
                  (long long)maxGrid[2]);
    refuse(launch, kInvalidValue, why);
  }
  // Each dimension is below 2^32: the product fits in 128 bits, and past
  // 2^63 it is over any limit.
  unsigned __int128 threads = (unsigned __int128)uint64_t(block[0]) *
                              uint64_t(block[1]) * uint64_t(block[2]);
  if (threads > (unsigned __int128)limits.maxThreadsPerBlock) {
    char total[32] = "more than 2^63";
    if (threads < ((unsigned __int128)1 << 63))
      std::snprintf(total, sizeof(total), "%llu", (unsigned long long)threads);
    std::snprintf(why, sizeof(why),
                  "a workgroup of %lld x %lld x %lld = %s work-items; %s "
                  "allows at most %lld",
                  (long long)block[0], (long long)block[1], (long long)block[2],
                  total, launch.device, (long long)limits.maxThreadsPerBlock);
    refuse(launch, kInvalidValue, why);
  }
  if (launch.smem > limits.maxSharedBytesPerBlock) {
    std::snprintf(
        why, sizeof(why), "%d bytes of dynamic LDS; %s has %lld per workgroup",
        launch.smem, launch.device, (long long)limits.maxSharedBytesPerBlock);
    refuse(launch, kInvalidValue, why);
  }
  if (grid[0] < 1 || grid[1] < 1 || grid[2] < 1)
    refuse(launch, kInvalidValue, "every grid dimension must be at least 1");
  if (block[0] < 1 || block[1] < 1 || block[2] < 1)
    refuse(launch, kInvalidValue,
           "every workgroup dimension must be at least 1");
  if (launch.maxThreads && threads > (unsigned __int128)launch.maxThreads) {
    std::snprintf(why, sizeof(why),
                  "a workgroup of %llu work-items; the kernel's "
                  "amdgpu-flat-work-group-size allows at most %d",
                  (unsigned long long)threads, launch.maxThreads);
    refuse(launch, "hipErrorLaunchFailure: unspecified launch failure", why);
  }
  // HIP checked the dynamic bytes alone; with the static ones they are
  // still over when the dispatch is built. Unknown static LDS: nothing more.
  if (launch.staticLDS < 0 ||
      launch.staticLDS + launch.smem <= limits.maxSharedBytesPerBlock)
    return;
  fatal("kernel '%s' asks for %lld bytes of LDS (%lld static + %d dynamic); "
        "%s allows at most %lld per workgroup",
        launch.kernel, (long long)(launch.staticLDS + launch.smem),
        (long long)launch.staticLDS, launch.smem, launch.device,
        (long long)limits.maxSharedBytesPerBlock);
}
