//===----------------------------------------------------------------------===//
// The AMD chip table. Sources: LLVM's AMDGPUUsage (processors, wavefront
// sizes, LDS per workgroup), AMDGPUBaseInfo (register files per SIMD), the
// CDNA3 and CDNA4 ISA guides (gfx950's 160 KiB of LDS). Occupancy follows
// AMDGPUBaseInfo's rules: VGPRs are allocated in granules per wave from
// the SIMD's file, SGPRs limit waves on gfx9 only, and a CU's LDS (a
// WGP's, 128 KiB, on gfx10 and later) is shared by the workgroups on it.
// The toolkit search looks where ROCm and Debian install the device
// libraries and ld.lld.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Support/ChipList.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>

using namespace gpumem;

#define WAVE64 "+wavefrontsize64"
#define WAVE32 "+wavefrontsize32"

static const AMDGPUChip kChips[] = {
    // name  wave wave32? LDS per workgroup | VGPRs per SIMD lane, SGPRs per
    // SIMD, features
    {"gfx900", 64, false, 65536, 256, 800, WAVE64},  // Vega 10
    {"gfx906", 64, false, 65536, 256, 800, WAVE64},  // Vega 20, MI50/60
    {"gfx908", 64, false, 65536, 256, 800, WAVE64},  // MI100 (+256 AGPRs)
    {"gfx90a", 64, false, 65536, 512, 800, WAVE64},  // MI200, unified
    {"gfx942", 64, false, 65536, 512, 800, WAVE64},  // MI300
    {"gfx950", 64, false, 163840, 512, 800, WAVE64}, // MI350
    {"gfx1030", 32, true, 65536, 1024, 0, WAVE32},   // RDNA2
    {"gfx1100", 32, true, 65536, 1536, 0, WAVE32},   // RDNA3, 1.5x VGPRs
};

#undef WAVE64
#undef WAVE32

llvm::ArrayRef<AMDGPUChip> gpumem::getAMDGPUChips() { return kChips; }

const AMDGPUChip *gpumem::lookupAMDGPUChip(llvm::StringRef name) {
  const AMDGPUChip *it = llvm::find_if(
      kChips, [&](const AMDGPUChip &chip) { return chip.name == name; });
  return it == std::end(kChips) ? nullptr : it;
}

std::string gpumem::listAMDGPUChips() {
  return llvm::join(
      llvm::map_range(kChips,
                      [](const AMDGPUChip &chip) { return chip.name.str(); }),
      ", ");
}

gpumem::AMDGPUChipList gpumem::parseAMDGPUChipList(llvm::StringRef list) {
  AMDGPUChipList result;
  result.chips = parseChipList<AMDGPUChip>(list, kChips, result.unknown);
  return result;
}

std::string gpumem::AMDGPUChipList::names() const {
  return joinChipNames<AMDGPUChip>(chips);
}

unsigned gpumem::AMDGPUChipList::commonWavefrontSize() const {
  unsigned lanes = 0;
  for (const AMDGPUChip *chip : chips) {
    if (lanes && lanes != chip->defaultWavefrontSize)
      return 0;
    lanes = chip->defaultWavefrontSize;
  }
  return lanes;
}

llvm::StringRef gpumem::getWavefrontSizeFeature(unsigned lanes) {
  return lanes == 32 ? "+wavefrontsize32" : "+wavefrontsize64";
}

//===----------------------------------------------------------------------===//
// Occupancy
//===----------------------------------------------------------------------===//

unsigned AMDGPUOccupancy::waves() const {
  unsigned waves = std::min({maxWaves, byVGPRs, bySGPRs});
  return byLDS ? std::min(waves, byLDS) : waves;
}

AMDGPUOccupancy gpumem::getAMDGPUOccupancy(const AMDGPUChip &chip,
                                           unsigned wavefrontSize,
                                           unsigned vgprs, unsigned sgprs,
                                           uint64_t ldsBytes,
                                           uint64_t threads) {
  AMDGPUOccupancy occupancy;
  // VGPR file per SIMD lane and allocation granule (getTotalNumVGPRs and
  // getVGPRAllocGranule): gfx9 has 256 (512 unified with AGPRs on gfx90a
  // and later, granule 8); gfx10.3 1024 in wave32, granule 16; gfx11 with
  // 1.5x VGPRs 1536, granule 24; wave64 halves both on gfx10 and later.
  unsigned total = chip.vgprsPerSIMDLane, granule = 4;
  if (!chip.supportsWave32) {
    bool unified = chip.vgprsPerSIMDLane == 512;
    occupancy.maxWaves = unified ? 8 : 10;
    granule = unified ? 8 : 4;
  } else {
    occupancy.maxWaves = 16;
    granule = chip.vgprsPerSIMDLane == 1536 ? 24 : 16;
    if (wavefrontSize == 64) {
      total /= 2;
      granule /= 2;
    }
  }
  uint64_t allocated = llvm::alignTo(std::max(1u, vgprs), granule);
  occupancy.byVGPRs = std::min<uint64_t>(occupancy.maxWaves, total / allocated);
  // SGPRs (GCNSubtarget::getOccupancyWithNumSGPRs): 800 per SIMD on gfx9,
  // `sgprs` already counting VCC, flat scratch and XNACK.
  if (!chip.supportsWave32) {
    unsigned bySGPRs = sgprs <= 80    ? 10
                       : sgprs <= 88  ? 9
                       : sgprs <= 100 ? 8
                                      : 7;
    occupancy.bySGPRs = std::min(occupancy.maxWaves, bySGPRs);
  } else {
    occupancy.bySGPRs = occupancy.maxWaves;
  }
  // LDS: the workgroups a CU (gfx9) or WGP (gfx10 and later, twice a
  // workgroup's limit) holds, their waves spread over its 4 SIMDs.
  if (threads) {
    uint64_t ldsPerCU = chip.supportsWave32 ? 2 * chip.ldsBytesPerWorkgroup
                                            : chip.ldsBytesPerWorkgroup;
    uint64_t groups = ldsBytes ? ldsPerCU / ldsBytes : 0;
    uint64_t wavesPerGroup = llvm::divideCeil(threads, wavefrontSize);
    occupancy.byLDS =
        ldsBytes == 0
            ? occupancy.maxWaves
            : std::min<uint64_t>(occupancy.maxWaves,
                                 llvm::divideCeil(groups * wavesPerGroup, 4));
  }
  return occupancy;
}

//===----------------------------------------------------------------------===//
// Device libraries and ld.lld
//===----------------------------------------------------------------------===//

static bool hasDeviceLibs(llvm::StringRef toolkit) {
  llvm::SmallString<256> ocml(toolkit);
  llvm::sys::path::append(ocml, "amdgcn", "bitcode", "ocml.bc");
  return llvm::sys::fs::is_regular_file(ocml);
}

std::optional<std::string> gpumem::findROCmDeviceLibs(llvm::StringRef hint) {
  if (!hint.empty())
    return hasDeviceLibs(hint) ? std::optional<std::string>(hint.str())
                               : std::nullopt;
  llvm::SmallVector<std::string> candidates;
  if (std::optional<std::string> rocm = llvm::sys::Process::GetEnv("ROCM_PATH"))
    candidates.push_back(*rocm);
  // Debian's multiarch directory, /usr/lib/x86_64-linux-gnu on amd64.
  llvm::Triple host(llvm::sys::getProcessTriple());
  candidates.push_back(("/usr/lib/" + host.getArchName() + "-linux-gnu").str());
  candidates.push_back("/opt/rocm");
  for (const std::string &candidate : candidates)
    if (hasDeviceLibs(candidate))
      return candidate;
  return std::nullopt;
}

std::optional<std::string> gpumem::findLdLld(llvm::StringRef toolkit) {
  if (!toolkit.empty()) {
    llvm::SmallString<256> path(toolkit);
    llvm::sys::path::append(path, "llvm", "bin", "ld.lld");
    if (llvm::sys::fs::can_execute(path))
      return path.str().str();
  }
#ifdef GPUMEM_LLVM_TOOLS_DIR
  llvm::SmallString<256> path(GPUMEM_LLVM_TOOLS_DIR);
  llvm::sys::path::append(path, "ld.lld");
  if (llvm::sys::fs::can_execute(path))
    return path.str().str();
#endif
  for (const char *name : {"ld.lld-22", "ld.lld"})
    if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(name))
      return *found;
  return std::nullopt;
}
