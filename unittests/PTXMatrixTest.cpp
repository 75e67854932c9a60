//===----------------------------------------------------------------------===//
// cuda-emu's warp-level matrix instructions and asynchronous copies, run
// directly on the runtime's implementation (runtime/cpu/PTXMatrixOps.cpp,
// PTXAsyncCopies.cpp): each test builds the 32 lanes' records as the
// compiled kernel does, executes the instruction once for the warp, and
// checks each lane's registers against the PTX ISA's fragment tables, the
// f16 accumulator's rounding, and when asynchronous copies land.
//===----------------------------------------------------------------------===//

#include "PTXAsyncCopies.h"
#include "PTXWarpOps.h"

#include "gpumem/Runtime/PTXMatrix.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace gpumem::cpu;

namespace {

/// binary16 bits of a value exact in binary16 (normal or zero).
uint16_t half(float f) {
  if (f == 0)
    return 0;
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return uint16_t(((bits >> 16) & 0x8000) |
                  ((((bits >> 23) & 255) - 112) << 10) | ((bits >> 13) & 1023));
}

/// One lane's record: 8 bytes of address, then register words.
struct Lane {
  std::vector<uint32_t> words = std::vector<uint32_t>(2 + 64, 0);
  uint32_t *regs() { return words.data() + 2; }
  void setAddress(const void *p) { std::memcpy(words.data(), &p, 8); }
  void setHalves(int word, uint16_t lo, uint16_t hi) {
    regs()[word] = uint32_t(lo) | uint32_t(hi) << 16;
  }
};

/// Runs `descriptor` over 32 records, with `c` each lane's c operand.
void run(int descriptor, std::vector<Lane> &lanes, int32_t c) {
  WarpOperands ops[GPUMEM_MAX_WARP_SIZE] = {};
  for (int l = 0; l < 32; ++l)
    ops[l] = {
        uint64_t(reinterpret_cast<uintptr_t>(lanes[size_t(l)].words.data())),
        descriptor, c};
  int32_t pred = 0;
  ptxWarpResult(GPUMEM_WARP_MATRIX, 0, 0xffffffffu, ops, &pred);
}

float asFloat(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

} // namespace

// mma.sync.m16n8k16 with f16 A and B, f32 C and D: A is the identity, so
// D = B's rows, and lane l must hold D[g][2t], D[g][2t+1], D[g+8][2t],
// D[g+8][2t+1] (g = l/4, t = l%4; PTX ISA 9.7.14.5.8).
TEST(PTXMatrix, MmaSyncM16N8K16LanesHoldTheISAElements) {
  auto a = [](int i, int k) { return i == k ? 1.0f : 0.0f; };
  auto b = [](int k, int n) { return float(k * 8 + n); };
  std::vector<Lane> lanes(32);
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    Lane &lane = lanes[size_t(l)];
    // a0..a7: (g, 2t..), (g+8, 2t..), (g, 2t+8..), (g+8, 2t+8..).
    int rows[4] = {g, g + 8, g, g + 8},
        cols[4] = {2 * t, 2 * t, 2 * t + 8, 2 * t + 8};
    for (int r = 0; r < 4; ++r)
      lane.setHalves(r, half(a(rows[r], cols[r])),
                     half(a(rows[r], cols[r] + 1)));
    // b0,b1: k = 2t, 2t+1 at n = g; b2,b3: k = 2t+8, 2t+9.
    lane.setHalves(4, half(b(2 * t, g)), half(b(2 * t + 1, g)));
    lane.setHalves(5, half(b(2 * t + 8, g)), half(b(2 * t + 9, g)));
  }
  run(GPUMEM_MATRIX_DESCRIPTOR(GPUMEM_MATRIX_MMA_SYNC, 16, 8, 16,
                               GPUMEM_MATRIX_F16, GPUMEM_MATRIX_F32, 0, 1),
      lanes, /*input words=*/10);
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    uint32_t *d = lanes[size_t(l)].regs() + 10;
    EXPECT_EQ(asFloat(d[0]), b(g, 2 * t)) << "lane " << l;
    EXPECT_EQ(asFloat(d[1]), b(g, 2 * t + 1)) << "lane " << l;
    EXPECT_EQ(asFloat(d[2]), b(g + 8, 2 * t)) << "lane " << l;
    EXPECT_EQ(asFloat(d[3]), b(g + 8, 2 * t + 1)) << "lane " << l;
  }
}

// An f16 accumulator is rounded to nearest even once: 2048 + 1 is a tie
// that stays 2048, 2048 + 3 rounds up to 2052.
TEST(PTXMatrix, F16AccumulatorRoundsToNearestEven) {
  std::vector<Lane> lanes(32);
  for (int l = 0; l < 32; ++l) {
    Lane &lane = lanes[size_t(l)];
    // A: all ones in A's slots; B: one 1 (row k = 0) or three per column.
    for (int r = 0; r < 8; ++r)
      lane.setHalves(r, half(1), half(1));
    for (int r = 0; r < 4; ++r)
      lane.setHalves(16 + r, half(2048), half(2048));
  }
  // B's elements (n, k) of lane l, slot s: k < 1 for n even, k < 3 for odd,
  // by the fragment rule (rows n = atom row * 8 + l/4, k = 2*(l%4) + ...).
  for (int l = 0; l < 32; ++l)
    for (int s = 0; s < 16; ++s) {
      int atom = (s % 8) / 2, within = s % 2;
      int n = (atom % 2) * 8 + l / 4, k = (atom / 2) * 8 + (l % 4) * 2 + within;
      uint16_t v = half(k < (n % 2 ? 3 : 1) ? 1.0f : 0.0f);
      uint32_t &w = lanes[size_t(l)].regs()[8 + s / 2];
      w = s % 2 ? (w & 0xffffu) | uint32_t(v) << 16 : (w & 0xffff0000u) | v;
    }
  run(GPUMEM_MATRIX_DESCRIPTOR(GPUMEM_MATRIX_WMMA, 16, 16, 16,
                               GPUMEM_MATRIX_F16, GPUMEM_MATRIX_F16, 0, 0),
      lanes, /*input words=*/20);
  // Lane 0 holds D[0][0] and D[0][1] in its first register.
  uint32_t d = lanes[0].regs()[20];
  EXPECT_EQ(d & 0xffffu, half(2048));
  EXPECT_EQ(d >> 16, half(2052));
}

// ldmatrix.x1.trans: lane l gets rows 2t and 2t+1 of column g.
TEST(PTXMatrix, LdmatrixTransposed) {
  uint16_t m[8][8];
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      m[r][c] = uint16_t(r * 8 + c);
  std::vector<Lane> lanes(32);
  for (int l = 0; l < 32; ++l)
    lanes[size_t(l)].setAddress(m[l % 8]);
  run(GPUMEM_MATRIX_DESCRIPTOR(GPUMEM_MATRIX_LDMATRIX, 1, 8, 8,
                               GPUMEM_MATRIX_F16, GPUMEM_MATRIX_F16, 1, 0),
      lanes, 0);
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    EXPECT_EQ(lanes[size_t(l)].regs()[0],
              uint32_t(m[2 * t][g]) | uint32_t(m[2 * t + 1][g]) << 16);
  }
}

// cp.async writes nothing until a wait covers its group; src-size below
// cp-size zero-fills the rest.
TEST(PTXAsyncCopies, CopiesLandAtTheirWait) {
  alignas(8) char queue[GPUMEM_ASYNC_COPY_QUEUE_BYTES] = {};
  uint32_t src[4] = {1, 2, 3, 4}, dst[4] = {9, 9, 9, 9};
  ptxAsyncCopy(nullptr, queue, &dst[0], &src[0], 4, 4);
  ptxAsyncCopyCommit(nullptr, queue);
  ptxAsyncCopy(nullptr, queue, &dst[1], &src[1], 8, 4);
  ptxAsyncCopyCommit(nullptr, queue);
  EXPECT_EQ(dst[0], 9u);
  ptxAsyncCopyWait(nullptr, queue, 1);
  EXPECT_EQ(dst[0], 1u);
  EXPECT_EQ(dst[1], 9u);
  ptxAsyncCopyWait(nullptr, queue, 0);
  EXPECT_EQ(dst[1], 2u);
  EXPECT_EQ(dst[2], 0u);
  EXPECT_EQ(dst[3], 9u);
}
