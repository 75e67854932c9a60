//===----------------------------------------------------------------------===//
// Which uniform loops thread-loop fission runs outside its thread loops
// (ThreadLoopInterchange.cpp says why and when).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CPU_THREADLOOPINTERCHANGE_H
#define GPUMEM_LIB_TARGET_CPU_THREADLOOPINTERCHANGE_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace gpumem::cpu {

/// Whether running `loop`, whose bounds are the same in every thread of the
/// block and whose body has no barrier, as one loop per block around loops
/// over the threads is legal and lets the thread loop over x vectorize.
/// `isUniform` says which values are the same in every thread.
bool shouldRunOutsideThreadLoops(
    mlir::scf::ForOp loop, llvm::function_ref<bool(mlir::Value)> isUniform);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_THREADLOOPINTERCHANGE_H
