//===----------------------------------------------------------------------===//
// gpumem-attach-rocdl-target: validate the chips, wavefront size, features
// and optimization level against gpumem's AMD chip table, then attach a
// `#rocdl.target` per chip to every gpu.module that has none.
//
// Algorithm: the options are checked once, before any attribute is
// attached; several chips must share a wavefront size, since the module
// is lowered once for all of them. The options give the feature string (the
// wavefront size's LLVM feature, then the user's features) and the flags
// (`no_wave64` for wave32, which selects the wave32 device libraries). Then
// every gpu.module is walked once for memory spaces AMD GPUs lack and for
// workgroup allocations left in device code (the backend would put them in
// private scratch memory, one copy per thread); each is an error at its op.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Target/ROCm/Passes.h"
#include "gpumem/Transforms/ModuleTargets.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMATTACHROCDLTARGETPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem;

namespace {

/// What the checked options give the target attribute.
struct CheckedTarget {
  std::string features;
  unsigned wavefrontSize;
  /// The chips, in gpumem's table order (oldest first).
  SmallVector<const AMDGPUChip *> chips;
};

struct AttachROCDLTargetPass
    : gpumem::impl::GPUMemAttachROCDLTargetPassBase<AttachROCDLTargetPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  FailureOr<CheckedTarget> checkTarget(ModuleOp module);
};

FailureOr<CheckedTarget> AttachROCDLTargetPass::checkTarget(ModuleOp module) {
  Location loc = module.getLoc();
  AMDGPUChipList chips = parseAMDGPUChipList(chip);
  if (chips.chips.empty())
    return emitError(loc) << "unknown AMD chip '" << chips.unknown
                          << "'; gpumem knows " << listAMDGPUChips();
  if (optLevel > 3)
    return emitError(loc) << "opt-level " << optLevel.getValue()
                          << " is out of range; expected 0 to 3";
  // Several chips share one device lowering, so one wavefront size.
  unsigned lanes =
      wavefrontSize ? unsigned(wavefrontSize) : chips.commonWavefrontSize();
  if (!lanes) {
    InFlightDiagnostic diag = emitError(loc) << "chip=" << chips.names()
                                             << " mixes wavefront sizes (";
    llvm::interleaveComma(chips.chips, diag, [&](const AMDGPUChip *target) {
      diag << target->name << " " << target->defaultWavefrontSize;
    });
    return diag << " lanes), and one binary's code is lowered for one; "
                   "compile for 64 lanes, which every AMD chip runs "
                   "(--wavefront-size=64 for gpumem-run and gpumem-compile, "
                   "wavefront-size=64 for the pipeline and this pass), or "
                   "build a binary per wavefront size";
  }
  if (lanes != 32 && lanes != 64)
    return emitError(loc) << "wavefront-size " << lanes
                          << " is not one AMD GPUs have; expected 32 or 64";
  for (const AMDGPUChip *target : chips.chips)
    if (lanes == 32 && !target->supportsWave32)
      return emitError(loc) << target->name
                            << " runs wavefronts of 64 lanes only; wave32 "
                               "needs gfx10 or later";

  CheckedTarget checked{getWavefrontSizeFeature(lanes).str(), lanes,
                        chips.chips};
  SmallVector<StringRef> entries;
  StringRef(features).split(entries, ',', /*MaxSplit=*/-1,
                            /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    entry = entry.trim();
    // LLVM ignores a feature without a sign, silently.
    if (entry.size() < 2 || (entry[0] != '+' && entry[0] != '-'))
      return emitError(loc)
             << "malformed feature '" << entry << "' in '" << features
             << "'; expected +name or -name, for example "
                "+xnack";
    if (entry.drop_front().starts_with("wavefrontsize"))
      return emitError(loc) << "feature '" << entry
                            << "' sets the wavefront size; use "
                               "wavefront-size=32 or 64 instead";
    checked.features += "," + entry.str();
  }
  return checked;
}

/// Address spaces the AMDGPU backend knows: generic 0, global 1, region 2,
/// local (LDS) 3, constant 4, private 5, 32-bit constant 6, buffer fat
/// pointer 7, buffer resource 8, buffer strided pointer 9. Variables live
/// in global, LDS or constant memory (or generic, which is global). A
/// workgroup allocation left in device code would be private scratch
/// memory, one copy per thread.
static LogicalResult checkAddressSpaces(ModuleOp module) {
  WalkResult result = module.walk([&](gpu::GPUModuleOp gpuModule) {
    return gpuModule.walk([&](Operation *op) -> WalkResult {
      if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
          isWorkgroupMemRef(op->getResult(0).getType()))
        return op->emitOpError()
               << "allocates workgroup memory in device code, which AMD GPUs "
                  "would place in private (scratch) memory, one copy per "
                  "thread; only kernels' workgroup attributions and "
                  "workgroup memref.globals are LDS";
      return WalkResult::advance();
    });
  });
  if (result.wasInterrupted())
    return failure();
  static const int64_t variables[] = {0, 1, 3, 4};
  static const int64_t values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  return gpumem::checkMemorySpaces(
      module, {variables, "global 1, LDS 3, constant 4", values,
               "generic 0, global 1, region 2, LDS 3, constant 4, private 5, "
               "constant32 6, buffers 7 to 9",
               "AMD GPUs"});
}

/// A call in device code to a function the gpu.module only declares: the
/// code object is linked alone, with the ROCm device libraries, so nothing
/// else could define it (the AMDGPU backend aborts on some such calls, the
/// linker refuses the others). The device libraries' functions may be
/// declared and called by name.
static LogicalResult refuseExternalCalls(ModuleOp module) {
  WalkResult result = module.walk([](CallOpInterface call) {
    if (!call->getParentOfType<gpu::GPUModuleOp>())
      return WalkResult::advance();
    auto callee = dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
    if (!callee || !callee.isExternal())
      return WalkResult::advance();
    StringRef name = cast<SymbolOpInterface>(*callee).getName();
    if (name.starts_with("__ocml_") || name.starts_with("__ockl_") ||
        name.starts_with("__oclc_") || name.starts_with("llvm."))
      return WalkResult::advance();
    call->emitOpError() << "calls @" << name
                        << ", which the gpu.module declares but does not "
                           "define; AMD device code is linked with the ROCm "
                           "device libraries only (__ocml_*, __ockl_*)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// A ballot written in ROCDL has one bit per lane: the AMDGPU backend
/// cannot select one narrower than the wavefront (an i32 ballot in wave64
/// is an LLVM "Cannot select"), while a wider one is zero-extended.
static LogicalResult checkBallotWidths(ModuleOp module, unsigned lanes,
                                       StringRef chips) {
  WalkResult result = module.walk([&](ROCDL::BallotOp ballot) {
    auto type = dyn_cast<IntegerType>(ballot.getType());
    if (!type || type.getWidth() >= lanes)
      return WalkResult::advance();
    ballot.emitOpError() << "returns " << type << ", one bit for each of "
                         << type.getWidth() << " lanes, but " << chips
                         << " runs wavefronts of " << lanes
                         << " lanes here; make it i" << lanes;
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

void AttachROCDLTargetPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<CheckedTarget> checked = checkTarget(module);
  if (failed(checked))
    return signalPassFailure();
  if (failed(checkAddressSpaces(module)) ||
      failed(gpumem::refuseForeignDeviceCode(module, {"nvvm", "nvgpu"},
                                             "NVIDIA", "rocm")) ||
      failed(gpumem::refuseTensorCoreFragments(
          module, "rocm",
          "AMD's matrix cores take fragments of their own (the amdgpu "
          "dialect's mfma and wmma ops), and MLIR's ROCDL lowering has no "
          "pattern for these")) ||
      failed(refuseExternalCalls(module)) ||
      failed(checkBallotWidths(module, checked->wavefrontSize, chip)))
    return signalPassFailure();

  MLIRContext *context = &getContext();
  DictionaryAttr flags;
  if (checked->wavefrontSize == 32)
    flags = DictionaryAttr::get(
        context, {NamedAttribute(StringAttr::get(context, "no_wave64"),
                                 UnitAttr::get(context))});
  // Code object version 4: what HIP 5 (runtime/rocm's libamdhip64.so.5)
  // loads and the device libraries of ROCm 5 know (decision 122).
  // One target per chip: gpu-module-to-binary makes an object for each,
  // and gpumem-pack-amdgpu-bundle puts several in one offload bundle.
  SmallVector<Attribute> targets;
  for (const AMDGPUChip *target : checked->chips)
    targets.push_back(ROCDL::ROCDLTargetAttr::get(
        context, optLevel, "amdgcn-amd-amdhsa", target->name, checked->features,
        "400", flags));
  // A module that targets another GPU too would be lowered to ROCDL and
  // then serialized for that GPU as well, whose backend cannot compile it.
  if (failed(gpumem::attachOwnTargets(module, targets, "rocm")))
    signalPassFailure();
}

} // namespace
