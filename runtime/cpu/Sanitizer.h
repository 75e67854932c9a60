//===----------------------------------------------------------------------===//
// The cpu runtime's side of --sanitize: reports of the checks that
// instrumented kernels make (gpumem-sanitize-memory-accesses), in the
// common words of runtime/common/SanitizerReports.h, and the shadow of a
// block's workgroup memory that racecheck and initcheck consult.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_SANITIZER_H
#define GPUMEM_RUNTIME_CPU_SANITIZER_H

#include "SanitizerReports.h"
#include "SchedulingMessages.h"
#include "gpumem/Runtime/CPUKernelABI.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace gpumem::cpu {

/// Whether `address` is in device memory freed with mgpuMemFree that is
/// still in quarantine (Memory.cpp): its allocation's start and size.
bool findFreedDeviceMemory(const void *address, uint64_t &start,
                           uint64_t &bytes);

using gpumem::runtime::firstAtSite;
using gpumem::runtime::withSource;
/// The kernel, block and thread of `ctx`, for the common reports.
gpumem::runtime::ReportingThread
reportingThread(const GPUMemThreadContext *ctx);
/// The coordinates of linear thread `id` in blocks of `dims`.
Coords threadCoords(int64_t id, const int64_t dims[3]);
/// "reads it", "writes it" or "updates it atomically", for an access with
/// GPUMemSharedAccess `flags`.
const char *accessPhrase(int32_t flags);
/// The calling thread's linear id in its block.
int32_t linearThreadId(const GPUMemThreadContext *ctx);

/// Where a block's accesses stand relative to each other: the block run
/// (numbered across the process, so that two blocks of any workers
/// differ), its launch, the barrier phase, and each warp's shuffle phase
/// (a completed shuffle orders the accesses of its warp's lanes).
class BlockEpoch {
public:
  /// A new block of launch `launch`, whose kernel's warps have `warpSize`
  /// lanes, starts (phase 0).
  void startBlock(uint32_t launch, uint32_t warpSize);
  /// The block's threads passed a barrier.
  void barrier() { ++phase; }
  /// Lanes of warp `warp` completed a shuffle together (for every lane of
  /// the warp: an approximation for shuffles narrower than the warp).
  void warpSynced(uint32_t warp) { ++warpPhaseSlot(warp); }
  uint32_t warpPhase(uint32_t warp) const {
    return warp < warpPhases.size() ? warpPhases[warp] : 0;
  }
  uint32_t launch = 0, block = 0, phase = 0;
  /// Lanes of a warp of the running kernel: linear thread id / warpSize is
  /// the warp.
  uint32_t warpSize = GPUMEM_WARP_SIZE;

private:
  uint32_t &warpPhaseSlot(uint32_t warp) {
    if (warp >= warpPhases.size())
      warpPhases.resize(warp + 1, 0);
    return warpPhases[warp];
  }
  std::vector<uint32_t> warpPhases;
};

/// Reports a synchronization error (synccheck) of `kind` ("divergent
/// barrier") by the thread of `ctx` at `location`, once per site, with
/// `details` as the report's last line.
void reportSyncError(const GPUMemThreadContext *ctx, const char *kind,
                     const char *location, const std::string &details);

/// Reports an access by address (cuda-emu) of `kind` ("out-of-bounds",
/// "use after free"), once per site, with `details` naming the bytes.
void reportAddressError(const GPUMemThreadContext *ctx, const char *kind,
                        const char *what, const char *location,
                        const std::string &details);

/// Reports (racecheck) the access of `flags` (`what` at `location`) by the
/// thread of `ctx` to `where` ("byte 8") of `memory` ("workgroup memory"),
/// which thread `copier` `verb` ("copies into it asynchronously") at
/// `copyAt` with no wait for the copy yet.
void reportAsyncCopyRace(const GPUMemThreadContext *ctx, int32_t flags,
                         const std::string &memory, const std::string &where,
                         const char *what, const char *location, Coords copier,
                         const char *verb, const char *copyAt);

/// services->accessError's words for device, host-registered or managed
/// memory a memref views at `base` ("device memory of 64 bytes from byte 0,
/// allocated at ..."); empty when it is not an allocation.
std::string describeDeviceBuffer(const void *base);

/// Reports and clears the log in device memory of `kernel`'s module
/// (kernel->deviceSanitizerLog, cuda-emu with the device's log) after a
/// launch of grid `grid` and blocks `block`; nothing without one.
void reportDeviceSanitizerLog(const GPUMemCPUKernel *kernel,
                              const int64_t grid[3], const int64_t block[3]);

/// What each byte of one worker's workgroup arena saw last: the block run
/// and barrier phase of its last write and read, which thread made them and
/// where, and which planned buffer the write went through. Entries of an
/// earlier block count as never written, so nothing is cleared between
/// blocks; bytes written through another buffer that shares them count as
/// never written too.
class SharedMemoryShadow {
public:
  /// Covers `bytes` bytes of arena.
  void prepare(size_t bytes);
  /// services->sharedAccess, for the block whose arena starts at `arena`,
  /// at `epoch`.
  void access(const GPUMemThreadContext *ctx, BlockEpoch &epoch,
              const char *arena, const void *address, int64_t bytes,
              int32_t flags, const char *what, const char *location);

private:
  struct Byte {
    uint32_t writeBlock = 0, writePhase = 0, readBlock = 0, readPhase = 0;
    /// The writer's and last reader's warp phase (warpSynced).
    uint32_t writeWarpPhase = 0, readWarpPhase = 0;
    /// The planned buffer the last write went through (the flags'
    /// GPUMEM_SHARED_BUFFER_SHIFT bits; 0: none or not known).
    uint32_t writeBuffer = 0;
    int32_t writer = -1;     ///< linear thread id; -1: an atomic
    int32_t reader = -1;     ///< -2: several threads
    int32_t readerWarp = -1; ///< -2: threads of several warps
    const char *writeAt = nullptr, *readAt = nullptr;
    /// The last atomic update in the block: its phase, warp phase, thread
    /// (-2: several), warp (-2: several) and location.
    uint32_t atomicBlock = 0, atomicPhase = 0, atomicWarpPhase = 0;
    int32_t atomicThread = -1, atomicWarp = -1;
    const char *atomicAt = nullptr;
  };
  std::vector<Byte> bytes;
};

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_SANITIZER_H
