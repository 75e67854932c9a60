//===----------------------------------------------------------------------===//
// What gpumem knows about AMD GPUs: one table of chips (gfx targets) with
// their wavefront size, the local data share (LDS, workgroup memory) a
// workgroup may use, the registers of a SIMD, and the LLVM features the
// rocm target compiles them with.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_SUPPORT_AMDGPUTARGET_H
#define GPUMEM_SUPPORT_AMDGPUTARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
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

/// The chips a comma-separated list names ("gfx90a,gfx942", or one chip), in
/// the table's order and each once, or, when one is not in the table, its
/// name in `unknown` and no chips.
struct AMDGPUChipList {
  llvm::SmallVector<const AMDGPUChip *> chips;
  std::string unknown;
  /// The names in the table's order, comma separated: "gfx90a,gfx942".
  std::string names() const;
  /// The default wavefront size every chip shares, or 0 when they differ.
  unsigned commonWavefrontSize() const;
};
AMDGPUChipList parseAMDGPUChipList(llvm::StringRef list);

/// LLVM's feature that selects a wavefront size of `lanes` (32 or 64).
llvm::StringRef getWavefrontSizeFeature(unsigned lanes);

/// Waves one SIMD holds at once for a kernel, by each limit (AMD's rules
/// as LLVM's AMDGPUBaseInfo computes them; docs/rocm.md).
struct AMDGPUOccupancy {
  /// The chip's most waves per SIMD: 10 on gfx900 to gfx908, 8 on gfx90a
  /// and later gfx9, 16 on gfx10.3 and gfx11.
  unsigned maxWaves = 0;
  /// Waves the VGPRs (with AGPRs on gfx90a and later) allow.
  unsigned byVGPRs = 0;
  /// Waves the SGPRs allow (the chip's most on gfx10 and later).
  unsigned bySGPRs = 0;
  /// Waves the LDS allows, or 0 when the block size is not known.
  unsigned byLDS = 0;
  /// Waves per SIMD with every known limit.
  unsigned waves() const;
};

/// Occupancy of a kernel that uses `vgprs` vector registers (the code
/// object's `.vgpr_count`, which counts AGPRs on gfx90a and later), `sgprs`
/// scalar registers and `ldsBytes` of LDS, launched with `threads` per
/// workgroup (0: not known), in waves of `wavefrontSize` lanes.
AMDGPUOccupancy getAMDGPUOccupancy(const AMDGPUChip &chip,
                                   unsigned wavefrontSize, unsigned vgprs,
                                   unsigned sgprs, uint64_t ldsBytes,
                                   uint64_t threads);

/// The ROCm toolkit directory whose `amdgcn/bitcode` holds the device
/// libraries (ocml.bc, ockl.bc, oclc_*.bc): `hint` when it is not empty,
/// else the first of $ROCM_PATH, Debian's `/usr/lib/<multiarch>` (package
/// rocm-device-libs) and /opt/rocm that has them; std::nullopt if none.
std::optional<std::string> findROCmDeviceLibs(llvm::StringRef hint = "");

/// The LLVM linker that makes HSA code objects: `<toolkit>/llvm/bin/ld.lld`
/// when `toolkit` has one, else the ld.lld of the LLVM gpumem was built
/// with (Debian package lld-22), else `ld.lld-22` or `ld.lld` on $PATH.
std::optional<std::string> findLdLld(llvm::StringRef toolkit = "");

/// The Debian package that gives the device libraries, and the one that
/// gives ld.lld, for diagnostics.
inline constexpr const char *kROCmDeviceLibsPackage = "rocm-device-libs";
inline constexpr const char *kLdLldPackage = "lld-22";

} // namespace gpumem

#endif // GPUMEM_SUPPORT_AMDGPUTARGET_H
