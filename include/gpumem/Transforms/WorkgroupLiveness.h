//===----------------------------------------------------------------------===//
// Live ranges of a kernel's workgroup buffers over structured control flow,
// and the barriers that make two buffers with disjoint ranges safe to share
// bytes (docs/workgroup-memory.md, "Planning").
//
// Program points are the kernel's ops numbered in pre-order; an op with
// regions has an entry and an exit number around its regions' ops. A use of
// a buffer (an op that takes it or a view, cast or subview of it) covers the
// op, widened to every enclosing op through which a later use in program
// order could meet an earlier one:
//  - a loop (or any region op that is not a known branch): buffer contents
//    persist from one iteration to the next;
//  - a branch with no gpu.barrier inside: its threads may diverge, so one
//    thread's then-branch runs beside another's else-branch.
// A branch with a barrier inside is uniform (a barrier in divergent control
// flow is undefined) and keeps its uses precise.
//
// Two buffers X and Y, X's range ending before Y's starts, may share bytes
// when one block C holds (in nested ops) every use of both, every use of X
// lies in ops of C before every use of Y, and a gpu.barrier directly in C
// lies between them; when none does, one is inserted before Y's first op in
// C. C is never inside a loop or a divergent branch: ranges widened there
// would overlap.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_WORKGROUPLIVENESS_H
#define GPUMEM_TRANSFORMS_WORKGROUPLIVENESS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace gpumem {

/// A buffer's live range: the program points [start, end] of its widened
/// uses, with the first and last use for reports. `whole` means the range
/// could not be followed (an alias escaped into integers, a loop-carried
/// or yielded alias) and covers the whole kernel.
struct WorkgroupLiveRange {
  unsigned start = 0;
  unsigned end = 0;
  mlir::Operation *firstUse = nullptr;
  mlir::Operation *lastUse = nullptr;
  bool whole = false;
  /// The ops that use the buffer, directly or through views.
  llvm::SmallVector<mlir::Operation *> uses;

  bool overlaps(const WorkgroupLiveRange &other) const {
    if (uses.empty() || other.uses.empty())
      return false;
    return start <= other.end && other.start <= end;
  }
};

/// The program points of one kernel, and the live ranges of its buffers.
class WorkgroupLiveness {
public:
  /// Numbers `kernel`'s ops. `isAnalyzable()` is false when the kernel's
  /// body is not a single block (unstructured control flow).
  explicit WorkgroupLiveness(mlir::gpu::GPUFuncOp kernel);

  bool isAnalyzable() const { return analyzable; }

  /// The live range of `buffer`, a workgroup memref value of the kernel.
  WorkgroupLiveRange getLiveRange(mlir::Value buffer) const;

  /// Where a barrier must go so that `before`'s uses all finish before
  /// `after`'s start in every thread, when the two can share bytes at all:
  /// null when an existing barrier already separates them, the op before
  /// which to insert one otherwise. Fails when no barrier can separate them
  /// (their uses interleave, or meet in the same op).
  mlir::FailureOr<mlir::Operation *>
  getSeparation(const WorkgroupLiveRange &before,
                const WorkgroupLiveRange &after) const;

  /// The number of program points of the kernel.
  unsigned getNumPoints() const { return numPoints; }

private:
  /// The range `use` covers once widened through its enclosing ops.
  std::pair<unsigned, unsigned> widen(mlir::Operation *use) const;

  mlir::gpu::GPUFuncOp kernel;
  bool analyzable = true;
  unsigned numPoints = 0;
  llvm::DenseMap<mlir::Operation *, unsigned> entry, exit;
  /// Region ops with a gpu.barrier somewhere inside.
  llvm::DenseSet<mlir::Operation *> holdsBarrier;
};

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_WORKGROUPLIVENESS_H
