//===----------------------------------------------------------------------===//
// Thread-loop fission's plan for a kernel: what runs once per block, what
// is the same in every thread, what crosses segments (FissionPlan.cpp says
// how it decides; BarrierFission.cpp builds the block-wide copy from it).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CPU_FISSIONPLAN_H
#define GPUMEM_LIB_TARGET_CPU_FISSIONPLAN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace gpumem::cpu {

class FissionPlan {
public:
  /// With `moveLoops`, barrier-free uniform loops whose accesses vectorize
  /// across x may run outside the thread loops.
  FissionPlan(mlir::func::FuncOp source,
              const llvm::DenseSet<mlir::Operation *> &fiberFunctions,
              bool moveLoops)
      : source(source), fiberFunctions(fiberFunctions), moveLoops(moveLoops) {}

  /// Steps 1 and 2; false when the kernel does not qualify (with the loops
  /// chosen to run outside the thread loops, if any).
  bool analyze();

  bool hasOutsideLoops() const { return !outsideLoops.empty(); }
  /// Whether `op` runs once per block (not inside a thread loop): it
  /// contains a barrier or a loop that runs outside the thread loops.
  bool runsPerBlock(mlir::Operation *op);
  bool isUniform(mlir::Value value);
  /// Whether a later segment computes `value` again rather than loading it
  /// from an array: a pure scalar function of uniform values and thread
  /// ids (a thread's row and column), a few ops deep.
  bool isRecomputable(mlir::Value value, unsigned depth = 0);
  /// A loop-carried value (or loop result) of a per-block loop that
  /// differs between threads: it lives in a per-thread array.
  bool isThreadCarried(mlir::Value value) const {
    return threadCarried.contains(value);
  }
  /// Non-uniform values used in another segment than their own, which
  /// are not computed again there: each needs a per-thread array.
  const llvm::SetVector<mlir::Value> &crossingValues() const {
    return crossing;
  }

private:
  bool containsBarrier(mlir::Operation *op);
  /// Chooses the uniform loops to run outside the thread loops, among the
  /// ops of `block`, which runs per block.
  void selectOutsideLoops(mlir::Block &block);
  bool analyzeBlock(mlir::Block &block);
  /// Finds the loop-carried values of `loop` that differ between threads.
  void classifyCarried(mlir::scf::ForOp loop);
  /// Whether each thread-carried value of `loop` can live in an array.
  bool checkCarried(mlir::scf::ForOp loop);
  void numberSegments(mlir::Block &block);

  mlir::func::FuncOp source;
  const llvm::DenseSet<mlir::Operation *> &fiberFunctions;
  bool moveLoops;
  llvm::DenseMap<mlir::Operation *, bool> barrierMemo;
  llvm::DenseMap<mlir::Operation *, bool> perBlockMemo;
  /// Barrier-free uniform loops that run once per block, around thread loops.
  llvm::DenseSet<mlir::Operation *> outsideLoops;
  llvm::DenseMap<mlir::Value, bool> uniformMemo;
  llvm::DenseMap<mlir::Operation *, unsigned> segmentOf;
  unsigned nextSegment = 0;
  llvm::SetVector<mlir::Value> crossing;
  /// Loop-carried values of per-block loops that differ between threads.
  llvm::DenseSet<mlir::Value> threadCarried;
};

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_FISSIONPLAN_H
