//===----------------------------------------------------------------------===//
// Host CPU names, checked against the CPU table of this machine's LLVM
// target through an MCSubtargetInfo made for the generic CPU (made for the
// name itself, LLVM would print a warning for an unknown one).
//===----------------------------------------------------------------------===//

#include "gpumem/Support/HostCPU.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

bool gpumem::isKnownHostCPU(llvm::StringRef cpu) {
  if (cpu.empty())
    return true;
  llvm::InitializeNativeTarget();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return false;
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  return info && info->isCPUStringValid(cpu);
}
