//===----------------------------------------------------------------------===//
// An LLVM pass of the cpu target: workgroup (arena) accesses of a compiled
// run_blocks function are marked as not aliasing its other accesses
// (ArenaAliasScopes.cpp says how).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CPU_ARENAALIASSCOPES_H
#define GPUMEM_LIB_TARGET_CPU_ARENAALIASSCOPES_H

#include "llvm/IR/PassManager.h"

namespace gpumem::cpu {

struct ArenaAliasScopesPass : llvm::PassInfoMixin<ArenaAliasScopesPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
};

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_ARENAALIASSCOPES_H
