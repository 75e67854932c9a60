//===----------------------------------------------------------------------===//
// Running the threads of a block on one worker.
//
// Block mode calls the kernel's runBlocks once for a range of blocks; Loop
// mode calls runThread for each thread in turn. Neither touches fibers. Fiber
// mode gives every thread a Boost.Context fcontext on its own stack and
// schedules them cooperatively, round-robin in linear thread order: the
// scheduler resumes each ready fiber until it parks or returns, then starts the
// next round with the fibers released meanwhile. Coroutine mode (cuda-emu
// kernels) schedules the same way, but a thread is an LLVM coroutine that
// suspends itself after each service call instead of parking, and is resumed
// with a call; a thread that need not wait is queued for the next round.
// Barrier-coroutine mode (kernels whose only synchronization is the block
// barrier) runs every waiting thread to its next barrier, then checks that
// all reached the same one. PTX's own synchronization is in
// PTXSynchronization.cpp.
//  - barrier: the thread parks; the one that makes the number of parked
//    threads equal to the number of live threads releases them all (into
//    the next round) and goes on without parking.
//  - shuffle: in BlockShuffle.cpp.
// Threads returning or trapping, and the errors that end a block, are in
// BlockThreadEnd.cpp.
// Counters per block and per warp make each event O(1) apart from the
// release itself. A state from which no thread can progress is an error
// found the moment it arises: a thread returning while others wait at a
// barrier, parked threads at different barriers, lanes of one warp at
// different shuffles, or lanes taking part in a shuffle at it and at a
// barrier.
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"
#include "CUDAEmulation.h"
#include "KernelFaults.h"
#include "LaunchLocation.h"
#include "PTXAsyncCopies.h"
#include "PTXWarpOps.h"
#include "Sanitizer.h"
#include "SchedulingMessages.h"
#include "Support.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

using namespace gpumem::cpu;
using boost::context::detail::jump_fcontext;
using boost::context::detail::make_fcontext;

namespace {

/// Steps `id` to the next index of the 3-D range `dims`, x fastest (the
/// next thread of a block, the next block of a grid); false after the last.
bool nextIndex(int64_t id[3], const int64_t dims[3]) {
  for (int d = 0; d < 3; ++d) {
    if (++id[d] < dims[d])
      return true;
    id[d] = 0;
  }
  return false;
}

void barrierService(GPUMemThreadContext *ctx, const char *location) {
  static_cast<BlockRunner *>(ctx->scheduler)->barrier(ctx, location);
}

uint64_t shuffleService(GPUMemThreadContext *ctx, uint64_t value,
                        int32_t offset, int32_t width, int32_t mode,
                        int32_t *valid, const char *location) {
  return static_cast<BlockRunner *>(ctx->scheduler)
      ->shuffle(ctx, value, offset, width, mode, valid, location);
}

void assertFailService(GPUMemThreadContext *ctx, const char *message,
                       const char *file, uint32_t line, const char *function) {
  static_cast<BlockRunner *>(ctx->scheduler)
      ->failAssert(ctx, message, file, line, function);
}

void barrierSyncService(GPUMemThreadContext *ctx, int32_t id, int32_t count,
                        const char *location) {
  static_cast<BlockRunner *>(ctx->scheduler)
      ->barrierSync(ctx, id, count, location);
}

uint64_t warpSyncService(GPUMemThreadContext *ctx, int32_t op,
                         uint64_t memberMask, uint64_t value, int32_t b,
                         int32_t c, int32_t *pred, const char *location) {
  return static_cast<BlockRunner *>(ctx->scheduler)
      ->warpSync(ctx, op, memberMask, value, b, c, pred, location);
}

void *coroutineFrameService(GPUMemThreadContext *ctx, int64_t bytes) {
  return static_cast<BlockRunner *>(ctx->scheduler)->coroutineFrame(ctx, bytes);
}

uint64_t warpSyncResultService(GPUMemThreadContext *ctx, int32_t *pred) {
  return static_cast<BlockRunner *>(ctx->scheduler)->warpSyncResult(ctx, pred);
}

void coroutineReturnedService(GPUMemThreadContext *ctx) {
  static_cast<BlockRunner *>(ctx->scheduler)->coroutineReturned(ctx);
}

void argumentCheckService(GPUMemThreadContext *ctx, const void *pointer,
                          int64_t argument, const char *location) {
  static_cast<BlockRunner *>(ctx->scheduler)
      ->argumentCheck(ctx, pointer, argument, location);
}

void deviceAccessService(GPUMemThreadContext *ctx, const void *address,
                         int64_t bytes, int32_t flags, const char *what,
                         const char *location) {
  static_cast<BlockRunner *>(ctx->scheduler)
      ->deviceAccess(ctx, address, bytes, flags, what, location);
}

void accessErrorService(GPUMemThreadContext *ctx, const char *what,
                        const char *location, int64_t dim, int64_t index,
                        int64_t size, const void *base) {
  static_cast<BlockRunner *>(ctx->scheduler)
      ->accessError(ctx, what, location, dim, index, size, base);
}

void blockPhaseService(GPUMemThreadContext *ctx) {
  static_cast<BlockRunner *>(ctx->scheduler)->blockPhase();
}

void addressAccessService(GPUMemThreadContext *ctx, const void *address,
                          int64_t bytes, int32_t flags, const char *what,
                          const char *location) {
  static_cast<BlockRunner *>(ctx->scheduler)
      ->addressAccess(ctx, address, bytes, flags, what, location);
}

void sharedAccessService(GPUMemThreadContext *ctx, const void *address,
                         int64_t bytes, int32_t flags, const char *what,
                         const char *location) {
  static_cast<BlockRunner *>(ctx->scheduler)
      ->sharedAccess(ctx, address, bytes, flags, what, location);
}

void asyncCopyIssueService(GPUMemThreadContext *ctx, void *dst, const void *src,
                           int32_t bytes, int32_t srcBytes,
                           const char *location) {
  static_cast<BlockRunner *>(ctx->scheduler)
      ->asyncCopyIssue(ctx, dst, src, bytes, srcBytes, location);
}

void asyncCopyGroupService(GPUMemThreadContext *ctx) {
  static_cast<BlockRunner *>(ctx->scheduler)->asyncCopyGroup(ctx);
}

void asyncCopyWaitGroupsService(GPUMemThreadContext *ctx, int32_t groups) {
  static_cast<BlockRunner *>(ctx->scheduler)->asyncCopyWaitGroups(ctx, groups);
}

void divisionErrorService(GPUMemThreadContext *ctx, int32_t overflow,
                          const char *what, const char *location) {
  gpumem::runtime::reportDivisionError(reportingThread(ctx), overflow != 0,
                                       what, location);
}

constexpr GPUMemRuntimeServices services = {
    barrierService,        shuffleService,
    assertFailService,     barrierSyncService,
    warpSyncService,       cudaVprintf,
    assertFailService,     coroutineFrameService,
    warpSyncResultService, coroutineReturnedService,
    accessErrorService,    sharedAccessService,
    argumentCheckService,  deviceAccessService,
    addressAccessService,  blockPhaseService,
    ptxAsyncCopy,          ptxAsyncCopyCommit,
    ptxAsyncCopyWait,      asyncCopyIssueService,
    asyncCopyGroupService, asyncCopyWaitGroupsService,
    divisionErrorService};

} // namespace

BlockRunner::BlockRunner(size_t stackBytes) : stacks(stackBytes) {}

void BlockRunner::mapArena(const LaunchInfo &info, size_t bytes) {
  unmapArena();
  arenaCapacity = alignTo(std::max<size_t>(bytes, GPUMEM_ARENA_ALIGNMENT),
                          GPUMEM_ARENA_ALIGNMENT);
  // A redzone after the capacity: an access a little past the block's
  // shared memory lands in the arena, where --sanitize finds it. Around
  // both, inaccessible guards: a wild access faults (a located kernel
  // fault report) instead of corrupting the runtime's heap.
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  size_t used = arenaCapacity + kArenaRedzone;
  size_t body = alignTo(used, page);
  arenaMappingBytes = 2 * kArenaGuard + body;
  void *mapping = mmap(nullptr, arenaMappingBytes, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED ||
      mprotect(static_cast<char *>(mapping) + kArenaGuard, body,
               PROT_READ | PROT_WRITE) != 0) {
    if (mapping != MAP_FAILED)
      munmap(mapping, arenaMappingBytes);
    arenaMappingBytes = 0;
    fatal("kernel '%s': out of memory allocating %zu bytes of workgroup "
          "memory",
          nameOf(info.kernel), bytes);
  }
  arenaMapping = static_cast<char *>(mapping);
  // The redzone ends at the trailing guard (both are multiples of the
  // arena's alignment, which divides the page size).
  arena = arenaMapping + kArenaGuard + body - used;
}

void BlockRunner::unmapArena() {
  if (arenaMapping)
    munmap(arenaMapping, arenaMappingBytes);
  arenaMapping = arena = nullptr;
  arenaMappingBytes = 0;
  arenaCapacity = 0;
  arenaLanding = false;
}

void BlockRunner::setArenaLanding(bool landing) {
  if (landing == arenaLanding)
    return;
  int protection = landing ? PROT_READ | PROT_WRITE : PROT_NONE;
  char *after = arena + arenaCapacity + kArenaRedzone;
  if (mprotect(arenaMapping, kArenaGuard, protection) != 0 ||
      mprotect(after, kArenaGuard, protection) != 0)
    fatal("cannot change the protection of the workgroup arena's guards");
  arenaLanding = landing;
}

std::string BlockRunner::describeOutsideArena(uintptr_t address) const {
  uint64_t shared = uint64_t(launch->staticBytes + launch->dynamicBytes);
  uintptr_t begin = uintptr_t(arena);
  if (address < begin)
    return std::to_string(begin - address) +
           " bytes before the block's shared memory, which has " +
           std::to_string(shared) + " bytes";
  return "byte " + std::to_string(address - begin) +
         " of the block's shared memory, which has " + std::to_string(shared) +
         " bytes";
}

bool BlockRunner::nearArena(uintptr_t address) const {
  uintptr_t begin = uintptr_t(arena);
  size_t guard = arenaLanding ? kArenaGuard : 0;
  return address - (begin - guard) <
         guard + arenaCapacity + kArenaRedzone + guard;
}

BlockRunner::~BlockRunner() {
  unmapArena();
  for (Frame &frame : frames)
    std::free(frame.memory);
}

void BlockRunner::prepare(const LaunchInfo &info) {
  checkedPointers.clear();
  for (ShadowedRange &range : deviceRanges)
    range = ShadowedRange();
  launch = &info;
  size_t arenaBytes = size_t(info.staticBytes + info.dynamicBytes);
  if (arenaBytes > arenaCapacity || !arena)
    mapArena(info, arenaBytes);
  setArenaLanding(checksMemory(info.kernel));

  GPUMemThreadContext base = {};
  for (int d = 0; d < 3; ++d) {
    base.blockDim[d] = info.block[d];
    base.gridDim[d] = info.grid[d];
  }
  base.sharedMemory = arena;
  base.dynamicSharedMemory = arena + info.staticBytes;
  base.dynamicSharedBytes = info.dynamicBytes;
  base.services = &services;
  base.scheduler = this;
  base.kernelName = nameOf(info.kernel);
  single = base;
  if (!scheduled())
    return;

  size_t threads = size_t(info.threadsPerBlock);
  if (info.mode == BlockMode::Fibers)
    stacks.reserve(threads);
  else
    frames.resize(std::max(frames.size(), threads));
  handles.assign(threads, nullptr);
  contexts.assign(threads, base);
  fibers.assign(threads, Fiber());
  warps.assign((threads + warpSize() - 1) / warpSize(), Warp());
  runQueue.reserve(threads);
  nextQueue.reserve(threads);
  barrierWaiters.reserve(threads);
  int64_t bx = info.block[0], by = info.block[1];
  for (size_t i = 0; i < threads; ++i) {
    int64_t linear = int64_t(i);
    contexts[i].threadId[0] = linear % bx;
    contexts[i].threadId[1] = linear / bx % by;
    contexts[i].threadId[2] = linear / (bx * by);
  }
}

void BlockRunner::run(int64_t first, int64_t last) {
  if (first >= last)
    return;
  // A fault in the blocks is reported as the kernel's (KernelFaults.h).
  enterKernel(this);
  const LaunchInfo &info = *launch;
  if (info.mode == BlockMode::Block) {
    // The kernel steps through the blocks itself and sets their ids. No
    // recovery point for a failed assert (a sigsetjmp per call costs as
    // much as a small block): runBlocks cannot go on without the thread
    // anyway, and the compiler gives kernels that may assert none.
    std::fill(single.threadId, single.threadId + 3, 0);
    if (!(info.kernel->checks &
          (GPUMEM_CHECK_RACECHECK | GPUMEM_CHECK_INITCHECK))) {
      // memcheck reads the block's id from the context: one call for the
      // range, as without checks.
      info.kernel->runBlocks(info.params, &single, first, last);
    } else {
      // racecheck's and initcheck's shadows tell blocks apart by number:
      // one at a time.
      for (int64_t block = first; block < last; ++block) {
        epoch.startBlock(info.serial, info.warpSize);
        dropAsyncCopies();
        info.kernel->runBlocks(info.params, &single, block, block + 1);
      }
    }
    leaveKernel();
    return;
  }
  int64_t blockId[3] = {first % info.grid[0],
                        first / info.grid[0] % info.grid[1],
                        first / (info.grid[0] * info.grid[1])};
  // Stepped, not divided, from block to block: blocks can be small.
  for (int64_t block = first; block < last; ++block) {
    runBlock(blockId);
    nextIndex(blockId, info.grid);
  }
  leaveKernel();
}

void BlockRunner::runBlock(const int64_t blockId[3]) {
  const LaunchInfo &info = *launch;
  // Only --sanitize's checks tell blocks apart by number.
  if (info.kernel->checks) {
    epoch.startBlock(info.serial, info.warpSize);
    dropAsyncCopies();
  }
  switch (info.mode) {
  case BlockMode::Block: // run() hands these blocks to the kernel.
    return;
  case BlockMode::Loop:
    std::copy(blockId, blockId + 3, single.blockId);
    std::fill(single.threadId, single.threadId + 3, 0);
    // A thread that fails an assert jumps back here; the block goes on
    // with the next one.
    if (sigsetjmp(trapPoint, 0)) {
      if (!nextIndex(single.threadId, info.block))
        return;
    }
    do
      info.kernel->runThread(info.params, &single);
    while (nextIndex(single.threadId, info.block));
    return;
  case BlockMode::Fibers:
  case BlockMode::Coroutines:
  case BlockMode::BarrierCoroutines:
    for (GPUMemThreadContext &ctx : contexts)
      std::copy(blockId, blockId + 3, ctx.blockId);
    if (info.mode == BlockMode::BarrierCoroutines)
      runBarrierCoroutines();
    else
      runScheduled();
    return;
  }
}

void BlockRunner::startBlock() {
  uint32_t threads = uint32_t(launch->threadsPerBlock);
  live = threads;
  trapped = 0;
  atBarrier = 0;
  barrierLocation = nullptr;
  barrierWaiters.clear();
  firstReturned = UINT32_MAX;
  atWarpSync = 0;
  atNamedBarrier = 0;
  for (NamedBarrier &named : namedBarriers) {
    named.count = 0;
    named.warpsComplete = 0;
    named.waiters.clear();
    named.arrivedPerWarp.assign(warps.size(), 0);
  }
  for (uint32_t w = 0; w < warps.size(); ++w) {
    warps[w] = Warp();
    warps[w].live =
        int32_t(std::min<uint32_t>(warpSize(), threads - w * warpSize()));
  }
  runQueue.clear();
  nextQueue.clear();
  bool useFibers = launch->mode == BlockMode::Fibers;
  for (uint32_t i = 0; i < threads; ++i) {
    fibers[i].state = State::Ready;
    if (useFibers) {
      // The last block's fiber on this stack was abandoned, not unwound.
      fiber_sanitizer::unpoisonStack(fiberStack(i));
      fibers[i].self = make_fcontext(stacks.top(i), stacks.bytes(), &fiberMain);
    } else
      handles[i] = nullptr;
    contexts[i].barrierAt = nullptr;
    runQueue.push_back(i);
  }
}

void BlockRunner::runScheduled() {
  startBlock();
  round = 0;
  // A coroutine that fails an assert jumps back here, `round` past it.
  (void)sigsetjmp(trapPoint, 0);
  for (;;) {
    while (!runQueue.empty()) {
      for (; round < runQueue.size(); ++round)
        resume(runQueue[round]);
      runQueue.swap(nextQueue);
      nextQueue.clear();
      round = 0;
    }
    // No thread can run: warp operations over the arrived lanes complete
    // with the lanes at them before the block is stuck.
    if (live == 0 || !atWarpSync || !overArrivedLanes())
      break;
    for (uint32_t w = 0; w < warps.size(); ++w)
      settleWarp(w, UINT32_MAX);
    if (nextQueue.empty())
      break;
    runQueue.swap(nextQueue);
    nextQueue.clear();
  }
  // Threads left waiting for one that failed an assert end with the block:
  // the launch fails anyway.
  if (live != 0 && trapped == 0)
    reportStuck();
}

void BlockRunner::runBarrierCoroutines() {
  startBlock();
  round = 0;
  // A coroutine that fails an assert jumps back here, `round` past it.
  (void)sigsetjmp(trapPoint, 0);
  while (!runQueue.empty()) {
    // Every waiting thread runs to its next barrier or its end.
    for (; round < runQueue.size(); ++round)
      resume(runQueue[round]);
    round = 0;
    // They must all wait at one barrier, or all have returned.
    nextQueue.clear();
    const char *at = nullptr;
    uint32_t returned = UINT32_MAX, returnedCount = 0;
    for (uint32_t index : runQueue) {
      if (fibers[index].state == State::Trapped)
        continue;
      if (fibers[index].state == State::Done) {
        returned = std::min(returned, index);
        ++returnedCount;
        continue;
      }
      GPUMemThreadContext &ctx = contexts[index];
      const char *here = ctx.barrierAt;
      ctx.barrierAt = nullptr;
      if (nextQueue.empty())
        at = here;
      else if (here != at && !sameLocation(here, at)) {
        if (!syncCheck())
          fatal("kernel '%s': divergent barrier at %s: thread %s of block %s "
                "waits there while %zu threads wait at %s",
                ctx.kernelName, locationOr(here), coords(ctx.threadId).text,
                coords(ctx.blockId).text, nextQueue.size(), locationOr(at));
        // synccheck: reported, and both are the block's one barrier.
        reportSyncError(
            &ctx, "divergent barrier", here,
            "the thread waits here while " + std::to_string(nextQueue.size()) +
                (nextQueue.size() == 1 ? " thread of the block waits at "
                                       : " threads of the block wait at ") +
                locationOr(at));
      }
      nextQueue.push_back(index);
    }
    if (returned != UINT32_MAX && !nextQueue.empty()) {
      const GPUMemThreadContext &ctx = contexts[returned];
      if (!syncCheck())
        fatal("kernel '%s': divergent barrier at %s: thread %s of block %s "
              "returned from the kernel while %zu threads wait there",
              ctx.kernelName, locationOr(at), coords(ctx.threadId).text,
              coords(ctx.blockId).text, nextQueue.size());
      // In the words of releaseBarrier's report.
      std::string others =
          returnedCount > 1
              ? " and " + std::to_string(returnedCount - 1) + " other threads"
              : "";
      reportSyncError(&contexts[nextQueue.front()], "divergent barrier", at,
                      std::string("thread ") + coords(ctx.threadId).text +
                          others +
                          " returned from the kernel without reaching it, "
                          "while " +
                          std::to_string(nextQueue.size()) +
                          (nextQueue.size() == 1 ? " thread waits here"
                                                 : " threads wait here"));
    }
    epoch.barrier();
    runQueue.swap(nextQueue);
  }
}

void BlockRunner::resume(uint32_t index) {
  current = index;
  if (launch->mode != BlockMode::Fibers) {
    // The thread runs up to its next suspension (or its end).
    if (!handles[index])
      handles[index] =
          launch->kernel->startCoroutine(launch->params, &contexts[index]);
    else
      launch->kernel->resumeCoroutine(handles[index]);
    return;
  }
  fiber_sanitizer::startSwitch(&schedulerFakeStack, fiberStack(index));
  transfer_t back = jump_fcontext(fibers[index].self, this);
  fiber_sanitizer::finishSwitch(schedulerFakeStack, nullptr);
  fibers[index].self = back.fctx;
}

void BlockRunner::park(uint32_t index) {
  // A coroutine suspends itself once the service returns.
  if (launch->mode == BlockMode::Coroutines)
    return;
  fiber_sanitizer::startSwitch(&fibers[index].fakeStack, schedulerStack);
  transfer_t back = jump_fcontext(fibers[index].caller, nullptr);
  fiber_sanitizer::finishSwitch(fibers[index].fakeStack, &schedulerStack);
  fibers[index].caller = back.fctx;
}

void BlockRunner::goOn(uint32_t index) {
  // A fiber that need not wait just returns from the service; a coroutine
  // suspends anyway, so it is resumed in the next round.
  if (launch->mode == BlockMode::Coroutines)
    nextQueue.push_back(index);
}

void *BlockRunner::coroutineFrame(GPUMemThreadContext *ctx, int64_t bytes) {
  uint32_t index = indexOf(ctx);
  Frame &frame = frames[index];
  if (bytes < 0)
    fatal("kernel '%s': a coroutine frame of %lld bytes", ctx->kernelName,
          (long long)bytes);
  if (size_t(bytes) > frame.capacity || !frame.memory) {
    std::free(frame.memory);
    frame.capacity = alignTo(std::max<uint64_t>(uint64_t(bytes), 64), 64);
    frame.memory = std::aligned_alloc(64, frame.capacity);
    if (!frame.memory)
      fatal("kernel '%s': out of memory allocating a coroutine frame of %lld "
            "bytes",
            ctx->kernelName, (long long)bytes);
  }
  return frame.memory;
}

uint64_t BlockRunner::warpSyncResult(GPUMemThreadContext *ctx, int32_t *pred) {
  const Fiber &fiber = fibers[indexOf(ctx)];
  if (pred)
    *pred = fiber.valid;
  return fiber.value;
}

void BlockRunner::coroutineReturned(GPUMemThreadContext *ctx) {
  threadReturned(indexOf(ctx));
}

void BlockRunner::fiberMain(transfer_t from) {
  auto *runner = static_cast<BlockRunner *>(from.data);
  fiber_sanitizer::finishSwitch(nullptr, &runner->schedulerStack);
  uint32_t index = runner->current;
  runner->fibers[index].caller = from.fctx;
  runner->launch->kernel->runThread(runner->launch->params,
                                    &runner->contexts[index]);
  runner->threadReturned(index);
  runner->leaveFiber(index);
}

void BlockRunner::leaveFiber(uint32_t index) {
  // Never resumed again: the next block makes a fresh context on this stack.
  fiber_sanitizer::startSwitch(nullptr, schedulerStack);
  jump_fcontext(fibers[index].caller, nullptr);
  __builtin_unreachable();
}

uint32_t BlockRunner::indexOf(GPUMemThreadContext *ctx) const {
  uintptr_t offset = uintptr_t(ctx) - uintptr_t(contexts.data());
  uintptr_t index = offset / sizeof(GPUMemThreadContext);
  if (offset % sizeof(GPUMemThreadContext) != 0 || index >= contexts.size())
    fatal("kernel '%s': a runtime service was called with a thread context "
          "the runtime did not create",
          nameOf(launch->kernel));
  return uint32_t(index);
}

void BlockRunner::barrier(GPUMemThreadContext *ctx, const char *location) {
  if (!scheduled()) {
    if (launch->threadsPerBlock == 1)
      return;
    reportNoFibers(ctx, "barrier", location);
  }
  uint32_t index = indexOf(ctx);
  Warp &warp = warps[index / warpSize()];
  // Lanes of the warp waiting for this one elsewhere: only possible when
  // some wait at a shuffle or a warp-synchronous operation.
  if (warp.atShuffle || atWarpSync)
    checkNoWarpWaitsFor(ctx, index, location);
  if (atBarrier == 0)
    barrierLocation = location;
  else if (!sameLocation(location, barrierLocation)) {
    // synccheck reports it and, as a GPU does, takes both for the one
    // barrier of the block.
    if (!syncCheck())
      fatal("kernel '%s': divergent barrier at %s: thread %s of block %s "
            "waits there while %lld threads wait at %s",
            ctx->kernelName, locationOr(location), coords(ctx->threadId).text,
            coords(ctx->blockId).text, (long long)atBarrier,
            locationOr(barrierLocation));
    reportSyncError(ctx, "divergent barrier", location,
                    "the thread waits here while " + std::to_string(atBarrier) +
                        (atBarrier == 1 ? " thread of the block waits at "
                                        : " threads of the block wait at ") +
                        locationOr(barrierLocation));
  }
  if (atBarrier + 1 == live) {
    // The last thread to arrive releases the others and goes on.
    releaseBarrier(ctx);
    goOn(index);
    return;
  }
  ++atBarrier;
  ++warp.atBarrier;
  fibers[index].state = State::AtBarrier;
  barrierWaiters.push_back(index);
  // Lanes of the warp at a warp operation over the arrived lanes may now
  // run it without this one.
  if (overArrivedLanes())
    settleWarp(index / warpSize(), UINT32_MAX);
  park(index);
}

void BlockRunner::releaseBarrier(const GPUMemThreadContext *last) {
  // A gpu.barrier must be reached by every thread of the block: one that
  // returned before it is as wrong as one that returns while others wait,
  // whichever ran first. (PTX's bar.sync on cuda-emu lets exited threads
  // go, as GPUs do.)
  if (live + trapped < launch->threadsPerBlock &&
      !launch->kernel->emulatedChip) {
    const GPUMemThreadContext &gone = contexts[firstReturned];
    std::string others =
        live + trapped + 1 < launch->threadsPerBlock
            ? " and " +
                  std::to_string(launch->threadsPerBlock - live - trapped - 1) +
                  " other threads"
            : "";
    if (!syncCheck())
      fatal("kernel '%s': divergent barrier at %s: thread %s of block %s%s "
            "returned from the kernel without reaching it",
            gone.kernelName, locationOr(barrierLocation),
            coords(gone.threadId).text, coords(gone.blockId).text,
            others.c_str());
    // Reported at a thread that waits: `last` may be the one whose return
    // released the barrier.
    const GPUMemThreadContext *waiter =
        barrierWaiters.empty() ? last : &contexts[barrierWaiters.front()];
    reportSyncError(
        waiter, "divergent barrier", barrierLocation,
        std::string("thread ") + coords(gone.threadId).text + others +
            " returned from the kernel without reaching it, "
            "while " +
            std::to_string(live) +
            (live == 1 ? " thread waits here" : " threads wait here"));
  }
  for (uint32_t waiter : barrierWaiters) {
    fibers[waiter].state = State::Ready;
    nextQueue.push_back(waiter);
  }
  for (Warp &each : warps)
    each.atBarrier = 0;
  barrierWaiters.clear();
  atBarrier = 0;
  epoch.barrier();
}
