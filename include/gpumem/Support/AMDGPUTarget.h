//===----------------------------------------------------------------------===//
// What gpumem knows about AMD GPUs: one table of chips (gfx targets) with
// their wavefront size, the local data share (LDS, workgroup memory) a
// workgroup may use, the registers of a SIMD, and the LLVM features the
// rocm target compiles them with.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_SUPPORT_AMDGPUTARGET_H
#define GPUMEM_SUPPORT_AMDGPUTARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace gpumem {

/// One AMD chip (an LLVM AMDGPU processor, `gfxNNN`).
struct AMDGPUChip {
  llvm::StringLiteral name;
  /// Lanes of a wavefront when nothing else is asked: 64 on gfx9 (CDNA and
  /// GCN), 32 on gfx10 and gfx11 (RDNA), which can also run wave64.
  unsigned defaultWavefrontSize;
  /// Whether the chip can run wave32 (gfx10 and later).
  bool supportsWave32;
  /// LDS one workgroup may use, static and dynamic together.
  uint64_t ldsBytesPerWorkgroup;
  /// Vector registers of one SIMD lane in the default wavefront size (the
  /// register file a wave's VGPRs are allocated from; gfx90a and later
  /// count the accumulation registers in it). One wave addresses 256 (512
  /// with AGPRs on gfx90a and later) at most.
  unsigned vgprsPerSIMDLane;
  /// Scalar registers of one SIMD, or 0 where they do not limit how many
  /// waves fit (gfx10 and later give every wave its own).
  unsigned sgprsPerSIMD;
  /// LLVM target features of the default wavefront size.
  llvm::StringLiteral features;
};

/// Every chip gpumem targets, oldest first.
llvm::ArrayRef<AMDGPUChip> getAMDGPUChips();

/// The chip named `name` (for example "gfx90a"), or null.
const AMDGPUChip *lookupAMDGPUChip(llvm::StringRef name);

/// The chip names, comma separated, for diagnostics.
std::string listAMDGPUChips();

/// LLVM's feature that selects a wavefront size of `lanes` (32 or 64).
llvm::StringRef getWavefrontSizeFeature(unsigned lanes);

} // namespace gpumem

#endif // GPUMEM_SUPPORT_AMDGPUTARGET_H
