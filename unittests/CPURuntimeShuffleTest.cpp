//===----------------------------------------------------------------------===//
// CPU runtime: warp shuffles. xor/up/down/idx with widths 32 and 16 (only
// the first `width` lanes of a warp take part), the valid flags, offsets
// modulo 32, a partial last warp (blocks of 40 threads), sources that
// returned, 3-D blocks, 64-bit values, and a warp reduction that mixes
// shuffles in a loop with a barrier. Kernels with 64-lane warps
// (GPUMemCPUKernel::warpSize 64): gpu.shuffle of width 64, warpSync's
// shuffle, ballot and votes over 64 lanes, and bar.sync counting a warp as
// 64 threads.
//===----------------------------------------------------------------------===//

#include "CPURuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace gpumem_test;

namespace {

/// What every lane of the "shuffle" kernel contributes.
uint64_t laneValue(int64_t t) {
  return (uint64_t(t + 1) << 32) | uint64_t(1000 + t);
}

struct Result {
  std::vector<uint64_t> value;
  std::vector<int32_t> valid;
};

Result runShuffle(int32_t mode, int32_t offset, int32_t width, Dim3 block,
                  const char *kernel = "shuffle") {
  int64_t threads = block.x * block.y * block.z;
  Result r{std::vector<uint64_t>(threads, 0),
           std::vector<int32_t>(threads, -7)};
  uint64_t *valuep = r.value.data();
  int32_t *validp = r.valid.data();
  launch(kernel, {1, 1, 1}, block, {&mode, &offset, &width, &valuep, &validp});
  return r;
}

/// Checks lane t got laneValue(source[t]) with valid 1, or its own value
/// with valid 0 where source[t] < 0.
void expectSources(const Result &r, const std::vector<int64_t> &source) {
  ASSERT_EQ(r.value.size(), source.size());
  for (size_t t = 0; t < source.size(); ++t) {
    if (source[t] >= 0) {
      EXPECT_EQ(r.value[t], laneValue(source[t])) << "lane " << t;
      EXPECT_EQ(r.valid[t], 1) << "lane " << t;
    } else {
      EXPECT_EQ(r.value[t], laneValue(int64_t(t))) << "lane " << t;
      EXPECT_EQ(r.valid[t], 0) << "lane " << t;
    }
  }
}

/// source[t] = f(t) for every t in [0, threads).
template <typename F> std::vector<int64_t> sources(int64_t threads, F f) {
  std::vector<int64_t> s(threads);
  for (int64_t t = 0; t < threads; ++t)
    s[t] = f(t);
  return s;
}

TEST(CPURuntimeShuffle, XorWidth32) {
  Result r = runShuffle(GPUMEM_SHUFFLE_XOR, 1, 32, {64, 1, 1});
  EXPECT_EQ(r.value[0], 0x0000000200000000ull + 1001);
  EXPECT_EQ(r.value[33], 0x0000002100000000ull + 1032);
  expectSources(r, sources(64, [](int64_t t) { return t ^ 1; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 16, 32, {64, 1, 1}),
                sources(64, [](int64_t t) { return t ^ 16; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 0, 32, {32, 1, 1}),
                sources(32, [](int64_t t) { return t; }));
}

TEST(CPURuntimeShuffle, XorWidth16) {
  // Only lanes 0..15 of each warp take part.
  expectSources(
      runShuffle(GPUMEM_SHUFFLE_XOR, 8, 16, {64, 1, 1}),
      sources(64, [](int64_t t) { return t % 32 < 16 ? t ^ 8 : -1; }));
  // xor 16 reaches past the 16 lanes: nobody has a source.
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 16, 16, {64, 1, 1}),
                sources(64, [](int64_t) { return int64_t(-1); }));
}

TEST(CPURuntimeShuffle, UpWidth32And16) {
  Result r = runShuffle(GPUMEM_SHUFFLE_UP, 3, 32, {64, 1, 1});
  EXPECT_EQ(r.valid[2], 0);
  EXPECT_EQ(r.value[2], laneValue(2));
  EXPECT_EQ(r.valid[35], 1);
  EXPECT_EQ(r.value[35], laneValue(32));
  expectSources(r,
                sources(64, [](int64_t t) { return t % 32 < 3 ? -1 : t - 3; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_UP, 3, 16, {64, 1, 1}),
                sources(64, [](int64_t t) {
                  return t % 32 < 3 || t % 32 >= 16 ? -1 : t - 3;
                }));
}

TEST(CPURuntimeShuffle, DownWidth32And16) {
  expectSources(
      runShuffle(GPUMEM_SHUFFLE_DOWN, 5, 32, {64, 1, 1}),
      sources(64, [](int64_t t) { return t % 32 > 26 ? -1 : t + 5; }));
  Result r = runShuffle(GPUMEM_SHUFFLE_DOWN, 5, 16, {32, 1, 1});
  EXPECT_EQ(r.value[10], laneValue(15));
  EXPECT_EQ(r.valid[11], 0);
  EXPECT_EQ(r.value[11], laneValue(11));
  expectSources(r, sources(32, [](int64_t t) { return t > 10 ? -1 : t + 5; }));
}

TEST(CPURuntimeShuffle, IdxWidth32And16) {
  expectSources(runShuffle(GPUMEM_SHUFFLE_IDX, 7, 32, {64, 1, 1}),
                sources(64, [](int64_t t) { return t / 32 * 32 + 7; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_IDX, 3, 16, {64, 1, 1}),
                sources(64, [](int64_t t) {
                  return t % 32 < 16 ? t / 32 * 32 + 3 : -1;
                }));
  // An index past the width has no source; the offset counts modulo 32,
  // as PTX's shfl reads 5 bits of it.
  expectSources(runShuffle(GPUMEM_SHUFFLE_IDX, 35, 16, {32, 1, 1}),
                sources(32, [](int64_t t) { return t < 16 ? 3 : -1; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_IDX, 20, 16, {32, 1, 1}),
                sources(32, [](int64_t) { return int64_t(-1); }));
}

TEST(CPURuntimeShuffle, PartialLastWarp) {
  // 40 threads: warp 1 has lanes 0..7 (threads 32..39).
  Dim3 block{40, 1, 1};
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 4, 32, block),
                sources(40, [](int64_t t) { return t ^ 4; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 8, 32, block),
                sources(40, [](int64_t t) { return t < 32 ? t ^ 8 : -1; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_DOWN, 4, 32, block),
                sources(40, [](int64_t t) {
                  return t < 32 ? (t < 28 ? t + 4 : -1) : (t < 36 ? t + 4 : -1);
                }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_UP, 4, 32, block),
                sources(40, [](int64_t t) { return t % 32 < 4 ? -1 : t - 4; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_IDX, 9, 32, block),
                sources(40, [](int64_t t) { return t < 32 ? 9 : -1; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_IDX, 7, 16, block),
                sources(40, [](int64_t t) {
                  return t % 32 < 16 ? t / 32 * 32 + 7 : -1;
                }));
  // Warp 1 holds only lanes 0..7: xor 8 falls off there.
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 8, 16, block),
                sources(40, [](int64_t t) { return t < 16 ? t ^ 8 : -1; }));
}

TEST(CPURuntimeShuffle, LanesFollowLinearIdsOf3DBlocks) {
  // 8 x 4 x 2 = 64 threads; lane = (x + 8y + 32z) % 32.
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 9, 32, {8, 4, 2}),
                sources(64, [](int64_t t) { return t ^ 9; }));
  expectSources(runShuffle(GPUMEM_SHUFFLE_DOWN, 1, 32, {3, 5, 3}),
                sources(45, [](int64_t t) {
                  return t % 32 == 31 || t == 44 ? -1 : t + 1;
                }));
}

TEST(CPURuntimeShuffle, OneThreadBlock) {
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 0, 32, {1, 1, 1}), {0});
  expectSources(runShuffle(GPUMEM_SHUFFLE_XOR, 1, 32, {1, 1, 1}), {-1});
  expectSources(runShuffle(GPUMEM_SHUFFLE_IDX, 0, 1, {1, 1, 1}), {0});
}

TEST(CPURuntimeShuffle, ReturnedSourcesAreInvalid) {
  std::vector<uint64_t> out(64, 0);
  std::vector<int32_t> valid(64, -7);
  uint64_t *outp = out.data();
  int32_t *validp = valid.data();
  launch("shuffle_returned", {1, 1, 1}, {32, 1, 1}, {&outp, &validp});
  for (int64_t t = 0; t < 32; t += 2) {
    EXPECT_EQ(out[2 * t], laneValue(t)) << t;
    EXPECT_EQ(valid[2 * t], 0) << t;
    EXPECT_EQ(out[2 * t + 1], laneValue(t ^ 2)) << t;
    EXPECT_EQ(valid[2 * t + 1], 1) << t;
  }
  for (int64_t t = 1; t < 32; t += 2) {
    EXPECT_EQ(out[2 * t], 0u);
    EXPECT_EQ(valid[2 * t + 1], -7);
  }
}

TEST(CPURuntimeShuffle, WarpSumsWithShufflesAndABarrier) {
  for (auto [threads, sum] : {std::pair<intptr_t, int32_t>{40, 820},
                              {64, 2080},
                              {1024, 524800},
                              {32, 528}}) {
    std::vector<int32_t> out(3, 0);
    int32_t *p = out.data();
    launch("warp_sum", {3, 1, 1}, {threads, 1, 1}, {&p});
    EXPECT_EQ(out, std::vector<int32_t>(3, sum)) << threads << " threads";
  }
  gpumemCPURuntimeConfigure(2, 0);
  std::vector<int32_t> out(8, 0);
  int32_t *p = out.data();
  launch("warp_sum", {2, 2, 2}, {8, 5, 1}, {&p});
  EXPECT_EQ(out, std::vector<int32_t>(8, 820));
  gpumemCPURuntimeConfigure(0, 0);
}

//--- 64-lane warps
//-----------------------------------------------------------//

TEST(CPURuntimeWave64, GPUShuffleInWarpsOf64Lanes) {
  // xor 32 crosses the halves of a 64-lane warp.
  expectSources(
      runShuffle(GPUMEM_SHUFFLE_XOR, 32, 64, {128, 1, 1}, "shuffle_wave64"),
      sources(128, [](int64_t t) { return t ^ 32; }));
  // The offset counts modulo 64: idx 70 reads lane 6 of each warp.
  expectSources(
      runShuffle(GPUMEM_SHUFFLE_IDX, 70, 64, {100, 1, 1}, "shuffle_wave64"),
      sources(100, [](int64_t t) { return t / 64 * 64 + 6; }));
  // 100 threads: warp 1 has lanes 0..35 (threads 64..99).
  expectSources(
      runShuffle(GPUMEM_SHUFFLE_DOWN, 40, 64, {100, 1, 1}, "shuffle_wave64"),
      sources(100, [](int64_t t) {
        return t % 64 + 40 < 64 && t + 40 < 100 ? t + 40 : -1;
      }));
  // Lanes are linear ids modulo 64 in 3-D blocks too (8 x 4 x 4).
  expectSources(
      runShuffle(GPUMEM_SHUFFLE_XOR, 33, 64, {8, 4, 4}, "shuffle_wave64"),
      sources(128, [](int64_t t) { return t ^ 33; }));
  // Width 32 in a 64-lane warp: lanes 32..63 take no part.
  expectSources(
      runShuffle(GPUMEM_SHUFFLE_UP, 1, 32, {64, 1, 1}, "shuffle_wave64"),
      sources(64, [](int64_t t) { return t >= 1 && t < 32 ? t - 1 : -1; }));
}

TEST(CPURuntimeWave64, WarpOperationsOver64Lanes) {
  for (int64_t n : {128, 100, 64}) {
    std::vector<uint64_t> out(6 * n, ~uint64_t(0));
    uint64_t *p = out.data();
    launch("wave64", {1, 1, 1}, {n, 1, 1}, {&p});
    for (int64_t t = 0; t < n; ++t) {
      int64_t lane = t % 64, first = t - lane;
      int64_t lanes = std::min<int64_t>(64, n - first);
      const uint64_t *r = &out[6 * t];
      // The rotation: lane (lane + 1) % 64, the caller's own value where
      // that lane is past the block (not in the member mask).
      int64_t source = (lane + 1) % 64;
      EXPECT_EQ(r[0], uint64_t(1000 + (source < lanes ? first + source : t)))
          << n << " threads, thread " << t;
      EXPECT_EQ(r[1], 1u) << t;
      uint64_t ballot = 0;
      for (int64_t l = 0; l < lanes; ++l)
        if ((first + l) % 3 == 0)
          ballot |= uint64_t(1) << l;
      EXPECT_EQ(r[2], ballot) << n << " threads, thread " << t;
      EXPECT_EQ(r[3], uint64_t(first + lanes <= 100)) << t;
      EXPECT_EQ(r[4], uint64_t(first <= 70 && 70 < first + lanes)) << t;
      EXPECT_EQ(r[5], (lane ^ 32) < lanes ? uint64_t(1000 + (t ^ 32)) : 0u)
          << t;
    }
  }
  // Both halves of a full wave's ballot: every third thread of 0..63.
  std::vector<uint64_t> out(6 * 64, 0);
  uint64_t *p = out.data();
  launch("wave64", {1, 1, 1}, {64, 1, 1}, {&p});
  EXPECT_EQ(out[2], 0x9249249249249249u);
}

TEST(CPURuntimeWave64, NamedBarrierCountsAWarpAs64Threads) {
  // Two wavefronts of 64; then one of 64 and a partial one of 32 lanes,
  // which counts as 64 arrivals once its live lanes arrived.
  for (int64_t n : {128, 96}) {
    std::vector<int32_t> out(n, -1);
    int32_t *p = out.data();
    int32_t count = 128;
    launch("wave64_barrier", {1, 1, 1}, {n, 1, 1}, {&p, &count});
    for (int64_t t = 0; t < n; ++t)
      EXPECT_EQ(out[t], int32_t((t + 64) % n)) << n << " threads, " << t;
  }
}

// Warp operations over the arrived lanes (AMD's EXEC mask,
// GPUMemCPUKernel::warpOpsOverArrivedLanes): the member mask names the whole
// warp, the lanes that reach the operation are its active set.

/// What kernel `name` (argument: a uint64 array) writes into `perThread`
/// entries per thread of a block of `n` threads, entries it leaves `fill`.
std::vector<uint64_t> outputs(const char *name, int64_t n, int64_t perThread,
                              uint64_t fill) {
  std::vector<uint64_t> out(perThread * n, fill);
  uint64_t *p = out.data();
  launch(name, {1, 1, 1}, {n, 1, 1}, {&p});
  return out;
}

/// Lanes of the warp of `size` lanes that thread t of `n` is in.
int64_t lanesOfWarp(int64_t t, int64_t n, int64_t size) {
  return std::min<int64_t>(size, n - (t - t % size));
}

TEST(CPURuntimeExecMask, ShuffleAndBallotInABranchOfHalfTheWarp) {
  // A full warp, and a partial one of 16 lanes which all take the branch.
  for (int64_t n : {64, 48}) {
    const uint64_t untouched = 0xdeadull;
    std::vector<uint64_t> out = outputs("exec_branch", n, 4, untouched);
    for (int64_t t = 0; t < n; ++t) {
      int64_t lane = t % 32, lanes = lanesOfWarp(t, n, 32);
      const uint64_t *r = &out[4 * t];
      if (lane < 16) {
        // Lane 15 reads lane 16, which is not in the branch: 0, invalid.
        bool active = lane + 1 < 16;
        EXPECT_EQ(r[0], active ? uint64_t(1000 + t + 1) : 0u)
            << n << " threads, thread " << t;
        EXPECT_EQ(r[1], uint64_t(active)) << t;
        // Only the lanes in the branch vote.
        EXPECT_EQ(r[2], 0x5555u) << t;
      } else {
        EXPECT_EQ(r[0], untouched) << t;
        EXPECT_EQ(r[2], untouched) << t;
      }
      // After the branch the warp votes together again.
      EXPECT_EQ(r[3], lanes == 32 ? 0xffffffffu : (uint64_t(1) << lanes) - 1)
          << n << " threads, thread " << t;
    }
  }
}

TEST(CPURuntimeExecMask, LanesReturnWhileOthersShuffle) {
  int64_t n = 64;
  std::vector<uint64_t> out = outputs("exec_exit", n, 3, 7);
  for (int64_t t = 0; t < n; ++t) {
    const uint64_t *r = &out[3 * t];
    if (t % 32 >= 16) {
      EXPECT_EQ(r[0], 7u) << t;
      continue;
    }
    EXPECT_EQ(r[0], uint64_t(1000 + (t ^ 1))) << t;
    // Lane 20 returned: inactive, read as 0.
    EXPECT_EQ(r[1], 0u) << t;
    EXPECT_EQ(r[2], 0u) << t;
  }
}

TEST(CPURuntimeExecMask, BarrierAfterADivergentShuffle) {
  int64_t n = 64;
  std::vector<uint64_t> out = outputs("exec_barrier", n, 2, 7);
  for (int64_t t = 0; t < n; ++t) {
    int64_t lane = t % 32;
    uint64_t expected = 0;
    if (lane < 7)
      expected = uint64_t(1000 + t + 1);
    EXPECT_EQ(out[2 * t], expected) << "thread " << t;
    EXPECT_EQ(out[2 * t + 1], uint64_t((t + 1) % n)) << "thread " << t;
  }
}

TEST(CPURuntimeExecMask, BallotOverPartOfA64LaneWarp) {
  // A full wavefront and a partial one of 36 lanes.
  int64_t n = 100;
  std::vector<uint64_t> out = outputs("exec_ballot64", n, 2, 7);
  for (int64_t t = 0; t < n; ++t) {
    int64_t lane = t % 64, lanes = lanesOfWarp(t, n, 64);
    if (lane % 3 != 0) {
      EXPECT_EQ(out[t], 7u) << t;
      continue;
    }
    uint64_t ballot = 0;
    for (int64_t l = 0; l < lanes; l += 6)
      ballot |= uint64_t(1) << l;
    EXPECT_EQ(out[t], ballot) << "thread " << t;
    EXPECT_EQ(out[t + n], 1u) << "thread " << t;
  }
}

} // namespace
