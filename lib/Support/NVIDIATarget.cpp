//===----------------------------------------------------------------------===//
// The NVIDIA chip table and CUDA toolkit discovery. The toolkit's release is
// read from `ptxas --version` once per path and cached.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Support/ChipList.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <map>
#include <mutex>

using namespace gpumem;

static const NVIDIAChip kChips[] = {
    // name  minPtx firstCuda dropped static per-block-max | per SM: shared,
    // reserved per block, allocation unit, blocks, threads (CUDA C++
    // Programming Guide, compute capability tables; occupancy calculator)
    {"sm_70", 60, 90, 130, 49152, 98304, 98304, 0, 256, 32, 2048},
    {"sm_72", 61, 91, 130, 49152, 98304, 98304, 0, 256, 32, 2048},
    {"sm_75", 63, 100, 0, 49152, 65536, 65536, 0, 256, 16, 1024},
    {"sm_80", 70, 110, 0, 49152, 166912, 167936, 1024, 128, 32, 2048},
    {"sm_86", 71, 111, 0, 49152, 101376, 102400, 1024, 128, 16, 1536},
    {"sm_87", 74, 114, 0, 49152, 166912, 167936, 1024, 128, 16, 1536},
    {"sm_89", 78, 118, 0, 49152, 101376, 102400, 1024, 128, 24, 1536},
    {"sm_90", 78, 118, 0, 49152, 232448, 233472, 1024, 128, 32, 2048},
    {"sm_90a", 80, 120, 0, 49152, 232448, 233472, 1024, 128, 32, 2048},
    {"sm_100", 86, 128, 0, 49152, 232448, 233472, 1024, 128, 32, 2048},
    {"sm_100a", 86, 128, 0, 49152, 232448, 233472, 1024, 128, 32, 2048},
    {"sm_120", 87, 128, 0, 49152, 101376, 102400, 1024, 128, 32, 1536},
    {"sm_120a", 87, 128, 0, 49152, 101376, 102400, 1024, 128, 32, 1536},
};

llvm::ArrayRef<NVIDIAChip> gpumem::getNVIDIAChips() { return kChips; }

const NVIDIAChip *gpumem::lookupNVIDIAChip(llvm::StringRef name) {
  const NVIDIAChip *it = llvm::find_if(
      kChips, [&](const NVIDIAChip &chip) { return chip.name == name; });
  return it == std::end(kChips) ? nullptr : it;
}

gpumem::NVIDIAChipList gpumem::parseNVIDIAChipList(llvm::StringRef list) {
  NVIDIAChipList result;
  result.chips = parseChipList<NVIDIAChip>(list, kChips, result.unknown);
  return result;
}

std::string gpumem::NVIDIAChipList::names() const {
  return joinChipNames<NVIDIAChip>(chips);
}

unsigned NVIDIAOccupancy::blocks() const {
  return std::min({blocksBySharedMemory, blocksByThreads, blocksBySMLimit,
                   blocksByRegisters});
}

NVIDIAOccupancy gpumem::getNVIDIAOccupancy(const NVIDIAChip &chip,
                                           uint64_t sharedBytes,
                                           uint64_t threadsPerBlock,
                                           unsigned registersPerThread) {
  NVIDIAOccupancy occupancy;
  occupancy.blocksBySMLimit = chip.maxBlocksPerSM;
  occupancy.blocksBySharedMemory = chip.maxBlocksPerSM;
  if (sharedBytes)
    occupancy.blocksBySharedMemory =
        unsigned(chip.sharedBytesPerSM /
                 llvm::alignTo(sharedBytes + chip.reservedSharedBytesPerBlock,
                               chip.sharedAllocationUnit));
  occupancy.blocksByThreads =
      threadsPerBlock ? unsigned(chip.maxThreadsPerSM / threadsPerBlock)
                      : chip.maxBlocksPerSM;
  occupancy.blocksByRegisters = chip.maxBlocksPerSM;
  if (threadsPerBlock && registersPerThread) {
    constexpr uint64_t kRegistersPerSM = 65536, kWarp = 32, kUnit = 256;
    uint64_t perWarp = llvm::alignTo(registersPerThread * kWarp, kUnit);
    uint64_t warpsPerBlock = llvm::divideCeil(threadsPerBlock, kWarp);
    occupancy.blocksByRegisters =
        unsigned(kRegistersPerSM / perWarp / warpsPerBlock);
  }
  return occupancy;
}

std::string gpumem::listNVIDIAChips() {
  return llvm::join(
      llvm::map_range(kChips,
                      [](const NVIDIAChip &chip) { return chip.name.str(); }),
      ", ");
}

Version10 gpumem::getMaxPtxForCuda(Version10 cuda) {
  unsigned major = cuda / 10, minor = cuda % 10;
  if (major < 9)
    return 50;
  if (major == 9)
    return 60 + minor;
  if (major == 10)
    return 63 + minor;
  if (major == 11)
    return 70 + minor;
  if (major == 12) {
    // 12.0-12.5 add one PTX minor each; 12.6 stays at 8.5; 12.8 is 8.7.
    if (minor <= 5)
      return 80 + minor;
    if (minor <= 7)
      return 85;
    return 79 + minor;
  }
  // CUDA 13.x accepts PTX 9.x.
  return 90 + minor;
}

std::optional<Version10> gpumem::parsePtxFeature(llvm::StringRef features,
                                                 bool &malformed) {
  malformed = false;
  llvm::SmallVector<llvm::StringRef> entries;
  features.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::optional<Version10> result;
  for (llvm::StringRef entry : entries) {
    entry = entry.trim();
    // Every LLVM target feature is +name or -name: "ptx80" alone would be
    // ignored by LLVM, silently.
    if (!entry.starts_with("+") && !entry.starts_with("-")) {
      malformed = true;
      return std::nullopt;
    }
    if (!entry.consume_front("+ptx"))
      continue;
    // PTX versions are M.m, two digits: "+ptx8" is not PTX 0.8.
    unsigned value;
    if (entry.size() != 2 || entry.getAsInteger(10, value)) {
      malformed = true;
      return std::nullopt;
    }
    result = value;
  }
  return result;
}

std::string gpumem::formatVersion(Version10 version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

/// Runs `ptxas --version` and reads "release M.m" from its output.
static std::optional<Version10> readPtxasRelease(llvm::StringRef ptxas) {
  llvm::SmallString<128> outputPath;
  if (llvm::sys::fs::createTemporaryFile("gpumem-ptxas", "txt", outputPath))
    return std::nullopt;
  llvm::FileRemover remover(outputPath);
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(outputPath), llvm::StringRef(outputPath)};
  llvm::StringRef args[] = {ptxas, "--version"};
  if (llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                /*SecondsToWait=*/30) != 0)
    return std::nullopt;
  auto buffer = llvm::MemoryBuffer::getFile(outputPath);
  if (!buffer)
    return std::nullopt;
  llvm::StringRef text = (*buffer)->getBuffer();
  size_t at = text.find("release ");
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef version = text.substr(at + 8).take_until(
      [](char c) { return c == ',' || c == '\n' || c == ' '; });
  auto [majorText, minorText] = version.split('.');
  unsigned major, minor = 0;
  if (majorText.getAsInteger(10, major) ||
      (!minorText.empty() && minorText.getAsInteger(10, minor)))
    return std::nullopt;
  return major * 10 + minor;
}

static std::optional<CudaToolkit> probePtxas(llvm::StringRef ptxas) {
  static std::mutex mutex;
  static std::map<std::string, std::optional<CudaToolkit>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = cache.try_emplace(ptxas.str());
  if (!inserted)
    return it->second;
  if (!llvm::sys::fs::can_execute(ptxas))
    return std::nullopt;
  std::optional<Version10> release = readPtxasRelease(ptxas);
  if (!release)
    return std::nullopt;
  CudaToolkit toolkit;
  toolkit.ptxas = ptxas.str();
  toolkit.root =
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(toolkit.ptxas))
          .str();
  toolkit.release = *release;
  it->second = toolkit;
  return toolkit;
}

static std::optional<CudaToolkit> probeRoot(llvm::StringRef root) {
  llvm::SmallString<128> ptxas(root);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  return probePtxas(ptxas);
}

std::optional<CudaToolkit> gpumem::findCudaToolkit(llvm::StringRef hint) {
  if (!hint.empty())
    return probeRoot(hint);
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> root = llvm::sys::Process::GetEnv(variable))
      if (std::optional<CudaToolkit> toolkit = probeRoot(*root))
        return toolkit;
  if (std::optional<CudaToolkit> toolkit = probeRoot("/usr/local/cuda"))
    return toolkit;
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas"))
    return probePtxas(*ptxas);
  return std::nullopt;
}
