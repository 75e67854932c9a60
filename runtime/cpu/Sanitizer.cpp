//===----------------------------------------------------------------------===//
// Sanitizer reports (Sanitizer.h).
//
// Sites, headings and the summary are the runtimes' common ones
// (runtime/common/SanitizerReports.cpp); the reports here add what the
// cpu runtime knows: the reporting thread's context and the shadows.
//
// racecheck and initcheck on workgroup memory: before each access, the
// thread's bytes are compared with the shadow. A read of a byte no thread
// of the block wrote is an uninitialized read, and so is one through a
// planned buffer of a byte last written through another buffer the plan
// gave the same bytes (the access's flags name both); a byte another thread
// wrote in the same barrier phase is a race (read after write, write after
// write), and so is a write to a byte another thread read in the phase
// (write after read). A completed shuffle orders the accesses of the lanes
// of its warp like a barrier; two lanes of one warp writing a byte are not
// reported (warp-synchronous code storing one value). Atomics race with
// plain accesses only: the last atomic update is kept apart. Atomics mark
// bytes written.
//===----------------------------------------------------------------------===//

#include "Sanitizer.h"
#include "SchedulingMessages.h"
#include "Support.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unistd.h>

using namespace gpumem::cpu;

namespace {

/// The first two lines of a report of `kind` by the calling thread:
/// "gpumem: sanitizer: KIND in kernel 'K', block B thread T", then the
/// location with its source line.
void printHeading(const GPUMemThreadContext *ctx, const std::string &kind,
                  const char *location) {
  gpumem::runtime::printReportHeading(kind, ctx->kernelName, ctx->blockId,
                                      ctx->threadId, location);
}

} // namespace

gpumem::runtime::ReportingThread
gpumem::cpu::reportingThread(const GPUMemThreadContext *ctx) {
  gpumem::runtime::ReportingThread by{ctx->kernelName, {}, {}};
  std::copy(ctx->blockId, ctx->blockId + 3, by.block);
  std::copy(ctx->threadId, ctx->threadId + 3, by.thread);
  return by;
}

void gpumem::cpu::reportDeviceSanitizerLog(const GPUMemCPUKernel *kernel,
                                           const int64_t grid[3],
                                           const int64_t block[3]) {
  auto *log =
      static_cast<GPUMemDeviceSanitizerLog *>(kernel->deviceSanitizerLog);
  if (!log || (log->count == 0 && log->dropped == 0))
    return;
  gpumem::runtime::reportDeviceSanitizerLog(
      *log, nameOf(kernel), grid, block, [](uint64_t address) {
        return describeDeviceBuffer(reinterpret_cast<void *>(address));
      });
  std::memset(log, 0, sizeof(*log));
}

const char *gpumem::cpu::accessPhrase(int32_t flags) {
  if (flags & GPUMEM_SHARED_ATOMIC)
    return "updates it atomically";
  return flags & GPUMEM_SHARED_WRITE ? "writes it" : "reads it";
}

Coords gpumem::cpu::threadCoords(int64_t id, const int64_t dims[3]) {
  int64_t v[3] = {id % dims[0], id / dims[0] % dims[1],
                  id / (dims[0] * dims[1])};
  return coords(v);
}

int32_t gpumem::cpu::linearThreadId(const GPUMemThreadContext *ctx) {
  const int64_t *dims = ctx->blockDim;
  return int32_t(ctx->threadId[0] +
                 dims[0] * (ctx->threadId[1] + dims[1] * ctx->threadId[2]));
}

void BlockEpoch::startBlock(uint32_t launchSerial, uint32_t lanes) {
  static std::atomic<uint32_t> blocks{0};
  launch = launchSerial;
  warpSize = lanes;
  block = ++blocks;
  phase = 0;
  std::fill(warpPhases.begin(), warpPhases.end(), 0);
}

void gpumem::cpu::reportSyncError(const GPUMemThreadContext *ctx,
                                  const char *kind, const char *location,
                                  const std::string &details) {
  std::unique_lock<std::mutex> lock;
  if (!firstAtSite(lock, kind, location))
    return;
  printHeading(ctx, kind, location);
  std::fprintf(stderr, "  %s\n", details.c_str());
}

void gpumem::cpu::reportAddressError(const GPUMemThreadContext *ctx,
                                     const char *kind, const char *what,
                                     const char *location,
                                     const std::string &details) {
  std::unique_lock<std::mutex> lock;
  std::string fullKind = std::string(kind) + " " + (what ? what : "access");
  if (!firstAtSite(lock, fullKind, location))
    return;
  printHeading(ctx, fullKind, location);
  std::fprintf(stderr, "  %s\n", details.c_str());
}

void gpumem::cpu::reportAsyncCopyRace(const GPUMemThreadContext *ctx,
                                      int32_t flags, const std::string &memory,
                                      const std::string &where,
                                      const char *what, const char *location,
                                      Coords copier, const char *verb,
                                      const char *copyAt) {
  const char *kind =
      flags & GPUMEM_SHARED_ATOMIC  ? "atomic before async copy wait"
      : flags & GPUMEM_SHARED_WRITE ? "write before async copy wait"
                                    : "read before async copy wait";
  std::unique_lock<std::mutex> lock;
  if (!firstAtSite(lock, std::string("race (") + kind + ") on " + memory,
                   location))
    return;
  std::fprintf(stderr,
               "gpumem: sanitizer: race (%s) on %s in kernel '%s', block %s: "
               "%s (%s)\n"
               "  thread %s %s at %s\n"
               "  thread %s %s at %s, and no wait for the copy came between\n",
               kind, memory.c_str(), ctx->kernelName, coords(ctx->blockId).text,
               where.c_str(), what ? what : "", coords(ctx->threadId).text,
               accessPhrase(flags), withSource(location).c_str(), copier.text,
               verb, withSource(copyAt).c_str());
}

void SharedMemoryShadow::prepare(size_t size) {
  if (bytes.size() < size)
    bytes.resize(size);
}

void SharedMemoryShadow::access(const GPUMemThreadContext *ctx,
                                BlockEpoch &epoch, const char *arena,
                                const void *address, int64_t count,
                                int32_t flags, const char *what,
                                const char *location) {
  int64_t offset = static_cast<const char *>(address) - arena;
  if (offset < 0 || count <= 0 || uint64_t(offset + count) > bytes.size())
    return; // out of the arena: memcheck's to report
  const int64_t *dims = ctx->blockDim;
  int32_t thread = linearThreadId(ctx);
  int32_t lanesPerWarp = int32_t(epoch.warpSize);
  int32_t warp = thread / lanesPerWarp;
  uint32_t warpPhase = epoch.warpPhase(uint32_t(warp));
  uint32_t block = epoch.block, phase = epoch.phase;
  // An earlier access of a lane of this warp before a shuffle they both
  // completed is ordered before this one.
  auto unordered = [&](int32_t otherWarp, uint32_t otherWarpPhase) {
    return otherWarp != warp || otherWarpPhase == warpPhase;
  };
  bool read = flags & GPUMEM_SHARED_READ, write = flags & GPUMEM_SHARED_WRITE;
  bool atomic = flags & GPUMEM_SHARED_ATOMIC;
  uint32_t buffer = uint32_t(flags) >> GPUMEM_SHARED_BUFFER_SHIFT;
  bool reported = false;
  for (int64_t k = offset; k < offset + count; ++k) {
    Byte &b = bytes[size_t(k)];
    bool written = b.writeBlock == block;
    bool writtenNow = written && b.writePhase == phase;
    bool readNow = b.readBlock == block && b.readPhase == phase &&
                   unordered(b.readerWarp, b.readWarpPhase);
    // Written, but as another planned buffer that had these bytes first:
    // this buffer's bytes start uninitialized all the same.
    bool foreign =
        written && buffer && b.writeBuffer && b.writeBuffer != buffer;
    if (!reported && read && (flags & GPUMEM_SHARED_CHECK_INIT) &&
        (!written || foreign)) {
      reported = true;
      std::unique_lock<std::mutex> lock;
      const char *kind = "uninitialized read of workgroup memory";
      if (firstAtSite(lock, kind, location)) {
        printHeading(ctx, kind, location);
        if (!foreign)
          std::fprintf(stderr,
                       "  byte %lld of the block's workgroup memory (%s), "
                       "which no thread of the block wrote\n",
                       (long long)k, what ? what : "");
        else
          std::fprintf(stderr,
                       "  byte %lld of the block's workgroup memory (%s), "
                       "which no thread of the block wrote as this buffer\n"
                       "  it was last written at %s, through another buffer "
                       "that the workgroup memory plan gave the same bytes "
                       "(the two are never live at once)\n",
                       (long long)k, what ? what : "",
                       withSource(b.writeAt).c_str());
      }
    }
    if (!reported && (flags & GPUMEM_SHARED_CHECK_RACES)) {
      const char *kind = nullptr, *verb = nullptr, *earlierAt = nullptr;
      int32_t other = -1;
      // Lanes of one warp writing the same byte between two shuffles are
      // taken as warp-synchronous code storing one value (upstream's
      // gpu.all_reduce lowering does so): not reported.
      bool sameWarpWrites = write && !atomic && b.writer / lanesPerWarp == warp;
      bool atomicNow = b.atomicBlock == block && b.atomicPhase == phase &&
                       b.atomicThread != -1 && b.atomicThread != thread &&
                       unordered(b.atomicWarp, b.atomicWarpPhase);
      if (writtenNow && b.writer >= 0 && b.writer != thread &&
          !sameWarpWrites &&
          unordered(b.writer / lanesPerWarp, b.writeWarpPhase)) {
        kind = atomic  ? "atomic after write"
               : write ? "write after write"
                       : "read after write";
        verb = "wrote it";
        other = b.writer;
        earlierAt = b.writeAt;
      } else if (write && readNow && b.reader != -1 && b.reader != thread) {
        kind = atomic ? "atomic after read" : "write after read";
        verb = "read it";
        other = b.reader;
        earlierAt = b.readAt;
      } else if (!atomic && atomicNow) {
        // Atomics race with plain accesses only.
        kind = write ? "write after atomic" : "read after atomic";
        verb = "updated it atomically";
        other = b.atomicThread;
        earlierAt = b.atomicAt;
      }
      if (kind) {
        reported = true;
        std::unique_lock<std::mutex> lock;
        if (firstAtSite(lock,
                        std::string("race (") + kind + ") on workgroup memory",
                        location)) {
          std::string who = other == -2 ? std::string("several threads")
                                        : std::string("thread ") +
                                              threadCoords(other, dims).text;
          std::fprintf(stderr,
                       "gpumem: sanitizer: race (%s) on workgroup memory in "
                       "kernel '%s', block %s: byte %lld (%s)\n"
                       "  thread %s %s at %s\n"
                       "  %s %s at %s, with no barrier between\n",
                       kind, ctx->kernelName, coords(ctx->blockId).text,
                       (long long)k, what ? what : "",
                       coords(ctx->threadId).text, accessPhrase(flags),
                       withSource(location).c_str(), who.c_str(), verb,
                       withSource(earlierAt).c_str());
        }
      }
    }
    if (write && !atomic) {
      b.writeBlock = block;
      b.writePhase = phase;
      b.writeWarpPhase = warpPhase;
      b.writer = thread;
      b.writeAt = location;
      b.writeBuffer = buffer;
    } else if (atomic) {
      if ((!written || foreign) && write) {
        // Written, for initcheck, by no thread a plain access races with.
        b.writeBlock = block;
        b.writePhase = phase;
        b.writer = -1;
        b.writeAt = location;
        b.writeBuffer = buffer;
      }
      bool atomicNow = b.atomicBlock == block && b.atomicPhase == phase;
      b.atomicThread = atomicNow && b.atomicThread != thread ? -2 : thread;
      b.atomicWarp = atomicNow && b.atomicWarp != warp ? -2 : warp;
      b.atomicBlock = block;
      b.atomicPhase = phase;
      b.atomicWarpPhase = warpPhase;
      b.atomicAt = location;
    }
    if (read && !atomic) {
      b.reader = readNow && b.reader != thread ? -2 : thread;
      b.readerWarp = readNow && b.readerWarp != warp ? -2 : warp;
      b.readBlock = block;
      b.readPhase = phase;
      b.readWarpPhase = warpPhase;
      b.readAt = location;
    }
  }
}
