//===----------------------------------------------------------------------===//
// Thread-loop fission's plan (BarrierFission.cpp says what fission is):
// which ops of a kernel run once per block and which inside the thread
// loops, which values are the same in every thread, and which cross from
// one segment to another.
//
// Algorithm:
//  1. Applicability. The body is one block; every op that contains a
//     barrier is an scf.for, scf.if (without results) or scf.while whose
//     control values (bounds, conditions, the whole `before` region and the
//     loop-carried values of scf.while) are uniform. A value an scf.for
//     carries may differ between threads (a per-thread accumulator): it
//     then lives in a per-thread array shared by the carried value, the
//     value yielded for it (which must be defined in the body after every
//     use of the carried one) and the loop's result; no gpu.shuffle, no private
//     memory (memref.alloca, private attributions), no call to a function
//     that needs fibers; values crossing segments are scalars or 1-D
//     vectors of at most 32 scalars (a lane's tensor-core accumulator). A
//     value is uniform when it is a function argument, a loop-carried value
//     or result of an op containing a barrier, or the result of an op
//     without memory effects or regions that does not read the thread id and
//     whose operands are uniform (such ops are emitted where they stand,
//     never hoisted out of a condition, so division is fine).
//     Some barrier-free scf.for loops with uniform bounds run once per
//     block too, around thread loops, as if they held a barrier
//     (ThreadLoopInterchange.cpp chooses them: those whose loop over x then
//     vectorizes, and those that carry an accumulator vector); when a
//     chosen loop does not fit the rules above, BarrierFission.cpp plans the
//     kernel again without any. A carried value that a loop yields from an
//     inner per-block loop shares that loop's array.
//  2. Segments. Ops are numbered by segment; nested regions inherit their
//     op's segment unless the op contains a barrier, whose regions get
//     segments of their own. A non-uniform value with a use in another
//     segment crosses, but for thread ids and pure scalar arithmetic on
//     them and uniform values (a thread's row and column): a later segment
//     reads its thread ids from the context again and computes the rest
//     again where it is used.
//===----------------------------------------------------------------------===//

#include "FissionPlan.h"
#include "ThreadLoopInterchange.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#include <cstdint>

#define DEBUG_TYPE "gpumem-lower-gpu-to-cpu-abi"

using namespace mlir;
using namespace gpumem::cpu;

/// Says, in debug output, why thread-loop fission does not apply because of
/// `op`; returns false.
static bool notFissionable([[maybe_unused]] Operation *op,
                           [[maybe_unused]] StringRef why) {
  LLVM_DEBUG(llvm::dbgs() << "fission: '" << op->getName() << "' at "
                          << op->getLoc() << " " << why << "\n");
  return false;
}

bool FissionPlan::containsBarrier(Operation *op) {
  auto it = barrierMemo.find(op);
  if (it != barrierMemo.end())
    return it->second;
  bool found = op->walk([](gpu::BarrierOp) {
                   return WalkResult::interrupt();
                 }).wasInterrupted();
  barrierMemo[op] = found;
  return found;
}

bool FissionPlan::runsPerBlock(Operation *op) {
  auto it = perBlockMemo.find(op);
  if (it != perBlockMemo.end())
    return it->second;
  bool perBlock =
      containsBarrier(op) || op->walk([&](scf::ForOp loop) {
                                 return outsideLoops.contains(loop)
                                            ? WalkResult::interrupt()
                                            : WalkResult::advance();
                               }).wasInterrupted();
  perBlockMemo[op] = perBlock;
  return perBlock;
}

bool FissionPlan::isUniform(Value value) {
  auto it = uniformMemo.find(value);
  if (it != uniformMemo.end())
    return it->second;
  uniformMemo[value] = false; // cycles are not uniform
  bool uniform = false;
  if (threadCarried.contains(value)) {
    uniform = false;
  } else if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    uniform = owner == source.getOperation() ||
              (isa<scf::ForOp, scf::WhileOp>(owner) && runsPerBlock(owner));
  } else {
    Operation *def = value.getDefiningOp();
    if (runsPerBlock(def))
      uniform = true;
    else if (!isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
                  gpu::GlobalIdOp>(def) &&
             def->getNumRegions() == 0 && isMemoryEffectFree(def))
      uniform = llvm::all_of(def->getOperands(),
                             [&](Value operand) { return isUniform(operand); });
  }
  uniformMemo[value] = uniform;
  return uniform;
}

bool FissionPlan::isRecomputable(Value value, unsigned depth) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 8 || threadCarried.contains(value) ||
      !value.getType().isIntOrIndexOrFloat() || def->getNumResults() != 1 ||
      def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  if (isa<gpu::ThreadIdOp>(def))
    return true;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isUniform(operand) || isRecomputable(operand, depth + 1);
  });
}

bool FissionPlan::analyzeBlock(Block &block) {
  for (Operation &op : block) {
    if (isa<gpu::ShuffleOp, memref::AllocaOp>(op))
      return notFissionable(&op, "needs fibers (a shuffle or private memory)");
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      auto callee =
          dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
      Operation *target =
          callee ? SymbolTable::lookupNearestSymbolFrom(&op, callee) : nullptr;
      if (!target || fiberFunctions.contains(target))
        return notFissionable(&op, "calls a function that needs fibers, or "
                                   "one it cannot resolve");
    }
    if (op.walk([](Operation *nested) {
            return isa<gpu::ShuffleOp, memref::AllocaOp>(nested)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted())
      return notFissionable(&op, "holds a shuffle or private memory");
    if (isa<gpu::BarrierOp>(op) || !runsPerBlock(&op))
      continue;
    auto allUniform = [&](ValueRange values) {
      return llvm::all_of(values, [&](Value v) { return isUniform(v); });
    };
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (!allUniform(
              {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()}))
        return notFissionable(&op, "has bounds that differ between threads");
      if (!analyzeBlock(*loop.getBody()))
        return false;
      for (auto [arg, init, yielded] :
           llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs(),
                     loop.getBody()->getTerminator()->getOperands()))
        if (!threadCarried.contains(arg) &&
            (!isUniform(init) || !isUniform(yielded)))
          return notFissionable(&op, "carries a value that is neither "
                                     "uniform nor per thread");
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (branch.getNumResults() || !isUniform(branch.getCondition()))
        return notFissionable(&op, "has results or a condition that differs "
                                   "between threads");
      if (!analyzeBlock(branch.getThenRegion().front()) ||
          (!branch.getElseRegion().empty() &&
           !analyzeBlock(branch.getElseRegion().front())))
        return false;
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      if (!allUniform(loop.getInits()))
        return notFissionable(&op, "has initial values that differ between "
                                   "threads");
      for (Operation &before : loop.getBefore().front())
        if (before.getNumRegions() ||
            (!isa<scf::ConditionOp>(before) &&
             !llvm::all_of(before.getResults(),
                           [&](Value v) { return isUniform(v); })) ||
            !allUniform(before.getOperands()))
          return notFissionable(&before, "in a barrier loop's condition "
                                         "differs between threads");
      if (!analyzeBlock(loop.getAfter().front()))
        return false;
      if (!allUniform(loop.getAfter().front().getTerminator()->getOperands()))
        return notFissionable(&op, "yields values that differ between "
                                   "threads");
    } else {
      return notFissionable(&op, "holds a barrier but is no scf.for, scf.if "
                                 "or scf.while");
    }
  }
  return true;
}

void FissionPlan::classifyCarried(scf::ForOp loop) {
  // Optimistic fixpoint: a carried value is uniform until its init or the
  // value yielded for it turns out not to be.
  for (bool changed = true; changed;) {
    changed = false;
    uniformMemo.clear();
    for (auto [arg, init, yielded, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs(),
                   loop.getBody()->getTerminator()->getOperands(),
                   loop.getResults())) {
      if (threadCarried.contains(arg) ||
          (isUniform(init) && isUniform(yielded)))
        continue;
      threadCarried.insert(arg);
      threadCarried.insert(result);
      changed = true;
    }
  }
  uniformMemo.clear();
}

bool FissionPlan::checkCarried(scf::ForOp loop) {
  llvm::SmallPtrSet<Value, 4> yieldedOnce;
  for (auto [arg, yielded] :
       llvm::zip(loop.getRegionIterArgs(),
                 loop.getBody()->getTerminator()->getOperands())) {
    if (!threadCarried.contains(arg))
      continue;
    if (!isPerThreadArrayType(arg.getType()))
      return notFissionable(loop, "carries a per-thread value that is no "
                                  "scalar or small vector");
    if (yielded == arg)
      continue;
    // The yielded value replaces the carried one in the thread's array: it
    // must come from a segment of the body, after every use of the old value.
    Operation *def = yielded.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody() ||
        !yieldedOnce.insert(yielded).second)
      return notFissionable(loop, "yields a per-thread value not computed "
                                  "once in its body");
    // A per-block loop's per-thread result has an array already, which the
    // carried value then shares.
    if (runsPerBlock(def) && !threadCarried.contains(yielded))
      return notFissionable(loop, "yields a per-thread value from a "
                                  "per-block op");
    assert(segmentOf.count(def) &&
           "the ops of a per-block loop's body have segments");
    unsigned defined = segmentOf.lookup(def);
    for (Operation *user : arg.getUsers()) {
      auto used = segmentOf.find(user);
      if (used == segmentOf.end() || used->second > defined)
        return notFissionable(loop, "uses a carried value after the value "
                                    "that replaces it");
    }
  }
  return true;
}

void FissionPlan::numberSegments(Block &block) {
  unsigned segment = nextSegment++;
  for (Operation &op : block) {
    if (isa<gpu::BarrierOp>(op)) {
      segment = nextSegment++;
      continue;
    }
    if (runsPerBlock(&op)) {
      segmentOf[&op] = nextSegment++;
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          numberSegments(nested);
      segment = nextSegment++;
      continue;
    }
    op.walk([&](Operation *nested) { segmentOf[nested] = segment; });
  }
}

void FissionPlan::selectOutsideLoops(Block &block) {
  for (Operation &op : block) {
    if (containsBarrier(&op)) {
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          selectOutsideLoops(nested);
      continue;
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || !isUniform(loop.getLowerBound()) ||
        !isUniform(loop.getUpperBound()) || !isUniform(loop.getStep()) ||
        !cpu::shouldRunOutsideThreadLoops(
            loop, [&](Value value) { return isUniform(value); }))
      continue;
    outsideLoops.insert(loop);
    // Its induction variable, and what is computed from it, became uniform.
    uniformMemo.clear();
    perBlockMemo.clear();
    selectOutsideLoops(*loop.getBody());
  }
}

bool FissionPlan::analyze() {
  if (!source.getBody().hasOneBlock())
    return notFissionable(source, "has more than one block");
  if (moveLoops)
    selectOutsideLoops(source.getBody().front());
  // Which loop-carried values differ between threads, to a fixpoint over
  // every barrier loop (inner loops first).
  for (size_t before = SIZE_MAX; before != threadCarried.size();) {
    before = threadCarried.size();
    source.walk([&](scf::ForOp loop) {
      if (runsPerBlock(loop))
        classifyCarried(loop);
    });
  }
  if (!analyzeBlock(source.getBody().front()))
    return false;
  numberSegments(source.getBody().front());
  bool carriedOk = true;
  source.walk([&](scf::ForOp loop) {
    if (runsPerBlock(loop) && !checkCarried(loop))
      carriedOk = false;
  });
  if (!carriedOk)
    return false;
  // Crossing values: non-uniform results used in another segment.
  for (auto [op, segment] : segmentOf) {
    for (Value result : op->getResults()) {
      // A thread id is read again where it is used, and arithmetic on thread
      // ids computed again: no array.
      if (isUniform(result) || isa<gpu::ThreadIdOp>(op) ||
          isRecomputable(result))
        continue;
      for (Operation *user : result.getUsers()) {
        auto userSegment = segmentOf.find(user);
        if (userSegment == segmentOf.end() || userSegment->second == segment)
          continue;
        if (!isPerThreadArrayType(result.getType()))
          return notFissionable(op, "has a result that crosses a barrier "
                                    "but is no scalar or small vector");
        crossing.insert(result);
      }
    }
  }
  return true;
}
