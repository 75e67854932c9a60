//===----------------------------------------------------------------------===//
// Thread-loop fission for the cpu target (see BarrierFission.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CPU_BARRIERFISSION_H
#define GPUMEM_LIB_TARGET_CPU_BARRIERFISSION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseSet.h"

namespace gpumem::cpu {

/// A copy of `kernel` named `name` that runs every thread of a block without
/// barriers, by splitting the body at them into loops over the threads; or
/// null when the kernel does not qualify (then it needs fibers). `kernel`
/// takes the thread context as its last entry-block argument and still has
/// its attributions as the arguments before it; the copy has the same
/// entry-block arguments. `fiberFunctions` are the functions that reach a
/// barrier or warp operation.
/// With `phaseMarkers`, the copy calls services->blockPhase where each
/// barrier was. With `onlyForOutsideLoops` (for a kernel without barriers),
/// the copy is made only when some loop runs outside the thread loops.
mlir::func::FuncOp createBarrierFreeBlockFunction(
    mlir::func::FuncOp kernel, llvm::StringRef name,
    const llvm::DenseSet<mlir::Operation *> &fiberFunctions, bool phaseMarkers,
    bool onlyForOutsideLoops = false);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_BARRIERFISSION_H
