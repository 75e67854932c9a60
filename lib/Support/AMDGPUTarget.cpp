//===----------------------------------------------------------------------===//
// The AMD chip table. Sources: LLVM's AMDGPUUsage (processors, wavefront
// sizes, LDS per workgroup), AMDGPUBaseInfo (register files per SIMD), the
// CDNA3 and CDNA4 ISA guides (gfx950's 160 KiB of LDS).
//===----------------------------------------------------------------------===//

#include "gpumem/Support/AMDGPUTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

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

llvm::StringRef gpumem::getWavefrontSizeFeature(unsigned lanes) {
  return lanes == 32 ? "+wavefrontsize32" : "+wavefrontsize64";
}
