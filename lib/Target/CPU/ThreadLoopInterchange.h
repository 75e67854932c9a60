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
/// over the threads is legal and pays: the thread loop over x vectorizes,
/// or the loop carries a small vector (a tensor-core accumulator) whose
/// chains of dependent FMAs then interleave across threads. `isUniform`
/// says which values are the same in every thread.
bool shouldRunOutsideThreadLoops(
    mlir::scf::ForOp loop, llvm::function_ref<bool(mlir::Value)> isUniform);

/// Whether fission may keep a value of `type` per thread in an array: a
/// scalar, or a 1-D vector of at most 32 scalars (a lane's share of a
/// tensor-core accumulator is at most 32).
bool isPerThreadArrayType(mlir::Type type);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_THREADLOOPINTERCHANGE_H
