//===----------------------------------------------------------------------===//
// PTX's synchronization in BlockRunner, for the cuda-emu target: bar.sync
// with a barrier id and thread count, and the warp-synchronous
// instructions (shfl.sync, vote.sync, redux.sync, match.sync,
// bar.warp.sync).
//
// Named barrier: a warp counts as 32 arrivals (64 in a kernel with 64-lane
// warps) once all its live lanes arrived, as PTX counts; the barrier completes
// when `count` arrivals are in. Warp-synchronous operation: the lane deposits
// its operands and parks until every lane of its member mask has arrived at the
// same operation with the same mask; the last one computes every lane's result
// (PTXWarpOps.cpp) and releases them. A member mask without the caller, or
// naming a lane that does not exist, has exited or waits at a barrier, is
// an error, as compute-sanitizer's synccheck reports it on a GPU.
//
// Over the arrived lanes (GPUMemCPUKernel::warpOpsOverArrivedLanes, AMD's
// EXEC mask for rocm-emu): the lanes at an operation are its member mask.
// settleWarp, called whenever a lane of the warp blocks or leaves, completes
// the operation once no lane of the warp is ready to run (each waits
// somewhere or has left); where lanes wait at several, the one at the
// earliest source location goes first (the op inside a branch before the
// one where the lanes reconverge). The scheduler settles every warp before
// it calls a block stuck.
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"
#include "PTXWarpOps.h"
#include "SchedulingMessages.h"
#include "Support.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

using namespace gpumem::cpu;

void BlockRunner::barrierSync(GPUMemThreadContext *ctx, int32_t id,
                              int32_t count, const char *location) {
  if (count < 0) {
    barrier(ctx, location);
    return;
  }
  if (id < 0 || id > 15)
    fatal("kernel '%s': bar.sync at %s: barrier %d is not in 0..15",
          ctx->kernelName, locationOr(location), id);
  int32_t lanesPerWarp = int32_t(warpSize());
  if (count == 0 || count % lanesPerWarp != 0)
    fatal("kernel '%s': bar.sync at %s: a thread count of %d is not a "
          "positive multiple of %d",
          ctx->kernelName, locationOr(location), count, lanesPerWarp);
  int64_t blockWarps =
      (launch->threadsPerBlock + lanesPerWarp - 1) / lanesPerWarp;
  if (count > blockWarps * lanesPerWarp)
    fatal("kernel '%s': bar.sync at %s waits for %d threads; the block has "
          "%lld",
          ctx->kernelName, locationOr(location), count,
          (long long)launch->threadsPerBlock);
  if (!scheduled()) {
    if (launch->threadsPerBlock == 1)
      return;
    reportNoFibers(ctx, "barrier", location);
  }
  NamedBarrier &named = namedBarriers[id];
  if (named.waiters.empty() && named.warpsComplete == 0) {
    named.count = count;
    named.location = location;
  } else if (named.count != count) {
    fatal("kernel '%s': bar.sync %d at %s waits for %d threads while threads "
          "at %s wait for %d on the same barrier",
          ctx->kernelName, id, locationOr(location), count,
          locationOr(named.location), named.count);
  }
  uint32_t index = indexOf(ctx);
  uint32_t warpIndex = index / warpSize();
  // PTX counts a warp's arrival as 32 threads once its live lanes arrived
  // (a 64-lane warp's as 64).
  if (++named.arrivedPerWarp[warpIndex] == warps[warpIndex].live)
    ++named.warpsComplete;
  if (named.warpsComplete * lanesPerWarp >= named.count) {
    for (uint32_t waiter : named.waiters) {
      fibers[waiter].state = State::Ready;
      nextQueue.push_back(waiter);
    }
    atNamedBarrier -= int64_t(named.waiters.size());
    named.waiters.clear();
    named.warpsComplete = 0;
    std::fill(named.arrivedPerWarp.begin(), named.arrivedPerWarp.end(), 0);
    goOn(index);
    return;
  }
  fibers[index].state = State::AtNamedBarrier;
  fibers[index].location = location;
  named.waiters.push_back(index);
  ++atNamedBarrier;
  if (overArrivedLanes())
    settleWarp(warpIndex, UINT32_MAX);
  park(index);
}

uint32_t BlockRunner::warpSyncWaitingFor(uint32_t warpIndex,
                                         uint32_t lane) const {
  if (!atWarpSync)
    return UINT32_MAX;
  uint32_t first = warpIndex * warpSize();
  for (uint32_t l = 0; l < warpSize() && first + l < fibers.size(); ++l) {
    const Fiber &fiber = fibers[first + l];
    if (fiber.state == State::AtWarpSync && (fiber.memberMask >> lane & 1))
      return first + l;
  }
  return UINT32_MAX;
}

void BlockRunner::checkWarpSyncArrival(uint32_t index, int32_t op,
                                       uint64_t memberMask,
                                       const char *location) const {
  const GPUMemThreadContext &ctx = contexts[index];
  uint32_t lane = index % warpSize();
  uint32_t first = index - lane;
  uint32_t lanes =
      std::min<uint32_t>(warpSize(), uint32_t(launch->threadsPerBlock) - first);
  const char *name = ptxWarpOpName(op);
  if (!(memberMask >> lane & 1))
    fatal("kernel '%s': %s at %s: thread %s of block %s (lane %u) is not in "
          "its member mask %s",
          ctx.kernelName, name, locationOr(location), coords(ctx.threadId).text,
          coords(ctx.blockId).text, lane, hex(memberMask).text);
  if (lanes < GPUMEM_MAX_WARP_SIZE && (memberMask >> lanes) != 0)
    fatal("kernel '%s': %s at %s: thread %s of block %s names lanes that do "
          "not exist in member mask %s (its warp has %u lanes)",
          ctx.kernelName, name, locationOr(location), coords(ctx.threadId).text,
          coords(ctx.blockId).text, hex(memberMask).text, lanes);
  // Over the arrived lanes, the others of the mask need not come.
  if (overArrivedLanes())
    return;
  for (uint32_t l = 0; l < lanes; ++l) {
    if (!(memberMask >> l & 1) || l == lane)
      continue;
    const Fiber &other = fibers[first + l];
    const char *problem = nullptr;
    switch (other.state) {
    case State::Done:
      problem = "has exited";
      break;
    case State::Trapped:
      // It failed an assert and never comes: the operation waits, and
      // the block ends with the launch, which fails anyway.
      break;
    case State::AtBarrier:
    case State::AtNamedBarrier:
    case State::AtShuffle:
      problem = "waits at a barrier";
      break;
    case State::AtWarpSync:
      if (other.mode != op || other.memberMask != memberMask ||
          !sameLocation(other.location, location))
        fatal("kernel '%s': %s at %s: thread %s of block %s waits there with "
              "member mask %s while lane %u waits at the %s at %s with "
              "member mask %s",
              ctx.kernelName, name, locationOr(location),
              coords(ctx.threadId).text, coords(ctx.blockId).text,
              hex(memberMask).text, l, ptxWarpOpName(other.mode),
              locationOr(other.location), hex(other.memberMask).text);
      break;
    default:
      break;
    }
    if (problem)
      fatal("kernel '%s': %s at %s: lane %u in member mask %s of thread %s of "
            "block %s %s",
            ctx.kernelName, name, locationOr(location), l, hex(memberMask).text,
            coords(ctx.threadId).text, coords(ctx.blockId).text, problem);
  }
}

uint64_t BlockRunner::warpSync(GPUMemThreadContext *ctx, int32_t op,
                               uint64_t memberMask, uint64_t value, int32_t b,
                               int32_t c, int32_t *pred, const char *location) {
  if (op < 0 || op > GPUMEM_WARP_MATRIX)
    fatal("kernel '%s': unknown warp operation %d at %s", ctx->kernelName, op,
          locationOr(location));
  int32_t predicate = 0;
  if (!scheduled()) {
    if (launch->threadsPerBlock != 1)
      reportNoFibers(ctx, ptxWarpOpName(op), location);
    if (memberMask != 1)
      fatal("kernel '%s': %s at %s: member mask %s names lanes that do not "
            "exist (the block has one thread)",
            ctx->kernelName, ptxWarpOpName(op), locationOr(location),
            hex(memberMask).text);
    WarpOperands lanes[GPUMEM_MAX_WARP_SIZE] = {};
    lanes[0] = {value, b, c};
    uint64_t result = ptxWarpResult(op, 0, 1, lanes, &predicate, warpSize());
    if (pred)
      *pred = predicate;
    return result;
  }
  uint32_t index = indexOf(ctx);
  checkWarpSyncArrival(index, op, memberMask, location);
  Fiber &fiber = fibers[index];
  fiber.state = State::AtWarpSync;
  fiber.mode = op;
  fiber.memberMask = memberMask;
  fiber.value = value;
  fiber.offset = b;
  fiber.width = c;
  fiber.location = location;
  ++atWarpSync;
  uint32_t warpIndex = index / warpSize();
  if (overArrivedLanes()) {
    if (settleWarp(warpIndex, index))
      goOn(index);
    else
      park(index);
    if (pred)
      *pred = fiber.valid;
    return fiber.value;
  }
  uint32_t first = warpIndex * warpSize();
  bool complete = true;
  for (uint32_t l = 0; l < warpSize() && complete; ++l)
    if ((memberMask >> l & 1) && fibers[first + l].state != State::AtWarpSync)
      complete = false;
  if (complete) {
    completeWarpSync(warpIndex, memberMask, index);
    goOn(index);
  } else {
    park(index);
  }
  if (pred)
    *pred = fiber.valid;
  return fiber.value;
}

bool BlockRunner::completeWarpSync(uint32_t warpIndex, uint64_t memberMask,
                                   uint32_t continuing) {
  uint32_t first = warpIndex * warpSize();
  WarpOperands lanes[GPUMEM_MAX_WARP_SIZE] = {};
  for (uint32_t l = 0; l < warpSize(); ++l)
    if (memberMask >> l & 1)
      lanes[l] = {fibers[first + l].value, fibers[first + l].offset,
                  fibers[first + l].width};
  int32_t op = fibers[first + uint32_t(__builtin_ctzll(memberMask))].mode;
  bool active = overArrivedLanes(), released = false;
  // Under --sanitize on cuda-emu, a matrix instruction's loads and stores
  // are checked by address as the lanes' own would be, each at its lane.
  bool matrixDone = false;
  int32_t flags = addressCheckFlags();
  if (op == GPUMEM_WARP_MATRIX && flags && launch->kernel->emulatedChip) {
    struct Checked {
      BlockRunner *runner;
      uint32_t first;
      int32_t flags;
    } checked{this, first, flags};
    MatrixAccessObserver observer{
        [](void *user, uint32_t lane, const void *address, int64_t bytes,
           bool write, const char *what) {
          auto *c = static_cast<Checked *>(user);
          c->runner->addressAccess(
              &c->runner->contexts[c->first + lane], address, bytes,
              c->flags | (write ? GPUMEM_SHARED_WRITE : GPUMEM_SHARED_READ),
              what, c->runner->fibers[c->first + lane].location);
        },
        &checked};
    ptxMatrixOp(lanes[__builtin_ctzll(memberMask)].b, lanes, &observer);
    matrixDone = true;
  }
  for (uint32_t l = 0; l < warpSize(); ++l) {
    if (!(memberMask >> l & 1))
      continue;
    Fiber &fiber = fibers[first + l];
    int32_t predicate = 0;
    fiber.value = matrixDone ? 0
                  : active ? activeLanesWarpResult(op, l, memberMask, lanes,
                                                   &predicate, warpSize())
                           : ptxWarpResult(op, l, memberMask, lanes, &predicate,
                                           warpSize());
    fiber.valid = predicate;
    fiber.state = State::Ready;
    --atWarpSync;
    if (first + l != continuing)
      nextQueue.push_back(first + l);
    else
      released = true;
  }
  // The lanes' accesses before it happen before those after it
  // (racecheck; for the whole warp, as for gpu.shuffle).
  epoch.warpSynced(warpIndex);
  return released;
}

namespace {

/// The line and column of a "file:line:col" location, for ordering the
/// warp operations lanes wait at; unknown ones after every known one.
std::pair<long, long> lineAndColumn(const char *location) {
  const long unknown = std::numeric_limits<long>::max();
  if (!location)
    return {unknown, unknown};
  const char *end = location + std::strlen(location);
  const char *colon = end;
  long numbers[2] = {unknown, unknown};
  for (int field = 1; field >= 0; --field) {
    const char *stop = colon;
    while (colon > location && colon[-1] != ':')
      --colon;
    if (colon == location || colon == stop)
      return {unknown, unknown};
    numbers[field] = std::strtol(colon, nullptr, 10);
    --colon;
  }
  return {numbers[0], numbers[1]};
}

} // namespace

bool BlockRunner::settleWarp(uint32_t warpIndex, uint32_t continuing) {
  if (!atWarpSync)
    return false;
  uint32_t first = warpIndex * warpSize();
  uint32_t lanes =
      std::min<uint32_t>(warpSize(), uint32_t(fibers.size()) - first);
  // The lanes at the operation that comes first in the program: in
  // structured control flow, one inside a branch before the one after it.
  uint32_t chosen = UINT32_MAX;
  std::pair<long, long> chosenAt;
  for (uint32_t l = 0; l < lanes; ++l) {
    const Fiber &fiber = fibers[first + l];
    if (fiber.state == State::Ready)
      return false; // it may still come to the operation
    if (fiber.state != State::AtWarpSync)
      continue;
    if (chosen == UINT32_MAX) {
      chosen = first + l;
      chosenAt = lineAndColumn(fiber.location);
      continue;
    }
    if (fiber.location == fibers[chosen].location)
      continue;
    std::pair<long, long> at = lineAndColumn(fiber.location);
    if (at < chosenAt) {
      chosen = first + l;
      chosenAt = at;
    }
  }
  if (chosen == UINT32_MAX)
    return false;
  const Fiber &lead = fibers[chosen];
  uint64_t active = 0;
  for (uint32_t l = 0; l < lanes; ++l) {
    const Fiber &fiber = fibers[first + l];
    if (fiber.state == State::AtWarpSync && fiber.mode == lead.mode &&
        sameLocation(fiber.location, lead.location))
      active |= uint64_t(1) << l;
  }
  return completeWarpSync(warpIndex, active, continuing);
}
