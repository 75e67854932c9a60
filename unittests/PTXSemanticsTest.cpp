//===----------------------------------------------------------------------===//
// The cuda-emu target's PTX semantics in the CPU runtime, checked against
// the PTX ISA's definitions: shfl.sync's clamp and segment mask, vote,
// redux and match results, and CUDA's vprintf argument buffer; and the same
// operations in a 64-lane warp (a kernel with warpSize 64), where shuffles
// have no clamp or segment mask and masks have 64 bits.
//===----------------------------------------------------------------------===//

#include "CUDAEmulation.h"
#include "PTXWarpOps.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace gpumem::cpu;

namespace {

using Result = std::pair<uint64_t, int32_t>;

/// Operands of all 32 lanes: value = 100 + lane, with the same b and c.
struct Warp {
  WarpOperands lanes[GPUMEM_WARP_SIZE];
  Warp(int32_t b, int32_t c) {
    for (uint32_t l = 0; l < GPUMEM_WARP_SIZE; ++l)
      lanes[l] = {100 + l, b, c};
  }
  /// {result, predicate} of `op` for `lane` with a full member mask.
  Result at(int32_t op, uint32_t lane, uint32_t mask = 0xffffffffu) const {
    int32_t pred = -1;
    uint64_t result = ptxWarpResult(op, lane, mask, lanes, &pred);
    return Result{result, pred};
  }
};

constexpr int32_t kFullClamp = 0x1f; // c for a 32-lane shuffle but up
/// c of CUDA's __shfl_*_sync with `width`: segment mask, then the clamp.
constexpr int32_t segment(int32_t width, bool up) {
  return ((32 - width) << 8) | (up ? 0 : 0x1f);
}

TEST(PTXShuffle, IdxReadsTheLaneOfTheSegment) {
  Warp warp(3, segment(8, false));
  // Lane 13's segment starts at 8: it reads lane 8 + 3.
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_IDX, 13), (Result(111, 1)));
  Warp full(40, kFullClamp); // b counts modulo 32
  EXPECT_EQ(full.at(GPUMEM_WARP_SHFL_IDX, 0), (Result(108, 1)));
}

TEST(PTXShuffle, DownStopsAtTheSegmentEnd) {
  Warp warp(2, segment(16, false));
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_DOWN, 13), (Result(115, 1)));
  // Lane 14 + 2 is past its segment [0, 16): its own value, invalid.
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_DOWN, 14), (Result(114, 0)));
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_DOWN, 17), (Result(119, 1)));
}

TEST(PTXShuffle, UpClampIsTheSegmentStart) {
  Warp warp(2, segment(16, true));
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_UP, 17), (Result(117, 0)));
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_UP, 18), (Result(116, 1)));
  // Upstream's old clamp 32 - width, given as c's low bits without a
  // segment mask: lane 5 - 2 is below the clamp 16, so invalid.
  Warp wrong(2, 16);
  EXPECT_EQ(wrong.at(GPUMEM_WARP_SHFL_UP, 5), (Result(105, 0)));
}

TEST(PTXShuffle, ButterflyWithinAClamp) {
  Warp warp(4, 0x7); // no segment mask, clamp 7
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_BFLY, 1), (Result(105, 1)));
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_BFLY, 4), (Result(100, 1)));
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_BFLY, 8), (Result(108, 0)));
}

TEST(PTXShuffle, SourceOutsideTheMemberMaskGivesTheOwnValue) {
  Warp warp(1, kFullClamp);
  EXPECT_EQ(warp.at(GPUMEM_WARP_SHFL_BFLY, 0, 0x1), (Result(100, 1)));
}

TEST(PTXVote, AllAnyUniBallot) {
  Warp warp(0, 0);
  for (uint32_t l = 0; l < GPUMEM_WARP_SIZE; ++l)
    warp.lanes[l].value = l < 4;
  EXPECT_EQ(warp.at(GPUMEM_WARP_VOTE_BALLOT, 9).first, 0xfull);
  EXPECT_EQ(warp.at(GPUMEM_WARP_VOTE_ANY, 9).first, 1ull);
  EXPECT_EQ(warp.at(GPUMEM_WARP_VOTE_ALL, 9).first, 0ull);
  EXPECT_EQ(warp.at(GPUMEM_WARP_VOTE_ALL, 2, 0xf).first, 1ull);
  EXPECT_EQ(warp.at(GPUMEM_WARP_VOTE_UNI, 2, 0xf).first, 1ull);
  EXPECT_EQ(warp.at(GPUMEM_WARP_VOTE_UNI, 2, 0x1f).first, 0ull);
}

TEST(PTXRedux, SignedAndUnsigned) {
  Warp warp(0, 0);
  for (uint32_t l = 0; l < GPUMEM_WARP_SIZE; ++l)
    warp.lanes[l].value = uint32_t(int32_t(l) - 3);
  EXPECT_EQ(warp.at(GPUMEM_WARP_REDUX_ADD, 0).first, 496ull - 96);
  EXPECT_EQ(uint32_t(warp.at(GPUMEM_WARP_REDUX_MIN, 0).first), uint32_t(-3));
  EXPECT_EQ(warp.at(GPUMEM_WARP_REDUX_MAX, 0).first, 28ull);
  EXPECT_EQ(warp.at(GPUMEM_WARP_REDUX_UMIN, 0).first, 0ull);
  EXPECT_EQ(uint32_t(warp.at(GPUMEM_WARP_REDUX_UMAX, 0).first), uint32_t(-1));
  EXPECT_EQ(warp.at(GPUMEM_WARP_REDUX_XOR, 0, 0x30).first,
            uint64_t(uint32_t(1) ^ uint32_t(2)));
}

TEST(PTXMatch, AnyAndAll) {
  Warp warp(0, 0);
  for (uint32_t l = 0; l < GPUMEM_WARP_SIZE; ++l)
    warp.lanes[l].value = l / 8;
  EXPECT_EQ(warp.at(GPUMEM_WARP_MATCH_ANY, 9).first, 0xff00ull);
  EXPECT_EQ(warp.at(GPUMEM_WARP_MATCH_ALL, 9), (Result(0, 0)));
  EXPECT_EQ(warp.at(GPUMEM_WARP_MATCH_ALL, 9, 0xff00), (Result(0xff00, 1)));
}

/// Operands of the 64 lanes of a 64-lane warp: value = 100 + lane.
struct Wave {
  WarpOperands lanes[GPUMEM_MAX_WARP_SIZE];
  Wave(int32_t b, int32_t c) {
    for (uint32_t l = 0; l < GPUMEM_MAX_WARP_SIZE; ++l)
      lanes[l] = {100 + l, b, c};
  }
  Result at(int32_t op, uint32_t lane, uint64_t mask = ~uint64_t(0)) const {
    int32_t pred = -1;
    uint64_t result =
        ptxWarpResult(op, lane, mask, lanes, &pred, GPUMEM_MAX_WARP_SIZE);
    return Result{result, pred};
  }
};

TEST(Wave64Shuffle, IdxReadsTheLaneModulo64) {
  // c (a 32-lane clamp and segment mask) plays no part.
  Wave wave(45, segment(8, false));
  EXPECT_EQ(wave.at(GPUMEM_WARP_SHFL_IDX, 3), (Result(145, 1)));
  Wave wrapped(64 + 7, kFullClamp);
  EXPECT_EQ(wrapped.at(GPUMEM_WARP_SHFL_IDX, 60), (Result(107, 1)));
  // A rotation: lane l reads lane (l + 1) % 64.
  for (uint32_t l = 0; l < GPUMEM_MAX_WARP_SIZE; ++l) {
    Wave rotation(0, 0);
    rotation.lanes[l].b = int32_t((l + 1) % 64);
    EXPECT_EQ(rotation.at(GPUMEM_WARP_SHFL_IDX, l),
              (Result(100 + (l + 1) % 64, 1)))
        << l;
  }
  // A source outside the member mask: the caller's own value.
  EXPECT_EQ(wave.at(GPUMEM_WARP_SHFL_IDX, 3, 0xffffffffu), (Result(103, 1)));
}

TEST(Wave64Shuffle, UpDownAndButterflyOverTheWholeWave) {
  Wave up(3, kFullClamp);
  EXPECT_EQ(up.at(GPUMEM_WARP_SHFL_UP, 2), (Result(102, 0)));
  EXPECT_EQ(up.at(GPUMEM_WARP_SHFL_UP, 40), (Result(137, 1)));
  Wave down(3, kFullClamp);
  EXPECT_EQ(down.at(GPUMEM_WARP_SHFL_DOWN, 30), (Result(133, 1)));
  EXPECT_EQ(down.at(GPUMEM_WARP_SHFL_DOWN, 61), (Result(161, 0)));
  Wave bfly(32, kFullClamp);
  EXPECT_EQ(bfly.at(GPUMEM_WARP_SHFL_BFLY, 5), (Result(137, 1)));
  EXPECT_EQ(bfly.at(GPUMEM_WARP_SHFL_BFLY, 50), (Result(118, 1)));
}

TEST(Wave64Vote, BallotHas64Bits) {
  Wave wave(0, 0);
  for (uint32_t l = 0; l < GPUMEM_MAX_WARP_SIZE; ++l)
    wave.lanes[l].value = l >= 30 && l < 34;
  EXPECT_EQ(wave.at(GPUMEM_WARP_VOTE_BALLOT, 0).first, 0x3c0000000ull);
  EXPECT_EQ(wave.at(GPUMEM_WARP_VOTE_ANY, 63).first, 1ull);
  EXPECT_EQ(wave.at(GPUMEM_WARP_VOTE_ALL, 63).first, 0ull);
  EXPECT_EQ(wave.at(GPUMEM_WARP_VOTE_ALL, 32, 0x3c0000000ull).first, 1ull);
  EXPECT_EQ(wave.at(GPUMEM_WARP_VOTE_ANY, 40, ~0x3c0000000ull).first, 0ull);
}

TEST(Wave64ReduxAndMatch, Over64Lanes) {
  Wave wave(0, 0);
  EXPECT_EQ(wave.at(GPUMEM_WARP_REDUX_ADD, 0).first, 64ull * 100 + 2016);
  EXPECT_EQ(wave.at(GPUMEM_WARP_REDUX_MAX, 0).first, 163ull);
  for (uint32_t l = 0; l < GPUMEM_MAX_WARP_SIZE; ++l)
    wave.lanes[l].value = l / 16;
  EXPECT_EQ(wave.at(GPUMEM_WARP_MATCH_ANY, 50).first, 0xffff000000000000ull);
  EXPECT_EQ(wave.at(GPUMEM_WARP_MATCH_ALL, 50, 0xffff000000000000ull),
            (Result(0xffff000000000000ull, 1)));
}

/// The buffer upstream's NVVM lowering packs for (i32, f64, i64, ptr).
struct Arguments {
  int32_t i;
  double d;
  int64_t l;
  const char *s;
};

TEST(PTXVprintf, ReadsTheBufferAsCUDAsPrintfDoes) {
  GPUMemThreadContext ctx = {};
  ctx.kernelName = "k";
  Arguments args = {-7, 0.5, 1ll << 40, "text"};
  testing::internal::CaptureStdout();
  int32_t count = cudaVprintf(&ctx, "%d %.2f %lld %s 100%%\n", &args);
  std::fflush(stdout);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "-7 0.50 1099511627776 text 100%\n");
  EXPECT_EQ(count, 4);
}

} // namespace
