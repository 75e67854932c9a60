//===----------------------------------------------------------------------===//
// The launch configuration checks the cuda runtime makes before it calls
// cuLaunchKernel, and the cpu runtime makes for cuda-emu kernels, with one
// set of messages: the driver answers a block or grid beyond the device's
// limits only with CUDA_ERROR_INVALID_VALUE, so each limit is checked here
// first and an error names the one exceeded.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_CUDALAUNCHLIMITS_H
#define GPUMEM_RUNTIME_COMMON_CUDALAUNCHLIMITS_H

#include "gpumem/Runtime/Limits.h"

#include <cstdint>

namespace gpumem::runtime {

/// A CUDA device's launch limits (CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
/// _MAX_BLOCK_DIM_X/Y/Z, _MAX_GRID_DIM_X/Y/Z).
struct CUDALaunchLimits {
  int64_t maxThreadsPerBlock;
  int64_t maxBlock[3];
  int64_t maxGrid[3];
};

/// The limits of every NVIDIA GPU since sm_30 (Limits.h).
constexpr CUDALaunchLimits kNVIDIALaunchLimits = {
    GPUMEM_MAX_THREADS_PER_BLOCK,
    {GPUMEM_MAX_BLOCK_DIM_X, GPUMEM_MAX_BLOCK_DIM_Y, GPUMEM_MAX_BLOCK_DIM_Z},
    {GPUMEM_MAX_GRID_DIM_X, GPUMEM_MAX_GRID_DIM_Y, GPUMEM_MAX_GRID_DIM_Z}};

/// Exits with an error (Fatal.h) naming the kernel, the configuration and
/// the limit when a dimension of `grid` or `block` is not in 1..UINT_MAX,
/// `smem` is negative, or the block or grid exceeds `limits`.
void checkCUDALaunch(const char *kernel, const intptr_t grid[3],
                     const intptr_t block[3], int32_t smem,
                     const CUDALaunchLimits &limits);

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_CUDALAUNCHLIMITS_H
