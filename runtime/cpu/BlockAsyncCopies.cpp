//===----------------------------------------------------------------------===//
// nvgpu's asynchronous copies on the cpu target (decision 146): the same
// semantics, but each thread's queue is the worker's (BlockRunner), indexed
// by the thread's linear id, since a fissioned kernel runs a block's
// threads on one stack; a queue left by an earlier block is dropped when
// its thread next copies or waits. Under --sanitize a copy also names its
// location: racecheck reports an access of its destination, or a write of
// its source, while it is queued (on a GPU the bytes may or may not have
// landed), and at the wait its source counts as read and its destination
// as written, there and by its thread (racecheck and initcheck).
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace gpumem::cpu;

namespace {

/// Whether [a, a + aBytes) and [b, b + bBytes) share a byte.
bool overlap(const void *a, int64_t aBytes, const void *b, int64_t bBytes) {
  uintptr_t x = uintptr_t(a), y = uintptr_t(b);
  return aBytes > 0 && bBytes > 0 && x < y + uint64_t(bBytes) &&
         y < x + uint64_t(aBytes);
}

} // namespace

BlockRunner::AsyncQueue &
BlockRunner::asyncQueue(const GPUMemThreadContext *ctx) {
  const LaunchInfo &info = *launch;
  const int64_t *b = ctx->blockId;
  uint64_t key =
      (uint64_t(info.serial) << 40) ^
      uint64_t(b[0] + info.grid[0] * (b[1] + info.grid[1] * b[2]) + 1);
  size_t thread = size_t(linearThreadId(ctx));
  if (thread >= asyncQueues.size())
    asyncQueues.resize(thread + 1);
  AsyncQueue &queue = asyncQueues[thread];
  if (queue.key != key) {
    queuedCopies -= queue.copies.size();
    queue.copies.clear();
    queue.groups = 0;
    queue.key = key;
  }
  return queue;
}

void BlockRunner::dropAsyncCopies() {
  if (!queuedCopies)
    return;
  for (AsyncQueue &queue : asyncQueues) {
    queue.copies.clear();
    queue.key = 0;
  }
  queuedCopies = 0;
}

void BlockRunner::asyncCopyIssue(GPUMemThreadContext *ctx, void *dst,
                                 const void *src, int32_t bytes,
                                 int32_t srcBytes, const char *location) {
  AsyncQueue &queue = asyncQueue(ctx);
  if (srcBytes < 0 || srcBytes > bytes)
    srcBytes = bytes;
  queue.copies.push_back({static_cast<char *>(dst),
                          static_cast<const char *>(src), bytes, srcBytes,
                          queue.groups, location});
  ++queuedCopies;
}

void BlockRunner::asyncCopyGroup(GPUMemThreadContext *ctx) {
  ++asyncQueue(ctx).groups;
}

void BlockRunner::asyncCopyWaitGroups(GPUMemThreadContext *ctx,
                                      int32_t groups) {
  AsyncQueue &queue = asyncQueue(ctx);
  // Committed groups are 0 .. groups - 1; the newest `groups` may stay,
  // and with groups < 0 (wait_all) none does.
  int64_t oldestKept =
      groups < 0 ? INT64_MAX : int64_t(queue.groups) - int64_t(groups);
  // Out of the queue first: racecheck must not see them as queued.
  performing.clear();
  size_t kept = 0;
  for (const PendingCopy &copy : queue.copies) {
    if (copy.group < oldestKept)
      performing.push_back(copy);
    else
      queue.copies[kept++] = copy;
  }
  queue.copies.resize(kept);
  queuedCopies -= performing.size();
  for (const PendingCopy &copy : performing)
    performAsyncCopy(ctx, copy);
}

void BlockRunner::performAsyncCopy(GPUMemThreadContext *ctx,
                                   const PendingCopy &copy) {
  int32_t flags = addressCheckFlags();
  // By address (cuda-emu), memcheck checks the copy's bytes here too; the
  // cpu target checked its memrefs' indices when the copy was issued.
  if (!launch->kernel->emulatedChip)
    flags &= ~GPUMEM_ACCESS_CHECK_BOUNDS;
  if (flags) {
    std::string what = "async copy of " + std::to_string(copy.bytes) + " bytes";
    auto note = [&](const void *address, int32_t bytes, int32_t access) {
      if (bytes <= 0)
        return;
      if (launch->kernel->emulatedChip) // cuda-emu: by address
        addressAccess(ctx, address, bytes, flags | access, what.c_str(),
                      copy.location);
      else if (uintptr_t(address) - uintptr_t(arena) < arenaCapacity)
        sharedAccess(ctx, address, bytes, flags | access, what.c_str(),
                     copy.location);
      else
        deviceAccess(ctx, address, bytes, flags | access, what.c_str(),
                     copy.location);
    };
    note(copy.src, copy.srcBytes, GPUMEM_SHARED_READ);
    note(copy.dst, copy.bytes, GPUMEM_SHARED_WRITE);
  }
  std::memcpy(copy.dst, copy.src, size_t(copy.srcBytes));
  std::memset(copy.dst + copy.srcBytes, 0, size_t(copy.bytes - copy.srcBytes));
}

void BlockRunner::checkAsyncCopies(const GPUMemThreadContext *ctx,
                                   const void *address, int64_t bytes,
                                   int32_t flags, const char *what,
                                   const char *location) {
  bool write = flags & GPUMEM_SHARED_WRITE;
  for (size_t thread = 0; thread < asyncQueues.size(); ++thread) {
    for (const PendingCopy &copy : asyncQueues[thread].copies) {
      const char *verb = nullptr;
      const char *start = nullptr;
      if (overlap(address, bytes, copy.dst, copy.bytes)) {
        verb = "copies into it asynchronously";
        start = copy.dst;
      } else if (write && overlap(address, bytes, copy.src, copy.srcBytes)) {
        verb = "copies from it asynchronously";
        start = copy.src;
      }
      if (!verb)
        continue;
      // The first byte both touch.
      const char *byte = std::max(static_cast<const char *>(address), start);
      std::string memory, where;
      if (uintptr_t(byte) - uintptr_t(arena) < arenaCapacity) {
        memory = "workgroup memory";
        where = "byte " + std::to_string(byte - arena);
      } else {
        memory = "device memory";
        ShadowedRange range = findShadowedRange(byte);
        where = range.kind == ShadowedRange::Allocation
                    ? "byte " +
                          std::to_string(uintptr_t(byte) - range.allocation) +
                          " of device memory of " +
                          std::to_string(range.allocationBytes) + " bytes"
                    : "a byte outside device allocations";
      }
      reportAsyncCopyRace(ctx, flags, memory, where, what, location,
                          threadCoords(int64_t(thread), ctx->blockDim), verb,
                          copy.location);
      return;
    }
  }
}
