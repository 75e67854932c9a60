//===----------------------------------------------------------------------===//
// mgpuLaunchKernel: validates the launch configuration, computes the
// workgroup arena layout and the way threads run, copies the arguments (as
// cuLaunchKernel does: the caller may reuse its parameter array at once)
// and enqueues the grid on its stream (Streams.h), which hands it to the
// worker pool. A launch on the null stream waits for every stream and runs
// before mgpuLaunchKernel returns.
//
// Arena of a block: [static part, staticSharedBytes rounded up to
// GPUMEM_SHARED_ALIGNMENT][dynamic part, `smem` bytes], at most sm_90's
// 232448 bytes in all, as on the largest NVIDIA GPU. Kernels of the
// cuda-emu target carry their chip's limit and are refused with the
// messages the cuda runtime prints for the same launch on that chip;
// kernels of the rocm-emu target (an AMD chip, "gfx...") with the messages
// of HIP's hipModuleLaunchKernel that the rocm runtime prints.
//===----------------------------------------------------------------------===//

#include "Launch.h"
#include "CPURuntime.h"
#include "CUDALaunchLimits.h"
#include "HIPLaunchLimits.h"
#include "LaunchLocation.h"
#include "Streams.h"
#include "Support.h"
#include "WorkerPool.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

using namespace gpumem::cpu;

namespace {

/// The most shared memory a block may use: sm_90's per-block opt-in maximum,
/// the largest of the chips gpumem knows (lib/Support/NVIDIATarget.cpp).
/// A program that fits here may still be too large for a smaller chip.
/// gpumem-plan-workgroup-memory refuses static sizes over it.
constexpr int64_t kMaxSharedBytesPerBlock =
    GPUMEM_CPU_MAX_SHARED_BYTES_PER_BLOCK;
/// CUDA's grid limits (Limits.h).
constexpr int64_t kMaxGridX = GPUMEM_MAX_GRID_DIM_X;
constexpr int64_t kMaxGridYZ = GPUMEM_MAX_GRID_DIM_Y;
static_assert(GPUMEM_MAX_GRID_DIM_Y == GPUMEM_MAX_GRID_DIM_Z,
              "one message names both");

/// a * b * c of positive values, or -1 past INT64_MAX.
int64_t product(int64_t a, int64_t b, int64_t c) {
  int64_t ab, abc;
  if (__builtin_mul_overflow(a, b, &ab) || __builtin_mul_overflow(ab, c, &abc))
    return -1;
  return abc;
}

/// Whether the kernel requires one block size (knownBlockSize: its
/// known_block_size, or cuda-emu's .reqntid) and `block` is another.
bool differsFromRequiredSize(const GPUMemCPUKernel *kernel,
                             const intptr_t block[3]) {
  const int32_t *required = kernel->knownBlockSize;
  return required[0] && (block[0] != required[0] || block[1] != required[1] ||
                         block[2] != required[2]);
}

/// The checks libgpumem_cuda_runtime.so and the driver make of a launch on
/// the emulated chip, with the cuda runtime's messages.
void checkAsCUDADoes(const GPUMemCPUKernel *kernel, const intptr_t grid[3],
                     const intptr_t block[3], int32_t smem) {
  const char *name = nameOf(kernel);
  // The cuda runtime's checks of the device's limits, with its messages.
  gpumem::runtime::checkCUDALaunch(name, grid, block, smem,
                                   gpumem::runtime::kNVIDIALaunchLimits);
  int64_t threads = product(block[0], block[1], block[2]);
  int64_t staticBytes = kernel->staticSharedBytes;
  if (staticBytes + smem > kernel->maxSharedBytesPerBlock)
    fatal("kernel '%s' asks for %lld bytes of shared memory (%lld static + "
          "%d dynamic); the device allows at most %lld per block",
          name, (long long)(staticBytes + smem), (long long)staticBytes, smem,
          (long long)kernel->maxSharedBytesPerBlock);
  auto fail = [&](const char *error, const char *why) {
    fatal("cuLaunchKernel failed for kernel '%s' (grid %lldx%lldx%lld, block "
          "%lldx%lldx%lld, %d bytes of dynamic shared memory): %s%s",
          name, (long long)grid[0], (long long)grid[1], (long long)grid[2],
          (long long)block[0], (long long)block[1], (long long)block[2], smem,
          error, why);
  };
  // The kernel's own limits (PTX .maxntid and .reqntid, which upstream's
  // NVVM lowering makes of known_block_size), which the driver enforces.
  char why[160];
  if (kernel->maxThreadsPerBlock && threads > kernel->maxThreadsPerBlock) {
    std::snprintf(why, sizeof(why),
                  " (the kernel's .maxntid allows at most %d threads per "
                  "block)",
                  kernel->maxThreadsPerBlock);
    fail("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources requested "
         "for launch",
         why);
  }
  if (differsFromRequiredSize(kernel, block)) {
    const int32_t *required = kernel->knownBlockSize;
    std::snprintf(why, sizeof(why),
                  " (the kernel's .reqntid requires blocks of %dx%dx%d)",
                  required[0], required[1], required[2]);
    fail("CUDA_ERROR_INVALID_VALUE: invalid argument", why);
  }
}

/// Whether a kernel runs an AMD chip's code (rocm-emu): its chip is a
/// "gfx" name, an NVIDIA chip's an "sm_" one.
bool emulatesAMDChip(const GPUMemCPUKernel *kernel) {
  return kernel->emulatedChip &&
         std::strncmp(kernel->emulatedChip, "gfx", 3) == 0;
}

/// The checks HIP's hipModuleLaunchKernel makes of a launch on the emulated
/// AMD chip, with the rocm runtime's messages; the kernel's max_threads is
/// its flat workgroup size.
void checkAsHIPDoes(const GPUMemCPUKernel *kernel, const intptr_t grid[3],
                    const intptr_t block[3], int32_t smem) {
  using namespace gpumem::runtime;
  HIPLaunchLimits limits = {kHIPMaxThreadsPerBlock,
                            {kHIPMaxGrid[0], kHIPMaxGrid[1], kHIPMaxGrid[2]},
                            kernel->maxSharedBytesPerBlock};
  checkHIPLaunch({nameOf(kernel), grid, block, smem, kernel->staticSharedBytes,
                  kernel->maxThreadsPerBlock, kernel->emulatedChip},
                 limits);
}

LaunchInfo validate(const GPUMemCPUKernel *kernel, const intptr_t grid[3],
                    const intptr_t block[3], int32_t smem, void **params,
                    size_t paramsCount) {
  const char *name = nameOf(kernel);
  static std::atomic<uint32_t> launches{0};
  LaunchInfo info;
  info.serial = ++launches;
  info.kernel = kernel;
  info.params = params;
  for (int d = 0; d < 3; ++d) {
    info.grid[d] = grid[d];
    info.block[d] = block[d];
  }
  bool amd = emulatesAMDChip(kernel);
  if (amd)
    checkAsHIPDoes(kernel, grid, block, smem);
  else if (kernel->emulatedChip)
    checkAsCUDADoes(kernel, grid, block, smem);
  if (block[0] < 1 || block[1] < 1 || block[2] < 1)
    fatal("kernel '%s': a block of %lld x %lld x %lld threads: every "
          "dimension must be at least 1",
          name, (long long)block[0], (long long)block[1], (long long)block[2]);
  info.threadsPerBlock = product(block[0], block[1], block[2]);
  info.warpSize = kernel->warpSize ? uint32_t(kernel->warpSize)
                                   : uint32_t(GPUMEM_WARP_SIZE);
  if (info.threadsPerBlock < 0 ||
      info.threadsPerBlock > GPUMEM_MAX_THREADS_PER_BLOCK) {
    char total[32] = "more than 2^63";
    if (info.threadsPerBlock > 0)
      std::snprintf(total, sizeof(total), "%lld",
                    (long long)info.threadsPerBlock);
    fatal("kernel '%s': a block of %lld x %lld x %lld = %s threads; the cpu "
          "target allows at most %d threads per block",
          name, (long long)block[0], (long long)block[1], (long long)block[2],
          total, GPUMEM_MAX_THREADS_PER_BLOCK);
  }
  if (differsFromRequiredSize(kernel, block)) {
    const int32_t *known = kernel->knownBlockSize;
    fatal("kernel '%s': a block of %lld x %lld x %lld threads, but the kernel "
          "was compiled for blocks of %d x %d x %d (its known_block_size)",
          name, (long long)block[0], (long long)block[1], (long long)block[2],
          known[0], known[1], known[2]);
  }
  if (grid[0] < 1 || grid[1] < 1 || grid[2] < 1)
    fatal("kernel '%s': a grid of %lld x %lld x %lld blocks: every dimension "
          "must be at least 1",
          name, (long long)grid[0], (long long)grid[1], (long long)grid[2]);
  info.numBlocks = product(grid[0], grid[1], grid[2]);
  if (info.numBlocks < 0)
    fatal("kernel '%s': a grid of %lld x %lld x %lld blocks has more than "
          "2^63 blocks",
          name, (long long)grid[0], (long long)grid[1], (long long)grid[2]);
  // CUDA's grid limits, so that a program that runs here runs on a GPU
  // (HIP's, checked above, on an AMD chip).
  if (!amd &&
      (grid[0] > kMaxGridX || grid[1] > kMaxGridYZ || grid[2] > kMaxGridYZ))
    fatal("kernel '%s': a grid of %lld x %lld x %lld blocks exceeds a GPU's "
          "limits: x at most %lld, y and z at most %lld",
          name, (long long)grid[0], (long long)grid[1], (long long)grid[2],
          (long long)kMaxGridX, (long long)kMaxGridYZ);
  if (smem < 0)
    fatal("kernel '%s': negative dynamic shared memory size %d", name, smem);
  if (size_t(kernel->numParams) != paramsCount)
    fatal("kernel '%s': takes %d parameters, the launch passes %zu", name,
          kernel->numParams, paramsCount);
  if (paramsCount && !params)
    fatal("kernel '%s': launched with %zu parameters but no parameter array",
          name, paramsCount);
  info.staticBytes = int64_t(
      alignTo(uint64_t(kernel->staticSharedBytes), GPUMEM_SHARED_ALIGNMENT));
  info.dynamicBytes = smem;
  if (!kernel->emulatedChip &&
      info.staticBytes + info.dynamicBytes > kMaxSharedBytesPerBlock)
    fatal("kernel '%s': a block needs %lld bytes of shared memory (%lld "
          "static, %d dynamic); the cpu target allows at most %lld, like the "
          "largest NVIDIA GPU (sm_90)",
          name, (long long)(info.staticBytes + info.dynamicBytes),
          (long long)info.staticBytes, smem,
          (long long)kMaxSharedBytesPerBlock);
  if (kernel->needsFibers && kernel->startCoroutine && kernel->resumeCoroutine)
    info.mode = kernel->barriersOnly ? BlockMode::BarrierCoroutines
                                     : BlockMode::Coroutines;
  else if (kernel->runBlocks && !kernel->needsFibers)
    info.mode = BlockMode::Block;
  else if (!kernel->needsFibers || info.threadsPerBlock == 1)
    info.mode = BlockMode::Loop;
  else
    info.mode = BlockMode::Fibers;
  return info;
}

/// A launch's own copy of its arguments: each in a 16-byte aligned slot.
struct ArgumentCopy {
  struct alignas(16) Slot {
    char bytes[16];
  };
  std::vector<Slot> slots;
  std::vector<void *> params;

  ArgumentCopy(const GPUMemCPUKernel *kernel, void **from) {
    size_t count = size_t(kernel->numParams), total = 0;
    if (count && !kernel->paramBytes)
      fatal("kernel '%s': the module lists no parameter sizes", nameOf(kernel));
    for (size_t i = 0; i < count; ++i)
      total += alignTo(uint64_t(kernel->paramBytes[i]), 16);
    slots.resize(total / sizeof(Slot));
    params.resize(count);
    char *slot = reinterpret_cast<char *>(slots.data());
    for (size_t i = 0; i < count; ++i) {
      if (!from[i])
        fatal("kernel '%s': argument %zu is a null pointer", nameOf(kernel), i);
      std::memcpy(slot, from[i], size_t(kernel->paramBytes[i]));
      params[i] = slot;
      slot += alignTo(uint64_t(kernel->paramBytes[i]), 16);
    }
  }
};

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
  intptr_t grid[3] = {gridX, gridY, gridZ};
  intptr_t block[3] = {blockX, blockY, blockZ};
  LaunchInfo info = validate(static_cast<const GPUMemCPUKernel *>(function),
                             grid, block, smem, params, paramsCount);
  info.location = gpumem::runtime::currentLaunchLocation();
  gpumem::runtime::clearLaunchLocation();
  if (!stream) {
    Stream::synchronizeAll();
    WorkerPool::get().run(info);
    return;
  }
  auto arguments = std::make_shared<ArgumentCopy>(info.kernel, params);
  info.params = arguments->params.data();
  static_cast<Stream *>(stream)->enqueue(
      [info, arguments] { WorkerPool::get().run(info); });
}

extern "C" void gpumemCPURuntimeConfigure(int32_t workers, int64_t stackBytes) {
  WorkerPool::get().configure(workers, stackBytes);
}
