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
