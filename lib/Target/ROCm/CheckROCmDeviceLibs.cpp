//===----------------------------------------------------------------------===//
// gpumem-check-rocm-device-libs: the ROCm device libraries a ROCDL-lowered
// gpu.module calls are installed and know its chip, before
// gpu-module-to-binary links them.
//
// Algorithm, per gpu.module with a #rocdl.target:
//  1. Collect the bitcode files its external llvm.func declarations need,
//     by upstream's rule (mlir/lib/Target/LLVM/ROCDL/Target.cpp,
//     handleModulePreLink): `__ocml_*` needs ocml.bc, `__ockl_*` ockl.bc,
//     `printf` ocml, ockl and opencl, `__atomic_work_item_fence` hip.bc;
//     the first llvm.call of one of them is where a failure is reported.
//  2. When any is needed: find the toolkit (the option, else the search of
//     findROCmDeviceLibs), then check each needed file and each target
//     chip's oclc_isa_version_<N>.bc, whose absence says that the installed
//     release predates the chip. Upstream links the libraries with
//     control variables of its own and would link a release that does not
//     know the chip without a word.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Target/ROCm/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#define DEBUG_TYPE "gpumem-check-rocm-device-libs"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCHECKROCMDEVICELIBSPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// The bitcode files a declaration named `name` needs (upstream's rule).
void addNeededFiles(StringRef name, llvm::SetVector<StringRef> &files) {
  if (name == "printf") {
    files.insert("ocml.bc");
    files.insert("ockl.bc");
    files.insert("opencl.bc");
  } else if (name.starts_with("__ocml_")) {
    files.insert("ocml.bc");
  } else if (name.starts_with("__ockl_")) {
    files.insert("ockl.bc");
  } else if (name == "__atomic_work_item_fence") {
    files.insert("hip.bc");
  }
}

struct CheckROCmDeviceLibsPass
    : gpumem::impl::GPUMemCheckROCmDeviceLibsPassBase<CheckROCmDeviceLibsPass> {
  using Base::Base;
  void runOnOperation() override;
};

void CheckROCmDeviceLibsPass::runOnOperation() {
  gpu::GPUModuleOp module = getOperation();
  SmallVector<ROCDL::ROCDLTargetAttr> targets;
  if (ArrayAttr attributes = module.getTargetsAttr())
    for (Attribute attribute : attributes)
      if (auto target = dyn_cast<ROCDL::ROCDLTargetAttr>(attribute))
        targets.push_back(target);
  if (targets.empty())
    return;

  llvm::SetVector<StringRef> files;
  StringRef firstFunction;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!function.isExternal())
      continue;
    size_t before = files.size();
    addNeededFiles(function.getName(), files);
    if (files.size() != before && firstFunction.empty())
      firstFunction = function.getName();
  }
  if (files.empty())
    return;
  // Report at the first call of a library function: the user's op.
  Operation *at = module;
  module.walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    llvm::SetVector<StringRef> needed;
    if (callee)
      addNeededFiles(*callee, needed);
    if (needed.empty())
      return WalkResult::advance();
    at = call;
    firstFunction = *callee;
    return WalkResult::interrupt();
  });
  LLVM_DEBUG(llvm::dbgs() << "@" << module.getName() << " calls "
                          << firstFunction << ": needs " << files.size()
                          << " device libraries\n");

  std::optional<std::string> found = gpumem::findROCmDeviceLibs(toolkit);
  if (!found) {
    InFlightDiagnostic diagnostic =
        at->emitError() << "'" << firstFunction
                        << "' comes from the ROCm device libraries, which "
                           "are not installed: no amdgcn/bitcode/ocml.bc in ";
    if (!toolkit.empty())
      diagnostic << "'" << toolkit << "'";
    else
      diagnostic << "$ROCM_PATH, /usr/lib/<multiarch> or /opt/rocm";
    diagnostic << " (Debian package " << gpumem::kROCmDeviceLibsPackage << ")";
    return signalPassFailure();
  }
  llvm::SmallString<256> directory(*found);
  llvm::sys::path::append(directory, "amdgcn", "bitcode");
  for (StringRef file : files) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, file);
    if (llvm::sys::fs::is_regular_file(path))
      continue;
    at->emitError() << "'" << firstFunction
                    << "' needs the ROCm device library " << file
                    << ", which is not in '" << directory
                    << "' (Debian package " << gpumem::kROCmDeviceLibsPackage
                    << ")";
    return signalPassFailure();
  }
  // Every chip the module is compiled for (one binary for several).
  for (ROCDL::ROCDLTargetAttr target : targets) {
    StringRef chip = target.getChip();
    std::string isaFile =
        ("oclc_isa_version_" + chip.drop_front(3) + ".bc").str();
    llvm::SmallString<256> isaPath(directory);
    llvm::sys::path::append(isaPath, isaFile);
    if (llvm::sys::fs::is_regular_file(isaPath))
      continue;
    at->emitError() << "'" << firstFunction
                    << "' comes from the ROCm device libraries, and those in '"
                    << directory << "' do not know " << chip << ": there is no "
                    << isaFile << " (Debian package "
                    << gpumem::kROCmDeviceLibsPackage
                    << "; a release that supports " << chip << " is needed)";
    return signalPassFailure();
  }
}

} // namespace
