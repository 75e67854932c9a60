//===----------------------------------------------------------------------===//
// gpu.shuffle in BlockRunner, as MLIR specifies it: only the first `width`
// lanes of the warp take part (a lane past them gets its own value,
// invalid, at once). A taking-part lane deposits its value and parks; the
// lane that completes the shuffle (every live lane of the first `width`
// parked at it) computes the answers from the deposited values and releases
// them. Only those lanes must be active: upstream's gpu.all_reduce lowering
// shuffles with lanes 0..n-1 while the rest of the warp goes on to a
// barrier. A returning lane may complete a shuffle too (threadLeft). Lanes
// of the first `width` at another shuffle or at a barrier are a deadlock,
// reported at once; under synccheck, lanes that returned instead of
// reaching the shuffle are reported.
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"
#include "SchedulingMessages.h"
#include "Support.h"

#include <algorithm>
#include <string>

using namespace gpumem::cpu;

namespace {

/// The lane `lane` reads from, or -1 when the shuffle is invalid there.
/// As MLIR's gpu.shuffle says (and the member mask upstream's NVVM lowering
/// passes), only the first `width` lanes of a warp take part; as PTX's shfl
/// does, the offset counts modulo the warp size (32, or 64 in a kernel with
/// 64-lane warps).
int64_t shuffleSource(int64_t lane, int64_t offset, int64_t width, int32_t mode,
                      uint32_t warpSize) {
  if (lane >= width)
    return -1;
  int64_t bits = offset & int64_t(warpSize - 1), source = -1;
  switch (mode) {
  case GPUMEM_SHUFFLE_XOR:
    source = lane ^ bits;
    break;
  case GPUMEM_SHUFFLE_UP:
    source = lane - bits;
    break;
  case GPUMEM_SHUFFLE_DOWN:
    source = lane + bits;
    break;
  case GPUMEM_SHUFFLE_IDX:
    source = bits;
    break;
  }
  return source >= 0 && source < width ? source : -1;
}

void checkShuffle(const GPUMemThreadContext *ctx, int32_t width, int32_t mode,
                  int32_t warpSize, const char *location) {
  if (width < 1 || width > warpSize)
    fatal("kernel '%s': shuffle at %s: width %d is not in 1..%d",
          ctx->kernelName, locationOr(location), width, warpSize);
  if (mode < GPUMEM_SHUFFLE_XOR || mode > GPUMEM_SHUFFLE_IDX)
    fatal("kernel '%s': shuffle at %s: unknown mode %d", ctx->kernelName,
          locationOr(location), mode);
}

} // namespace

uint64_t BlockRunner::shuffle(GPUMemThreadContext *ctx, uint64_t value,
                              int32_t offset, int32_t width, int32_t mode,
                              int32_t *valid, const char *location) {
  checkShuffle(ctx, width, mode, int32_t(warpSize()), location);
  if (!scheduled()) {
    if (launch->threadsPerBlock != 1)
      reportNoFibers(ctx, "shuffle", location);
    // A lone lane can only read itself.
    if (valid)
      *valid = shuffleSource(0, offset, width, mode, warpSize()) == 0;
    return value;
  }
  uint32_t index = indexOf(ctx);
  uint32_t warpIndex = index / warpSize();
  uint32_t lane = index % warpSize();
  // A lane past the width takes no part: its result is invalid (and the
  // shuffle undefined on NVIDIA GPUs, whose member mask leaves it out).
  if (lane >= uint32_t(width)) {
    if (valid)
      *valid = 0;
    return value;
  }
  Warp &warp = warps[warpIndex];
  // Every other live lane of the first `width` lanes must come to this
  // shuffle.
  uint32_t first = warpIndex * warpSize();
  for (uint32_t l = 0; l < uint32_t(width) && first + l < fibers.size(); ++l) {
    const Fiber &other = fibers[first + l];
    if (other.state == State::AtBarrier)
      fatal("kernel '%s': deadlock at shuffle %s: thread %s of block %s waits "
            "there while %d threads of its warp wait at the barrier at %s",
            ctx->kernelName, locationOr(location), coords(ctx->threadId).text,
            coords(ctx->blockId).text, warp.atBarrier,
            locationOr(barrierLocation));
    if (other.state == State::AtShuffle &&
        (!sameLocation(other.location, location) || other.width != width))
      fatal("kernel '%s': deadlock at shuffle %s: thread %s of block %s waits "
            "there while %d threads of its warp wait at the shuffle at %s",
            ctx->kernelName, locationOr(location), coords(ctx->threadId).text,
            coords(ctx->blockId).text, warp.atShuffle,
            locationOr(other.location));
  }
  Fiber &fiber = fibers[index];
  fiber.state = State::AtShuffle;
  fiber.value = value;
  fiber.offset = offset;
  fiber.width = width;
  fiber.mode = mode;
  fiber.location = location;
  ++warp.atShuffle;
  if (tryCompleteShuffle(warpIndex, uint32_t(width), index)) {
    goOn(index);
  } else {
    // Lanes at a warp operation over the arrived lanes may go on now.
    if (overArrivedLanes())
      settleWarp(warpIndex, UINT32_MAX);
    park(index);
  }
  if (valid)
    *valid = fiber.valid;
  return fiber.value;
}

void BlockRunner::reportAbsentLanes(uint32_t first, uint32_t begin,
                                    uint32_t end) const {
  const Fiber *arrived = nullptr;
  std::string gone;
  unsigned count = 0;
  for (uint32_t l = begin; l < end; ++l) {
    const Fiber &fiber = fibers[first + l];
    if (fiber.state == State::AtShuffle) {
      arrived = arrived ? arrived : &fiber;
      continue;
    }
    if (count++ == 0)
      gone = std::string("lane ") + std::to_string(l) + " (thread " +
             coords(contexts[first + l].threadId).text + ")";
  }
  std::string others =
      count > 1 ? " and " + std::to_string(count - 1) + " other lanes" : "";
  reportSyncError(&contexts[arrived - fibers.data()],
                  "shuffle with absent lanes", arrived->location,
                  gone + others +
                      " of the shuffle's segment returned from the kernel "
                      "without reaching it");
}

uint32_t BlockRunner::shuffleWaitingFor(uint32_t warpIndex,
                                        uint32_t lane) const {
  if (!warps[warpIndex].atShuffle)
    return UINT32_MAX;
  uint32_t first = warpIndex * warpSize();
  for (uint32_t l = 0; l < warpSize() && first + l < fibers.size(); ++l) {
    const Fiber &fiber = fibers[first + l];
    if (fiber.state == State::AtShuffle && lane < uint32_t(fiber.width))
      return first + l;
  }
  return UINT32_MAX;
}

bool BlockRunner::tryCompleteShuffle(uint32_t warpIndex, uint32_t width,
                                     uint32_t continuing) {
  Warp &warp = warps[warpIndex];
  uint32_t first = warpIndex * warpSize();
  uint32_t lanes =
      std::min<uint32_t>(warpSize(), uint32_t(launch->threadsPerBlock) - first);
  uint32_t begin = 0, end = std::min(width, lanes);
  uint32_t arrived = 0;
  for (uint32_t l = begin; l < end; ++l) {
    State state = fibers[first + l].state;
    if (state == State::AtShuffle)
      ++arrived;
    else if (state != State::Done && state != State::Trapped)
      return false; // a live lane of the shuffle has not arrived yet
  }
  if (arrived == 0)
    return false;
  if (syncCheck() && arrived < end - begin)
    reportAbsentLanes(first, begin, end);

  uint64_t results[GPUMEM_MAX_WARP_SIZE];
  bool valids[GPUMEM_MAX_WARP_SIZE];
  for (uint32_t l = begin; l < end; ++l) {
    const Fiber &fiber = fibers[first + l];
    if (fiber.state != State::AtShuffle)
      continue;
    int64_t source =
        shuffleSource(l, fiber.offset, fiber.width, fiber.mode, warpSize());
    // A source beyond the block's last thread, or one that returned, does
    // not take part.
    bool ok = source >= 0 && source < int64_t(lanes) &&
              fibers[first + source].state == State::AtShuffle;
    results[l] = ok ? fibers[first + source].value : fiber.value;
    valids[l] = ok;
  }
  for (uint32_t l = begin; l < end; ++l) {
    Fiber &fiber = fibers[first + l];
    if (fiber.state != State::AtShuffle)
      continue;
    fiber.value = results[l];
    fiber.valid = valids[l];
    fiber.state = State::Ready;
    if (first + l != continuing)
      nextQueue.push_back(first + l);
  }
  warp.atShuffle -= int32_t(arrived);
  epoch.warpSynced(warpIndex);
  return true;
}
