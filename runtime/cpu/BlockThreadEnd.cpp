//===----------------------------------------------------------------------===//
// How a block's threads end, and the errors that end a block (the
// scheduling and the barrier are in BlockRunner.cpp).
//
// A thread that returns is done: returning while others wait at the block
// barrier is a divergent barrier (unless synccheck goes on without it), and
// returning while a lane of its warp waits for it at a warp-synchronous
// operation is a deadlock (but for a kernel whose warp operations run over
// the arrived lanes, where it may complete that operation). A thread that fails
// an assert is trapped: the launch records the failure and the block goes on
// without it. Either way the thread leaves the block, which may complete the
// barrier or a shuffle that waited only for it. The reports: a barrier reached
// while the warp waits at a shuffle or warp operation, a kernel marked as
// having no barriers that reaches one, a block in which no thread can continue,
// and a crash or fiber stack overflow (called from the fault handlers of
// KernelFaults.cpp, so without stdio).
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"
#include "CUDAEmulation.h"
#include "DeviceMemoryShadow.h"
#include "LaunchLocation.h"
#include "PTXWarpOps.h"
#include "SchedulingMessages.h"
#include "Support.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <unistd.h>

using namespace gpumem::cpu;

void BlockRunner::checkNoWarpWaitsFor(GPUMemThreadContext *ctx, uint32_t index,
                                      const char *location) const {
  const Warp &warp = warps[index / warpSize()];
  uint32_t waiting = shuffleWaitingFor(index / warpSize(), index % warpSize());
  if (waiting != UINT32_MAX)
    fatal("kernel '%s': deadlock at barrier %s: thread %s of block %s waits "
          "there while %d threads of its warp wait at the shuffle at %s",
          ctx->kernelName, locationOr(location), coords(ctx->threadId).text,
          coords(ctx->blockId).text, warp.atShuffle,
          locationOr(fibers[waiting].location));
  // Over the arrived lanes, those at a warp operation go on without it.
  uint32_t syncing =
      overArrivedLanes()
          ? UINT32_MAX
          : warpSyncWaitingFor(index / warpSize(), index % warpSize());
  if (syncing != UINT32_MAX)
    fatal("kernel '%s': deadlock at barrier %s: thread %s of block %s waits "
          "there while lane %u of its warp waits for it at the %s at %s",
          ctx->kernelName, locationOr(location), coords(ctx->threadId).text,
          coords(ctx->blockId).text, syncing % warpSize(),
          ptxWarpOpName(fibers[syncing].mode),
          locationOr(fibers[syncing].location));
}

void BlockRunner::reportNoFibers(GPUMemThreadContext *ctx, const char *what,
                                 const char *location) const {
  fatal("kernel '%s': thread %s of block %s reached the %s at %s, but the "
        "kernel is marked as having no barriers or warp operations "
        "(needsFibers == 0)",
        ctx->kernelName, coords(ctx->threadId).text, coords(ctx->blockId).text,
        what, locationOr(location));
}

void BlockRunner::threadReturned(uint32_t index) {
  const GPUMemThreadContext &ctx = contexts[index];
  if (atBarrier && !syncCheck())
    fatal("kernel '%s': divergent barrier at %s: thread %s of block %s "
          "returned from the kernel while %lld threads wait there",
          ctx.kernelName, locationOr(barrierLocation),
          coords(ctx.threadId).text, coords(ctx.blockId).text,
          (long long)atBarrier);
  uint32_t syncing =
      overArrivedLanes()
          ? UINT32_MAX
          : warpSyncWaitingFor(index / warpSize(), index % warpSize());
  if (syncing != UINT32_MAX)
    fatal("kernel '%s': thread %s of block %s exited while lane %u of its "
          "warp waits for it at the %s at %s (member mask %s)",
          ctx.kernelName, coords(ctx.threadId).text, coords(ctx.blockId).text,
          syncing % warpSize(), ptxWarpOpName(fibers[syncing].mode),
          locationOr(fibers[syncing].location),
          hex(fibers[syncing].memberMask).text);
  fibers[index].state = State::Done;
  if (firstReturned == UINT32_MAX)
    firstReturned = index;
  // synccheck goes on: the barrier completes without the thread (reported
  // then).
  threadLeft(index);
}

void BlockRunner::threadLeft(uint32_t index) {
  --live;
  if (atBarrier && atBarrier == live)
    releaseBarrier(&contexts[index]);
  uint32_t warpIndex = index / warpSize();
  --warps[warpIndex].live;
  // The lane may have been the last one a shuffle waited for.
  uint32_t waiting = shuffleWaitingFor(warpIndex, index % warpSize());
  if (waiting != UINT32_MAX)
    tryCompleteShuffle(warpIndex, uint32_t(fibers[waiting].width), UINT32_MAX);
  // Or the last one a warp operation over the arrived lanes waited for.
  if (overArrivedLanes())
    settleWarp(warpIndex, UINT32_MAX);
}

void BlockRunner::failAssert(GPUMemThreadContext *ctx, const char *message,
                             const char *file, uint32_t line,
                             const char *function) {
  printAssertFailure(ctx, message, file, line, function);
  if (launch->assertFailed)
    launch->assertFailed->store(true, std::memory_order_relaxed);
  switch (launch->mode) {
  case BlockMode::Block:
    // A runBlocks cannot go on without one of its threads: the launch ends.
    reportFailedAssertions(launch->kernel);
  case BlockMode::Loop:
    siglongjmp(trapPoint, 1);
  case BlockMode::Coroutines:
  case BlockMode::BarrierCoroutines:
    threadTrapped(indexOf(ctx));
    ++round;
    siglongjmp(trapPoint, 1);
  case BlockMode::Fibers: {
    uint32_t index = indexOf(ctx);
    threadTrapped(index);
    leaveFiber(index);
  }
  }
  __builtin_unreachable();
}

void BlockRunner::threadTrapped(uint32_t index) {
  fibers[index].state = State::Trapped;
  ++trapped;
  threadLeft(index);
}

void BlockRunner::reportStuck() const {
  int64_t atShuffles = 0;
  for (const Warp &warp : warps)
    atShuffles += warp.atShuffle;
  if (atWarpSync || atNamedBarrier)
    fatal("kernel '%s': deadlock in block %s: %lld threads wait at the "
          "barrier at %s, %lld at named barriers, %lld at warp-synchronous "
          "operations and %lld at shuffles; no thread can continue",
          nameOf(launch->kernel), coords(contexts[0].blockId).text,
          (long long)atBarrier, locationOr(barrierLocation),
          (long long)atNamedBarrier, (long long)atWarpSync,
          (long long)atShuffles);
  fatal("kernel '%s': deadlock in block %s: %lld threads wait at the barrier "
        "at %s and %lld at shuffles; no thread can continue",
        nameOf(launch->kernel), coords(contexts[0].blockId).text,
        (long long)atBarrier, locationOr(barrierLocation),
        (long long)atShuffles);
}

void BlockRunner::reportFault(int signal, const void *address) const {
  // No stdio: the fault may have happened inside it.
  bool single =
      launch->mode == BlockMode::Block || launch->mode == BlockMode::Loop;
  const GPUMemThreadContext &ctx = single ? this->single : contexts[current];
  const char *what = "SIGILL: illegal instruction";
  if (signal == SIGSEGV)
    what = "SIGSEGV: invalid memory access";
  else if (signal == SIGBUS)
    what = "SIGBUS: bad memory access";
  else if (signal == SIGFPE)
    what = "SIGFPE: integer division by zero or overflow";
  char at[320] = "";
  if (signal == SIGSEGV || signal == SIGBUS) {
    // In a guard of the arena: name it as the workgroup memory it missed.
    uintptr_t where = uintptr_t(address), begin = uintptr_t(arena),
              end = begin + arenaCapacity + kArenaRedzone;
    if (arena && where >= end && where < end + kArenaGuard)
      std::snprintf(at, sizeof(at),
                    " at %p, %zu bytes past the block's %lld bytes of "
                    "workgroup memory",
                    address,
                    size_t(where - begin) -
                        size_t(launch->staticBytes + launch->dynamicBytes),
                    (long long)(launch->staticBytes + launch->dynamicBytes));
    else if (arena && where < begin && where >= begin - kArenaGuard)
      std::snprintf(at, sizeof(at),
                    " at %p, %zu bytes before the block's workgroup memory",
                    address, size_t(begin - where));
    else if (!describeGuardFault(address, at, sizeof(at)))
      std::snprintf(at, sizeof(at), " at %p", address);
  }
  const char *launchAt = gpumem::runtime::currentLaunchLocation();
  // runBlocks runs the block's threads together (vectorized, the thread id
  // kept in registers): only the block is known.
  char thread[96] = "";
  if (launch->mode != BlockMode::Block)
    std::snprintf(thread, sizeof(thread), " thread %s",
                  coords(ctx.threadId).text);
  // Under --sanitize a hint to use it would mislead: say what its checks
  // cannot see instead.
  const char *hint = "gpumem: note: run again with --sanitize to find the "
                     "access or operation that caused it\n";
  if (checksMemory(launch->kernel))
    hint = signal == SIGFPE || signal == SIGILL
               ? "gpumem: note: --sanitize checks the divisors of scalar "
                 "arith divisions, and this trap came from one it does not "
                 "see (a vector division, an LLVM dialect one, inline "
                 "assembly)\n"
               : "gpumem: note: --sanitize checks every memref access, so "
                 "this one either was reported above or does not go "
                 "through a memref (an address made from an integer, inline "
                 "assembly, a library call)\n";
  char message[1024];
  int length =
      std::snprintf(message, sizeof(message),
                    "gpumem: error: kernel '%s' crashed (%s%s) in block %s%s\n"
                    "%s%s%s%s",
                    ctx.kernelName, what, at, coords(ctx.blockId).text, thread,
                    launchAt ? "gpumem: note: in the launch at " : "",
                    launchAt ? launchAt : "", launchAt ? "\n" : "", hint);
  if (length > 0)
    (void)!::write(2, message,
                   std::min<size_t>(size_t(length), sizeof(message) - 1));
  _exit(1);
}

void BlockRunner::reportOverflow(const void *address) const {
  if (launch->mode != BlockMode::Fibers || !stacks.inGuard(address))
    return;
  // No stdio: the fault may have happened inside it.
  const GPUMemThreadContext &ctx = contexts[current];
  char message[512];
  int length = std::snprintf(
      message, sizeof(message),
      "gpumem: error: kernel '%s': thread %s of block %s overflowed its "
      "fiber stack of %zu bytes; set GPUMEM_CPU_STACK_SIZE to more\n",
      ctx.kernelName, coords(ctx.threadId).text, coords(ctx.blockId).text,
      stacks.bytes());
  if (length > 0)
    (void)!::write(2, message,
                   std::min<size_t>(size_t(length), sizeof(message) - 1));
  _exit(1);
}
