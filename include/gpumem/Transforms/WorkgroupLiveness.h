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
//
// An asynchronous copy into a buffer (nvgpu.device_async_copy) writes it
// until a wait covers it: the ops its token reaches (groups, waits, the
// region ops that carry it) use the buffer too, and since a wait completes
// groups by count, not by token, the range lasts until a wait for every
// group (numGroups 0) at the kernel's top level after the copies, or to
// the end of the kernel. Values loaded from a buffer (scalars, vectors,
// tensor-core fragments) are not aliases of it.
//
// A buffer whose leading dimension a loop selects with a rotating stage
// index is a ring of stages (findWorkgroupStages); it is one buffer, live
// across the whole loop like any other used there.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_WORKGROUPLIVENESS_H
#define GPUMEM_TRANSFORMS_WORKGROUPLIVENESS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

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

/// A workgroup buffer used as a ring of stages (a multi-stage pipeline's
/// buffers): its leading dimension is the stage, and an access inside an
/// scf.for picks the stage with an index that rotates with the loop
/// (decision 145).
struct WorkgroupStages {
  /// The leading dimension: the number of stages.
  int64_t count = 0;
  /// The loop whose induction variable or iter_arg the stage index is
  /// computed from.
  mlir::Operation *loop = nullptr;
};

/// The stages of `buffer`, a static workgroup memref of rank 2 or more
/// with a leading dimension of 2 or more, when one of its accesses or
/// subviews (on the buffer or a cast of it that keeps its shape) inside an
/// scf.for indexes the leading dimension with a rotating stage index: a
/// value computed from the induction variable or an iter_arg of an
/// enclosing scf.for through a remainder (arith.remui, arith.remsi, an
/// affine `mod`), a mask (arith.andi), a toggle (arith.xori) or a wrap
/// (arith.select) that depends on the loop. An index that merely follows
/// the loop (a tile's row in a reduction loop) is no stage.
std::optional<WorkgroupStages> findWorkgroupStages(mlir::Value buffer);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_WORKGROUPLIVENESS_H
