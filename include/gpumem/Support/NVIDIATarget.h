//===----------------------------------------------------------------------===//
// What gpumem knows about NVIDIA chips and the CUDA toolkit: one table of
// chips (minimum PTX ISA, first and last CUDA release that compiles for it,
// shared memory limits) and the discovery of ptxas and its release.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_SUPPORT_NVIDIATARGET_H
#define GPUMEM_SUPPORT_NVIDIATARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gpumem {

/// A CUDA release or PTX ISA version written as major * 10 + minor
/// (CUDA 12.8 is 128, PTX 7.8 is 78).
using Version10 = unsigned;

/// One NVIDIA chip (an `sm_XY` compute capability).
struct NVIDIAChip {
  llvm::StringLiteral name;
  /// Lowest PTX ISA version that can target this chip (LLVM's NVPTX rule).
  Version10 minPtx;
  /// First CUDA release whose ptxas compiles for this chip.
  Version10 firstCuda;
  /// First CUDA release whose ptxas no longer does, or 0.
  Version10 droppedInCuda;
  /// Static shared memory a kernel may declare without opting in.
  uint64_t staticSharedBytes;
  /// Shared memory one block may use after opting in with
  /// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
  uint64_t maxSharedBytesPerBlock;
  /// Shared memory of one streaming multiprocessor (SM).
  uint64_t sharedBytesPerSM;
  /// Shared memory the CUDA runtime reserves for each resident block.
  uint64_t reservedSharedBytesPerBlock;
  /// Granule in which a block's shared memory is allocated on an SM.
  uint64_t sharedAllocationUnit;
  /// Resident blocks and threads of one SM at most.
  unsigned maxBlocksPerSM;
  unsigned maxThreadsPerSM;
};

/// Blocks of `chip` that fit on one SM at once when each uses `sharedBytes`
/// of shared memory and, when not 0, `threadsPerBlock` threads and
/// `registersPerThread` registers each (both needed for registers to
/// count; every chip here has 64K 32-bit registers per SM, allocated per
/// warp in units of 256).
struct NVIDIAOccupancy {
  unsigned blocksBySharedMemory;
  unsigned blocksByThreads;
  unsigned blocksBySMLimit;
  unsigned blocksByRegisters;
  /// The smallest of the four.
  unsigned blocks() const;
};
NVIDIAOccupancy getNVIDIAOccupancy(const NVIDIAChip &chip, uint64_t sharedBytes,
                                   uint64_t threadsPerBlock,
                                   unsigned registersPerThread = 0);

/// Every chip gpumem targets, oldest first.
llvm::ArrayRef<NVIDIAChip> getNVIDIAChips();

/// The chip named `name` (for example "sm_90"), or null.
const NVIDIAChip *lookupNVIDIAChip(llvm::StringRef name);

/// The chip names, comma separated, for diagnostics.
std::string listNVIDIAChips();

/// The chips a comma-separated list names ("sm_80,sm_90", or one chip),
/// oldest first and each once, or, when one is not in the table, its name in
/// `unknown` and no chips.
struct NVIDIAChipList {
  llvm::SmallVector<const NVIDIAChip *> chips;
  std::string unknown;
  /// The names, oldest first, comma separated: "sm_80,sm_90".
  std::string names() const;
};
NVIDIAChipList parseNVIDIAChipList(llvm::StringRef list);

/// The highest PTX ISA version the linked LLVM's NVPTX backend emits.
constexpr Version10 kLLVMMaxPtx = 90;

/// The highest PTX ISA version a CUDA release's ptxas accepts.
Version10 getMaxPtxForCuda(Version10 cuda);

/// The PTX version named by a `+ptxNN` entry of a feature string, or
/// std::nullopt when there is none. Sets `malformed` for a `+ptx` entry
/// that is not followed by digits.
std::optional<Version10> parsePtxFeature(llvm::StringRef features,
                                         bool &malformed);

/// Formats a Version10 as "M.m".
std::string formatVersion(Version10 version);

/// A CUDA toolkit found on this machine.
struct CudaToolkit {
  /// The toolkit root: ptxas is `root/bin/ptxas`.
  std::string root;
  std::string ptxas;
  /// The release ptxas reports (130 for CUDA 13.0).
  Version10 release = 0;
};

/// Finds ptxas: in `hint`/bin when `hint` is not empty, else in $CUDA_HOME,
/// $CUDA_PATH, /usr/local/cuda, then on $PATH. Returns std::nullopt when
/// none is found or it does not report its release.
std::optional<CudaToolkit> findCudaToolkit(llvm::StringRef hint = "");

} // namespace gpumem

#endif // GPUMEM_SUPPORT_NVIDIATARGET_H
