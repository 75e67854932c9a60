//===----------------------------------------------------------------------===//
// The launch configuration checks the cuda runtime makes before it calls
// cuLaunchKernel, and the cpu runtime makes for cuda-emu kernels, with one
// set of messages: the driver answers a block or grid beyond the device's
// limits only with CUDA_ERROR_INVALID_VALUE, so each limit is checked here
// first and an error names the one exceeded.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_CUDALAUNCHLIMITS_H
#define GPUMEM_RUNTIME_COMMON_CUDALAUNCHLIMITS_H

#include <cstdint>

namespace gpumem::runtime {

/// A CUDA device's launch limits (CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
/// _MAX_BLOCK_DIM_X/Y/Z, _MAX_GRID_DIM_X/Y/Z).
struct CUDALaunchLimits {
  int64_t maxThreadsPerBlock;
  int64_t maxBlock[3];
  int64_t maxGrid[3];
};

/// The limits of every NVIDIA GPU since sm_30: 1024 threads per block,
/// blocks of at most 1024 x 1024 x 64, grids of 2^31-1 x 65535 x 65535.
constexpr CUDALaunchLimits kNVIDIALaunchLimits = {
    1024, {1024, 1024, 64}, {2147483647, 65535, 65535}};

/// Exits with an error (Fatal.h) naming the kernel, the configuration and
/// the limit when a dimension of `grid` or `block` is not in 1..UINT_MAX,
/// `smem` is negative, or the block or grid exceeds `limits`.
void checkCUDALaunch(const char *kernel, const intptr_t grid[3],
                     const intptr_t block[3], int32_t smem,
                     const CUDALaunchLimits &limits);

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_CUDALAUNCHLIMITS_H
