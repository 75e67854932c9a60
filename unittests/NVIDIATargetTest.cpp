//===----------------------------------------------------------------------===//
// The NVIDIA chip table and the PTX/CUDA version rules.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"

#include "gtest/gtest.h"

using namespace gpumem;

TEST(NVIDIAChips, TableIsOrderedAndConsistent) {
  llvm::ArrayRef<NVIDIAChip> chips = getNVIDIAChips();
  ASSERT_FALSE(chips.empty());
  for (size_t i = 1; i < chips.size(); ++i) {
    EXPECT_LE(chips[i - 1].minPtx, chips[i].minPtx) << chips[i].name.str();
    EXPECT_LE(chips[i - 1].firstCuda, chips[i].firstCuda)
        << chips[i].name.str();
  }
  for (const NVIDIAChip &chip : chips) {
    EXPECT_EQ(chip.staticSharedBytes, 48u * 1024) << chip.name.str();
    EXPECT_GE(chip.maxSharedBytesPerBlock, chip.staticSharedBytes);
    EXPECT_LE(chip.minPtx, kLLVMMaxPtx);
  }
}

TEST(NVIDIAChips, KnownLimits) {
  ASSERT_NE(lookupNVIDIAChip("sm_90"), nullptr);
  EXPECT_EQ(lookupNVIDIAChip("sm_90")->maxSharedBytesPerBlock, 232448u);
  EXPECT_EQ(lookupNVIDIAChip("sm_80")->maxSharedBytesPerBlock, 166912u);
  EXPECT_EQ(lookupNVIDIAChip("sm_86")->maxSharedBytesPerBlock, 101376u);
  EXPECT_EQ(lookupNVIDIAChip("sm_89")->maxSharedBytesPerBlock, 101376u);
  EXPECT_EQ(lookupNVIDIAChip("sm_90")->minPtx, 78u);
  EXPECT_EQ(lookupNVIDIAChip("sm_70")->droppedInCuda, 130u);
  EXPECT_EQ(lookupNVIDIAChip("sm_42"), nullptr);
  EXPECT_EQ(lookupNVIDIAChip(""), nullptr);
}

TEST(NVIDIAChips, MaxPtxPerCudaRelease) {
  EXPECT_EQ(getMaxPtxForCuda(118), 78u);
  EXPECT_EQ(getMaxPtxForCuda(120), 80u);
  EXPECT_EQ(getMaxPtxForCuda(124), 84u);
  EXPECT_EQ(getMaxPtxForCuda(126), 85u);
  EXPECT_EQ(getMaxPtxForCuda(128), 87u);
  EXPECT_EQ(getMaxPtxForCuda(129), 88u);
  EXPECT_EQ(getMaxPtxForCuda(130), 90u);
}

TEST(NVIDIAChips, ParsePtxFeature) {
  bool malformed = false;
  EXPECT_EQ(parsePtxFeature("+ptx80", malformed), 80u);
  EXPECT_FALSE(malformed);
  EXPECT_EQ(parsePtxFeature("+foo,+ptx78", malformed), 78u);
  EXPECT_EQ(parsePtxFeature("", malformed), std::nullopt);
  EXPECT_FALSE(malformed);
  EXPECT_EQ(parsePtxFeature("+ptx", malformed), std::nullopt);
  EXPECT_TRUE(malformed);
  EXPECT_EQ(parsePtxFeature("+ptxabc", malformed), std::nullopt);
  EXPECT_TRUE(malformed);
  // Without a sign LLVM would ignore it; one digit is not PTX 0.8.
  EXPECT_EQ(parsePtxFeature("ptx80", malformed), std::nullopt);
  EXPECT_TRUE(malformed);
  EXPECT_EQ(parsePtxFeature("+ptx8", malformed), std::nullopt);
  EXPECT_TRUE(malformed);
  EXPECT_EQ(parsePtxFeature("+ptx800", malformed), std::nullopt);
  EXPECT_TRUE(malformed);
  EXPECT_EQ(formatVersion(78), "7.8");
}

TEST(CudaToolkit, MissingHintIsNotFound) {
  EXPECT_EQ(findCudaToolkit("/nonexistent/cuda"), std::nullopt);
}

// Occupancy as the CUDA occupancy calculator computes it: shared memory
// (plus the 1 KiB the runtime reserves per block on sm_80, in 128-byte
// units), threads, registers (per warp, in units of 256) and the SM's
// block limit, whichever allows fewest blocks.
TEST(NVIDIATarget, OccupancyCountsEachLimit) {
  const NVIDIAChip *sm80 = lookupNVIDIAChip("sm_80");
  ASSERT_NE(sm80, nullptr);
  NVIDIAOccupancy shared = getNVIDIAOccupancy(*sm80, 40000, 128);
  EXPECT_EQ(shared.blocksBySharedMemory, 4u); // 167936 / 41088
  EXPECT_EQ(shared.blocksByThreads, 16u);
  EXPECT_EQ(shared.blocksByRegisters, 32u); // not counted without registers
  EXPECT_EQ(shared.blocks(), 4u);

  NVIDIAOccupancy registers = getNVIDIAOccupancy(*sm80, 1024, 256, 40);
  EXPECT_EQ(registers.blocksBySharedMemory, 82u); // 167936 / 2048
  EXPECT_EQ(registers.blocksByThreads, 8u);
  EXPECT_EQ(registers.blocksByRegisters, 6u); // 65536 / 1280 / 8 warps
  EXPECT_EQ(registers.blocks(), 6u);

  NVIDIAOccupancy none = getNVIDIAOccupancy(*sm80, 0, 0);
  EXPECT_EQ(none.blocks(), sm80->maxBlocksPerSM);
}
