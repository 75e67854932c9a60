//===----------------------------------------------------------------------===//
// gpumem-attach-nvvm-target: validate chip, PTX version and output format
// against gpumem's chip table, LLVM's NVPTX backend and the installed ptxas,
// then attach `#nvvm.target` to every gpu.module that has none.
//
// The checks run once per module before any attribute is attached, so a bad
// combination is one located error instead of an `LLVM ERROR` in the NVPTX
// backend or a failing ptxas later in the pipeline.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CUDA/Passes.h"
#include "gpumem/Transforms/ModuleTargets.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMATTACHNVVMTARGETPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem;

namespace {

struct AttachNVVMTargetPass
    : gpumem::impl::GPUMemAttachNVVMTargetPassBase<AttachNVVMTargetPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// The feature string to attach for `target`, one of `chips` chips, or
  /// failure after a diagnostic.
  FailureOr<std::string> checkTarget(ModuleOp module, const NVIDIAChip &target,
                                     size_t chips);
};

FailureOr<std::string>
AttachNVVMTargetPass::checkTarget(ModuleOp module, const NVIDIAChip &chipInfo,
                                  size_t chips) {
  Location loc = module.getLoc();
  const NVIDIAChip *target = &chipInfo;
  StringRef chip = target->name;
  if (optLevel > 3)
    return emitError(loc) << "opt-level " << optLevel.getValue()
                          << " is out of range; expected 0 to 3";

  bool malformed = false;
  std::optional<Version10> ptx = parsePtxFeature(features, malformed);
  if (malformed)
    return emitError(loc) << "malformed PTX feature in '" << features
                          << "'; expected +ptxNN, for example +ptx80";
  std::string result = features;
  if (!ptx) {
    ptx = target->minPtx;
    result =
        (result.empty() ? "" : result + ",") + "+ptx" + std::to_string(*ptx);
  }
  if (*ptx < target->minPtx)
    return emitError(loc) << "PTX " << formatVersion(*ptx) << " cannot target "
                          << chip << ", which needs PTX "
                          << formatVersion(target->minPtx) << " or later";
  if (*ptx > kLLVMMaxPtx)
    return emitError(loc) << "PTX " << formatVersion(*ptx)
                          << " is newer than LLVM 22 emits (at most PTX "
                          << formatVersion(kLLVMMaxPtx) << ")";

  // Only bin and fatbin need ptxas.
  if (format == BinaryFormat::ISA || format == BinaryFormat::Default)
    return result;
  std::optional<CudaToolkit> toolkitFound = findCudaToolkit(toolkit);
  if (!toolkitFound)
    return emitError(loc) << "format=" << stringifyBinaryFormat(format)
                          << " needs ptxas, which was not found"
                          << (toolkit.empty()
                                  ? std::string(" in $CUDA_HOME, "
                                                "$CUDA_PATH, "
                                                "/usr/local/cuda or $PATH")
                                  : " in " + toolkit + "/bin")
                          << "; use format=isa to let the driver compile PTX";
  Version10 release = toolkitFound->release;
  if (release < target->firstCuda ||
      (target->droppedInCuda && release >= target->droppedInCuda))
    return emitError(loc) << "ptxas of CUDA " << formatVersion(release)
                          << " does not compile for " << chip
                          << "; use format=isa or another toolkit";
  if (*ptx > getMaxPtxForCuda(release))
    return emitError(loc) << "ptxas of CUDA " << formatVersion(release)
                          << " accepts PTX up to "
                          << formatVersion(getMaxPtxForCuda(release))
                          << ", not " << formatVersion(*ptx);
  // Several chips' cubins are packed into one fatbin.
  if (format == BinaryFormat::Fatbin || chips > 1) {
    llvm::SmallString<128> fatbinary(toolkitFound->root);
    llvm::sys::path::append(fatbinary, "bin", "fatbinary");
    if (!llvm::sys::fs::can_execute(fatbinary))
      return emitError(loc) << (chips > 1 ? "cubins of several chips need "
                                          : "format=fatbin needs ")
                            << fatbinary << ", which was not found";
  }
  return result;
}

/// Address spaces NVPTX knows: generic 0, global 1, shared 3, constant 4,
/// local 5, shared::cluster 7; variables live in 1, 3 or 4 (or 0, which
/// NVPTX puts in global memory). Any other reaches NVPTX's
/// `LLVM ERROR: Bad address space`, so it is a located error here.
static LogicalResult checkAddressSpaces(ModuleOp module) {
  static const int64_t variables[] = {0, 1, 3, 4};
  static const int64_t values[] = {0, 1, 3, 4, 5, 7};
  return gpumem::checkMemorySpaces(
      module, {variables, "global 1, shared 3, constant 4", values,
               "generic 0, global 1, shared 3, constant 4, local 5, "
               "shared::cluster 7",
               "NVIDIA GPUs"});
}

void AttachNVVMTargetPass::runOnOperation() {
  ModuleOp module = getOperation();
  NVIDIAChipList chips = parseNVIDIAChipList(chip);
  if (chips.chips.empty()) {
    emitError(module.getLoc()) << "unknown NVIDIA chip '" << chips.unknown
                               << "'; gpumem knows " << listNVIDIAChips();
    return signalPassFailure();
  }
  if (chips.chips.size() > 1 && format == BinaryFormat::Fatbin) {
    emitError(module.getLoc())
        << "format=fatbin is for one chip; with several (" << chips.names()
        << ") format=bin packs their cubins and PTX into one fatbin";
    return signalPassFailure();
  }
  SmallVector<std::string> checkedFeatures;
  for (const NVIDIAChip *target : chips.chips) {
    FailureOr<std::string> features =
        checkTarget(module, *target, chips.chips.size());
    if (failed(features))
      return signalPassFailure();
    checkedFeatures.push_back(*features);
  }

  if (failed(checkAddressSpaces(module)) ||
      failed(gpumem::refuseForeignDeviceCode(module, {"rocdl", "amdgpu"}, "AMD",
                                             "cuda")))
    return signalPassFailure();
  // One target per chip, oldest first: gpu-module-to-binary makes an
  // object for each, and without ptxas the first (the oldest chip's PTX,
  // which the driver compiles for newer chips too) is the one embedded.
  SmallVector<Attribute> targets;
  for (auto [target, features] : llvm::zip(chips.chips, checkedFeatures))
    targets.push_back(NVVM::NVVMTargetAttr::get(&getContext(), optLevel,
                                                "nvptx64-nvidia-cuda",
                                                target->name, features));
  // A module that targets another GPU too would be lowered to NVVM and
  // then serialized for that GPU as well, whose backend cannot compile it.
  if (failed(gpumem::attachOwnTargets(module, targets, "cuda")))
    signalPassFailure();
}

} // namespace
