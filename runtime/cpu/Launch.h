//===----------------------------------------------------------------------===//
// One validated kernel launch, as the workers see it.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_LAUNCH_H
#define GPUMEM_RUNTIME_CPU_LAUNCH_H

#include "gpumem/Runtime/CPUKernelABI.h"

#include <atomic>
#include <cstdint>

namespace gpumem::cpu {

/// How the threads of a block run.
enum class BlockMode {
  /// runBlocks(params, ctx, first, last) once per range of blocks: it loops
  /// over the blocks and their threads.
  Block,
  /// runThread once per thread, one after the other, no fibers: kernels
  /// without barriers or warp operations, and blocks of one thread.
  Loop,
  /// One fiber per thread running runThread, switched at barriers and
  /// shuffles.
  Fibers,
  /// One coroutine per thread (startCoroutine, resumeCoroutine), suspended
  /// at barriers and warp operations; scheduled like fibers.
  Coroutines,
  /// Coroutines of a barriersOnly kernel: every round runs each waiting
  /// thread to its next barrier, then checks they all reached the same one.
  BarrierCoroutines,
};

/// Everything a launch shares, read-only, with every worker.
struct LaunchInfo {
  const GPUMemCPUKernel *kernel;
  void **params;
  int64_t grid[3];
  int64_t block[3];
  int64_t numBlocks;       ///< grid[0] * grid[1] * grid[2]
  int64_t threadsPerBlock; ///< block[0] * block[1] * block[2], 1..1024
  /// Lanes of a warp: the kernel's warpSize, 32 when it gives none.
  uint32_t warpSize;
  int64_t staticBytes;  ///< staticSharedBytes rounded to the alignment
  int64_t dynamicBytes; ///< the launch's `smem`
  BlockMode mode;
  uint32_t serial;      ///< the process's launches, numbered from 1
  const char *location; ///< the launch's "file:line:col", or null
  /// Set by a thread that fails an assert; the launch then fails.
  std::atomic<bool> *assertFailed = nullptr;
};

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_LAUNCH_H
