//===----------------------------------------------------------------------===//
// The AMD chip table.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/AMDGPUTarget.h"

#include "gtest/gtest.h"

using namespace gpumem;

TEST(AMDGPUChips, TableIsConsistent) {
  llvm::ArrayRef<AMDGPUChip> chips = getAMDGPUChips();
  ASSERT_FALSE(chips.empty());
  for (const AMDGPUChip &chip : chips) {
    EXPECT_TRUE(chip.name.starts_with("gfx")) << chip.name.str();
    EXPECT_TRUE(chip.defaultWavefrontSize == 32 ||
                chip.defaultWavefrontSize == 64)
        << chip.name.str();
    // Only wave32-capable chips default to it.
    if (chip.defaultWavefrontSize == 32) {
      EXPECT_TRUE(chip.supportsWave32) << chip.name.str();
    }
    EXPECT_EQ(chip.features, getWavefrontSizeFeature(chip.defaultWavefrontSize))
        << chip.name.str();
    EXPECT_GE(chip.ldsBytesPerWorkgroup, 65536u) << chip.name.str();
    EXPECT_GE(chip.vgprsPerSIMDLane, 256u) << chip.name.str();
  }
}

TEST(AMDGPUChips, KnownLimits) {
  for (llvm::StringRef name : {"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942",
                               "gfx950", "gfx1030", "gfx1100"})
    ASSERT_NE(lookupAMDGPUChip(name), nullptr) << name.str();
  EXPECT_EQ(lookupAMDGPUChip("gfx90a")->defaultWavefrontSize, 64u);
  EXPECT_EQ(lookupAMDGPUChip("gfx942")->defaultWavefrontSize, 64u);
  EXPECT_EQ(lookupAMDGPUChip("gfx1030")->defaultWavefrontSize, 32u);
  EXPECT_EQ(lookupAMDGPUChip("gfx1100")->defaultWavefrontSize, 32u);
  EXPECT_FALSE(lookupAMDGPUChip("gfx90a")->supportsWave32);
  EXPECT_TRUE(lookupAMDGPUChip("gfx1100")->supportsWave32);
  EXPECT_EQ(lookupAMDGPUChip("gfx90a")->ldsBytesPerWorkgroup, 65536u);
  EXPECT_EQ(lookupAMDGPUChip("gfx1100")->ldsBytesPerWorkgroup, 65536u);
  EXPECT_EQ(lookupAMDGPUChip("gfx950")->ldsBytesPerWorkgroup, 163840u);
  EXPECT_EQ(lookupAMDGPUChip("gfx90a")->features, "+wavefrontsize64");
  EXPECT_EQ(lookupAMDGPUChip("gfx1100")->features, "+wavefrontsize32");
  EXPECT_EQ(lookupAMDGPUChip("sm_90"), nullptr);
  EXPECT_EQ(lookupAMDGPUChip("gfx9"), nullptr);
  EXPECT_EQ(lookupAMDGPUChip(""), nullptr);
  EXPECT_EQ(listAMDGPUChips(), "gfx900, gfx906, gfx908, gfx90a, gfx942, "
                               "gfx950, gfx1030, gfx1100");
}
