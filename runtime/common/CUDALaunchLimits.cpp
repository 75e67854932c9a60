//===----------------------------------------------------------------------===//
// CUDA launch limits (CUDALaunchLimits.h): the representable range first
// (cuLaunchKernel takes unsigned sizes), then every dimension at least 1,
// the threads of a block, each block dimension and each grid dimension.
//===----------------------------------------------------------------------===//

#include "CUDALaunchLimits.h"
#include "Fatal.h"

#include <climits>
#include <cstdio>

void gpumem::runtime::checkCUDALaunch(const char *name, const intptr_t grid[3],
                                      const intptr_t block[3], int32_t smem,
                                      const CUDALaunchLimits &limits) {
  for (int d = 0; d < 3; ++d)
    if (grid[d] < 0 || block[d] < 0 || uint64_t(grid[d]) > UINT_MAX ||
        uint64_t(block[d]) > UINT_MAX)
      fatal("kernel '%s': grid %lldx%lldx%lld, block %lldx%lldx%lld: every "
            "dimension must be in 0..%u for cuLaunchKernel",
            name, (long long)grid[0], (long long)grid[1], (long long)grid[2],
            (long long)block[0], (long long)block[1], (long long)block[2],
            UINT_MAX);
  if (smem < 0)
    fatal("kernel '%s': negative dynamic shared memory size %d", name, smem);
  if (block[0] < 1 || block[1] < 1 || block[2] < 1)
    fatal("kernel '%s': a block of %lld x %lld x %lld threads: every "
          "dimension must be at least 1",
          name, (long long)block[0], (long long)block[1], (long long)block[2]);
  if (grid[0] < 1 || grid[1] < 1 || grid[2] < 1)
    fatal("kernel '%s': a grid of %lld x %lld x %lld blocks: every dimension "
          "must be at least 1",
          name, (long long)grid[0], (long long)grid[1], (long long)grid[2]);
  uint64_t pair, threads;
  bool overflow =
      __builtin_mul_overflow(uint64_t(block[0]), uint64_t(block[1]), &pair) ||
      __builtin_mul_overflow(pair, uint64_t(block[2]), &threads);
  if (overflow || threads > uint64_t(limits.maxThreadsPerBlock)) {
    char total[32] = "more than 2^64";
    if (!overflow)
      std::snprintf(total, sizeof(total), "%llu", (unsigned long long)threads);
    fatal("kernel '%s': a block of %lld x %lld x %lld = %s threads; the "
          "device allows at most %lld threads per block",
          name, (long long)block[0], (long long)block[1], (long long)block[2],
          total, (long long)limits.maxThreadsPerBlock);
  }
  const int64_t *maxBlock = limits.maxBlock, *maxGrid = limits.maxGrid;
  if (block[0] > maxBlock[0] || block[1] > maxBlock[1] ||
      block[2] > maxBlock[2])
    fatal("kernel '%s': a block of %lld x %lld x %lld threads; the device "
          "allows blocks of at most %lld x %lld x %lld threads",
          name, (long long)block[0], (long long)block[1], (long long)block[2],
          (long long)maxBlock[0], (long long)maxBlock[1],
          (long long)maxBlock[2]);
  if (grid[0] > maxGrid[0] || grid[1] > maxGrid[1] || grid[2] > maxGrid[2])
    fatal("kernel '%s': a grid of %lld x %lld x %lld blocks; the device "
          "allows grids of at most %lld x %lld x %lld blocks",
          name, (long long)grid[0], (long long)grid[1], (long long)grid[2],
          (long long)maxGrid[0], (long long)maxGrid[1], (long long)maxGrid[2]);
}
