//===----------------------------------------------------------------------===//
// PTX's asynchronous copies on the CPU (cuda-emu), from the PTX ISA's
// cp.async, cp.async.commit_group and cp.async.wait_group (9.7.9.25.3):
// a copy's data need not be in shared memory before the wait that covers
// its group, so here it is not: cp.async only records the copy in the
// thread's queue (the kernel's own stack slot; CPUKernelABI.h), a commit
// closes the open group, and a wait performs, in issue order, every copy
// of the groups it waits for and removes them from the queue. A program
// that reads the destination without the wait reads what was there
// before, as a GPU may. wait_all performs every copy, committed or not.
// A queue that is full performs its oldest copy early, which PTX allows
// (a copy may complete at any time before its wait). Copies still queued
// when the thread ends are dropped with its stack: nothing can wait for
// them any more. ca and cg differ only in caching, which is not modelled.
//===----------------------------------------------------------------------===//

#include "PTXAsyncCopies.h"

#include <cstring>

using namespace gpumem::cpu;

namespace {

struct Copy {
  char *dst;
  const char *src;
  int32_t bytes, srcBytes, group, unused;
};

struct Queue {
  int32_t count;  // copies recorded and not yet performed
  int32_t groups; // commits so far: the open group's number
  int64_t unused;
  Copy copies[64];
};
static_assert(sizeof(Queue) <= GPUMEM_ASYNC_COPY_QUEUE_BYTES,
              "the queue must fit the kernel's slot");

void perform(const Copy &copy) {
  std::memcpy(copy.dst, copy.src, size_t(copy.srcBytes));
  std::memset(copy.dst + copy.srcBytes, 0, size_t(copy.bytes - copy.srcBytes));
}

/// Performs the copies `done` says, keeping the others in order.
template <typename Done> void performWhere(Queue &queue, Done done) {
  int32_t kept = 0;
  for (int32_t i = 0; i < queue.count; ++i) {
    if (done(queue.copies[i]))
      perform(queue.copies[i]);
    else
      queue.copies[kept++] = queue.copies[i];
  }
  queue.count = kept;
}

} // namespace

void gpumem::cpu::ptxAsyncCopy(GPUMemThreadContext *, void *queue, void *dst,
                               const void *src, int32_t bytes,
                               int32_t srcBytes) {
  Queue &q = *static_cast<Queue *>(queue);
  // PTX leaves src-size above cp-size undefined; read at most cp-size.
  if (srcBytes < 0 || srcBytes > bytes)
    srcBytes = bytes;
  if (q.count == int32_t(sizeof q.copies / sizeof q.copies[0])) {
    perform(q.copies[0]);
    std::memmove(&q.copies[0], &q.copies[1],
                 sizeof(Copy) * size_t(q.count - 1));
    --q.count;
  }
  q.copies[q.count++] = {static_cast<char *>(dst),
                         static_cast<const char *>(src),
                         bytes,
                         srcBytes,
                         q.groups,
                         0};
}

void gpumem::cpu::ptxAsyncCopyCommit(GPUMemThreadContext *, void *queue) {
  ++static_cast<Queue *>(queue)->groups;
}

void gpumem::cpu::ptxAsyncCopyWait(GPUMemThreadContext *, void *queue,
                                   int32_t groups) {
  Queue &q = *static_cast<Queue *>(queue);
  if (groups < 0) {
    performWhere(q, [](const Copy &) { return true; });
    return;
  }
  // Committed groups are 0 .. q.groups - 1; the newest `groups` may stay.
  int64_t oldestKept = int64_t(q.groups) - groups;
  performWhere(q, [&](const Copy &copy) { return copy.group < oldestKept; });
}

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
#include <string>

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
  int32_t checks = launch->kernel->checks;
  int32_t flags =
      (checks & GPUMEM_CHECK_RACECHECK ? GPUMEM_SHARED_CHECK_RACES : 0) |
      (checks & GPUMEM_CHECK_INITCHECK ? GPUMEM_SHARED_CHECK_INIT : 0);
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
