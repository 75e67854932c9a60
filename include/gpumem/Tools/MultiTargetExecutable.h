//===----------------------------------------------------------------------===//
// One executable for several targets (gpumem-compile --target=a,b,c): the
// host code of each target's copy of the program, linked into one LLVM
// module whose main chooses a target at start
// (include/gpumem/Runtime/TargetSelection.h says how).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TOOLS_MULTITARGETEXECUTABLE_H
#define GPUMEM_TOOLS_MULTITARGETEXECUTABLE_H

#include "gpumem/Tools/ToolSupport.h"

#include "llvm/IR/Module.h"

#include <memory>
#include <string>
#include <vector>

namespace gpumem {

/// One target's copy of the program, translated to LLVM IR.
struct TargetCopy {
  Target target;
  std::unique_ptr<llvm::Module> module;
};

/// Links `copies` into one module: each copy's symbols are renamed apart
/// ("__gpumem_<target>_"), its calls into the functions that
/// `runtimeDirectory`'s runtime library of its target exports go through
/// slots the start-up code fills, its global constructors and destructors
/// are kept for that code to run, and a new `int main(int, char **)` calls
/// gpumemRunTargetImages over the copies in their order. Every copy needs an
/// @main that takes nothing and returns nothing or i32. Failure after
/// reportToolError.
mlir::FailureOr<std::unique_ptr<llvm::Module>>
linkTargetCopies(std::vector<TargetCopy> copies,
                 const std::string &runtimeDirectory);

} // namespace gpumem

#endif // GPUMEM_TOOLS_MULTITARGETEXECUTABLE_H
