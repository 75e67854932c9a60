//===----------------------------------------------------------------------===//
// The AMD chip table.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Runtime/OffloadBundle.h"

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

TEST(AMDGPUChips, ListsAreInTableOrderAndShareAWavefrontSize) {
  AMDGPUChipList list = parseAMDGPUChipList("gfx942, gfx90a,gfx942");
  EXPECT_EQ(list.names(), "gfx90a,gfx942");
  EXPECT_EQ(list.commonWavefrontSize(), 64u);
  EXPECT_EQ(parseAMDGPUChipList("gfx1100,gfx1030").commonWavefrontSize(), 32u);
  EXPECT_EQ(parseAMDGPUChipList("gfx1100,gfx90a").commonWavefrontSize(), 0u);
  AMDGPUChipList unknown = parseAMDGPUChipList("gfx90a,gfx999");
  EXPECT_TRUE(unknown.chips.empty());
  EXPECT_EQ(unknown.unknown, "gfx999");
}

TEST(OffloadBundle, WritesWhatItReads) {
  std::vector<bundle::Entry> entries = {
      {bundle::kHostId, ""},
      {"hipv4-amdgcn-amd-amdhsa--gfx90a", "first"},
      {"hipv4-amdgcn-amd-amdhsa--gfx942", "second"}};
  std::string bytes = bundle::write(entries);
  ASSERT_TRUE(bundle::isBundle(bytes.data(), bytes.size()));
  std::string error;
  std::vector<bundle::Entry> read =
      bundle::read(bytes.data(), bytes.size(), error);
  ASSERT_EQ(read.size(), 3u) << error;
  EXPECT_EQ(read[0].id, bundle::kHostId);
  EXPECT_TRUE(read[0].bytes.empty());
  EXPECT_EQ(read[2].id, "hipv4-amdgcn-amd-amdhsa--gfx942");
  EXPECT_EQ(read[2].bytes, "second");
  // Code objects start on 4096-byte boundaries, as clang's bundler puts them.
  EXPECT_EQ((read[1].bytes.data() - bytes.data()) % bundle::kAlignment, 0);
  EXPECT_EQ(bundle::amdgpuTargetId(read[1].id), "gfx90a");
  EXPECT_EQ(bundle::amdgpuTargetId(read[0].id), "");
  EXPECT_TRUE(bundle::read(bytes.data(), 40, error).empty());
  EXPECT_EQ(error, "offload bundle entry 0 lies outside its 40 bytes");
}

TEST(OffloadBundle, TargetIdsRunOnDevicesOfTheirChip) {
  EXPECT_TRUE(bundle::runsOn("gfx90a", "gfx90a:sramecc+:xnack-"));
  EXPECT_TRUE(bundle::runsOn("gfx90a:xnack-", "gfx90a:sramecc+:xnack-"));
  EXPECT_FALSE(bundle::runsOn("gfx90a:xnack+", "gfx90a:sramecc+:xnack-"));
  EXPECT_TRUE(bundle::runsOn("gfx90a:xnack+", "gfx90a"));
  EXPECT_FALSE(bundle::runsOn("gfx90a", "gfx942:sramecc+:xnack-"));
  EXPECT_FALSE(bundle::runsOn("gfx90", "gfx90a"));
}
