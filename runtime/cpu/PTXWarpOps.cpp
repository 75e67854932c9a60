//===----------------------------------------------------------------------===//
// PTX's warp-synchronous instructions, from the PTX ISA's pseudocode.
//
// shfl.sync: with lane the caller's lane, b[4:0] the lane operand and c the
// packed clamp (c[4:0]) and segment mask (c[12:8]):
//   maxLane = (lane & segmask) | (clamp & ~segmask); minLane = lane & segmask
//   up:   j = lane - b;  valid = j >= maxLane
//   down: j = lane + b;  valid = j <= maxLane
//   bfly: j = lane ^ b;  valid = j <= maxLane
//   idx:  j = minLane | (b & ~segmask); valid = j <= maxLane
//   if !valid, j = lane; the result is lane j's value.
// Lane j outside the member mask has no defined value on a GPU; here it is
// the caller's own. A 64-lane warp (a kernel with warpSize 64, AMD's
// wavefronts) has no clamp or segment mask: b counts modulo 64 and
//   up: j = lane - b, valid = j >= 0; down: j = lane + b, valid = j <= 63;
//   bfly: j = lane ^ b; idx: j = b; both always valid. vote.sync, redux.sync
//   and match.sync combine the
// operands of the member mask's lanes; the caller checked that every one of
// them arrived.
//===----------------------------------------------------------------------===//

#include "PTXWarpOps.h"

using namespace gpumem::cpu;

namespace {

/// The source lane of a shuffle in a 64-lane warp, or -1.
int32_t shuffleSource64(int32_t op, uint32_t lane, const WarpOperands &self) {
  int32_t b = self.b & (GPUMEM_MAX_WARP_SIZE - 1), l = int32_t(lane), j = l;
  switch (op) {
  case GPUMEM_WARP_SHFL_UP:
    j = l - b;
    break;
  case GPUMEM_WARP_SHFL_DOWN:
    j = l + b;
    break;
  case GPUMEM_WARP_SHFL_BFLY:
    j = l ^ b;
    break;
  default:
    j = b;
    break;
  }
  return j >= 0 && j < GPUMEM_MAX_WARP_SIZE ? j : -1;
}

/// The source lane of a shuffle in a 32-lane warp, with PTX's clamp and
/// segment mask, or -1.
int32_t shuffleSource32(int32_t op, uint32_t lane, const WarpOperands &self) {
  int32_t b = self.b & 31, clamp = self.c & 31, segmask = (self.c >> 8) & 31;
  int32_t l = int32_t(lane);
  int32_t maxLane = (l & segmask) | (clamp & ~segmask);
  int32_t minLane = l & segmask;
  int32_t j = l;
  bool valid = false;
  switch (op) {
  case GPUMEM_WARP_SHFL_UP:
    j = l - b;
    valid = j >= maxLane;
    break;
  case GPUMEM_WARP_SHFL_DOWN:
    j = l + b;
    valid = j <= maxLane;
    break;
  case GPUMEM_WARP_SHFL_BFLY:
    j = l ^ b;
    valid = j <= maxLane;
    break;
  default:
    j = minLane | (b & ~segmask);
    valid = j <= maxLane;
    break;
  }
  return valid && j >= 0 && j < GPUMEM_WARP_SIZE ? j : -1;
}

uint64_t shuffle(int32_t op, uint32_t lane, uint64_t memberMask,
                 const WarpOperands lanes[], int32_t *pred, uint32_t warpSize) {
  const WarpOperands &self = lanes[lane];
  int32_t j = ptxShuffleSource(op, lane, self, warpSize);
  *pred = j >= 0;
  if (j < 0 || !(memberMask >> j & 1))
    return self.value & 0xffffffffu;
  return lanes[j].value & 0xffffffffu;
}

uint64_t reduce(int32_t op, uint64_t memberMask, const WarpOperands lanes[],
                uint32_t warpSize) {
  bool first = true;
  uint32_t acc = 0;
  for (uint32_t l = 0; l < warpSize; ++l) {
    if (!(memberMask >> l & 1))
      continue;
    uint32_t v = uint32_t(lanes[l].value);
    if (first) {
      acc = v;
      first = false;
      continue;
    }
    switch (op) {
    case GPUMEM_WARP_REDUX_ADD:
      acc += v;
      break;
    case GPUMEM_WARP_REDUX_MIN:
      acc = int32_t(v) < int32_t(acc) ? v : acc;
      break;
    case GPUMEM_WARP_REDUX_MAX:
      acc = int32_t(v) > int32_t(acc) ? v : acc;
      break;
    case GPUMEM_WARP_REDUX_UMIN:
      acc = v < acc ? v : acc;
      break;
    case GPUMEM_WARP_REDUX_UMAX:
      acc = v > acc ? v : acc;
      break;
    case GPUMEM_WARP_REDUX_AND:
      acc &= v;
      break;
    case GPUMEM_WARP_REDUX_OR:
      acc |= v;
      break;
    default:
      acc ^= v;
      break;
    }
  }
  return acc;
}

} // namespace

uint64_t gpumem::cpu::ptxWarpResult(int32_t op, uint32_t lane,
                                    uint64_t memberMask,
                                    const WarpOperands lanes[], int32_t *pred,
                                    uint32_t warpSize) {
  *pred = 0;
  if (op == GPUMEM_WARP_MATRIX) {
    // Once for the warp, before any lane resumes.
    if (lane == uint32_t(__builtin_ctzll(memberMask)))
      ptxMatrixOp(lanes[lane].b, lanes);
    return 0;
  }
  if (op <= GPUMEM_WARP_SHFL_IDX)
    return shuffle(op, lane, memberMask, lanes, pred, warpSize);
  if (op >= GPUMEM_WARP_REDUX_ADD && op <= GPUMEM_WARP_REDUX_XOR)
    return reduce(op, memberMask, lanes, warpSize);
  uint64_t ballot = 0, matching = 0;
  bool allSame = true;
  for (uint32_t l = 0; l < warpSize; ++l) {
    if (!(memberMask >> l & 1))
      continue;
    if (lanes[l].value & 1)
      ballot |= uint64_t(1) << l;
    if (lanes[l].value == lanes[lane].value)
      matching |= uint64_t(1) << l;
    else
      allSame = false;
  }
  switch (op) {
  case GPUMEM_WARP_VOTE_ALL:
    return ballot == memberMask;
  case GPUMEM_WARP_VOTE_ANY:
    return ballot != 0;
  case GPUMEM_WARP_VOTE_UNI:
    return ballot == 0 || ballot == memberMask;
  case GPUMEM_WARP_VOTE_BALLOT:
    return ballot;
  case GPUMEM_WARP_MATCH_ANY:
    return matching;
  case GPUMEM_WARP_MATCH_ALL:
    *pred = allSame;
    return allSame ? memberMask : 0;
  default:
    return 0;
  }
}

int32_t gpumem::cpu::ptxShuffleSource(int32_t op, uint32_t lane,
                                      const WarpOperands &self,
                                      uint32_t warpSize) {
  return warpSize == GPUMEM_WARP_SIZE ? shuffleSource32(op, lane, self)
                                      : shuffleSource64(op, lane, self);
}

uint64_t gpumem::cpu::activeLanesWarpResult(int32_t op, uint32_t lane,
                                            uint64_t active,
                                            const WarpOperands lanes[],
                                            int32_t *pred, uint32_t warpSize) {
  if (op > GPUMEM_WARP_SHFL_IDX)
    return ptxWarpResult(op, lane, active, lanes, pred, warpSize);
  int32_t j = ptxShuffleSource(op, lane, lanes[lane], warpSize);
  *pred = 0;
  if (j < 0)
    return lanes[lane].value & 0xffffffffu;
  // AMD's ds_bpermute reads 0 from an inactive lane.
  if (!(active >> j & 1))
    return 0;
  *pred = 1;
  return lanes[j].value & 0xffffffffu;
}

const char *gpumem::cpu::ptxWarpOpName(int32_t op) {
  static const char *const names[] = {
      "shfl.sync.bfly",  "shfl.sync.up",
      "shfl.sync.down",  "shfl.sync.idx",
      "vote.sync.all",   "vote.sync.any",
      "vote.sync.uni",   "vote.sync.ballot",
      "redux.sync.add",  "redux.sync.min",
      "redux.sync.max",  "redux.sync.umin",
      "redux.sync.umax", "redux.sync.and",
      "redux.sync.or",   "redux.sync.xor",
      "match.any.sync",  "match.all.sync",
      "bar.warp.sync",   "warp-level matrix instruction"};
  if (op < 0 || op > GPUMEM_WARP_MATRIX)
    return "unknown warp operation";
  return names[op];
}
