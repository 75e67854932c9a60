//===----------------------------------------------------------------------===//
// Live ranges of workgroup buffers and the barriers their reuse needs; the
// algorithm is described in WorkgroupLiveness.h.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/WorkgroupLiveness.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <limits>

using namespace mlir;
using namespace gpumem;

/// True when `op` is a barrier of the block, which orders workgroup memory.
static bool isWorkgroupBarrier(Operation *op) {
  return isa<gpu::BarrierOp>(op);
}

WorkgroupLiveness::WorkgroupLiveness(gpu::GPUFuncOp kernel) : kernel(kernel) {
  if (!kernel.getBody().hasOneBlock()) {
    analyzable = false;
    return;
  }
  // Pre-order numbering; returns whether `op` holds a barrier.
  std::function<bool(Operation *)> number = [&](Operation *op) -> bool {
    entry[op] = numPoints++;
    bool barrier = isWorkgroupBarrier(op);
    for (Region &region : op->getRegions()) {
      if (!region.empty() && !region.hasOneBlock())
        analyzable = false;
      for (Block &block : region)
        for (Operation &nested : block)
          barrier |= number(&nested);
    }
    exit[op] = op->getNumRegions() ? numPoints++ : entry[op];
    if (barrier && op->getNumRegions())
      holdsBarrier.insert(op);
    return barrier;
  };
  for (Operation &op : kernel.getBody().front())
    number(&op);
}

/// True when threads of a block may run `op`'s regions differently: a loop
/// (contents persist across iterations), an unknown region op, or a branch
/// without a barrier inside.
static bool widensUses(Operation *op,
                       const llvm::DenseSet<Operation *> &holdsBarrier) {
  auto branch = dyn_cast<RegionBranchOpInterface>(op);
  if (!branch)
    return true;
  if (branch.hasLoop())
    return true;
  if (op->getNumRegions() == 1)
    return false;
  return !holdsBarrier.contains(op);
}

std::pair<unsigned, unsigned> WorkgroupLiveness::widen(Operation *use) const {
  unsigned start = entry.lookup(use), end = exit.lookup(use);
  for (Operation *parent = use->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp()) {
    if (!widensUses(parent, holdsBarrier))
      continue;
    start = std::min(start, entry.lookup(parent));
    end = std::max(end, exit.lookup(parent));
  }
  return {start, end};
}

/// True when `user` gives `value`'s memory a form the analysis cannot
/// follow: an integer address, or an alias carried through a region.
static bool losesTrack(Operation *user) {
  if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
    return true;
  if (user->hasTrait<OpTrait::IsTerminator>())
    return true;
  if (isa<RegionBranchOpInterface>(user))
    return true;
  return llvm::any_of(user->getResultTypes(), [](Type type) {
    return !isa<BaseMemRefType>(type) && !type.isIntOrIndexOrFloat() &&
           !isa<VectorType, ComplexType>(type);
  });
}

WorkgroupLiveRange WorkgroupLiveness::getLiveRange(Value buffer) const {
  WorkgroupLiveRange range;
  llvm::SetVector<Value> aliases;
  aliases.insert(buffer);
  llvm::SetVector<Operation *> uses;
  for (unsigned i = 0; i < aliases.size(); ++i) {
    for (Operation *user : aliases[i].getUsers()) {
      uses.insert(user);
      if (losesTrack(user))
        range.whole = true;
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          aliases.insert(result);
    }
  }
  range.uses.assign(uses.begin(), uses.end());
  if (range.whole || !analyzable) {
    range.whole = true;
    range.start = 0;
    range.end = numPoints;
  } else {
    range.start = std::numeric_limits<unsigned>::max();
    range.end = 0;
  }
  for (Operation *use : range.uses) {
    auto [start, end] = widen(use);
    if (!range.whole) {
      range.start = std::min(range.start, start);
      range.end = std::max(range.end, end);
    }
    if (!range.firstUse || entry.lookup(use) < entry.lookup(range.firstUse))
      range.firstUse = use;
    if (!range.lastUse || entry.lookup(use) > entry.lookup(range.lastUse))
      range.lastUse = use;
  }
  return range;
}

/// The innermost block that holds every op of `ops` (nested or not).
static Block *getCommonBlock(ArrayRef<Operation *> ops) {
  Block *common = ops.front()->getBlock();
  for (Operation *op : ops.drop_front()) {
    while (common && !common->findAncestorOpInBlock(*op)) {
      Operation *parent = common->getParentOp();
      common = parent ? parent->getBlock() : nullptr;
    }
  }
  return common;
}

FailureOr<Operation *>
WorkgroupLiveness::getSeparation(const WorkgroupLiveRange &before,
                                 const WorkgroupLiveRange &after) const {
  if (before.uses.empty() || after.uses.empty())
    return static_cast<Operation *>(nullptr);
  if (before.whole || after.whole || before.overlaps(after))
    return failure();
  SmallVector<Operation *> all(before.uses);
  all.append(after.uses.begin(), after.uses.end());
  Block *common = getCommonBlock(all);
  if (!common)
    return failure();
  // The block must run in every thread alike: no loop or divergent branch
  // around it.
  for (Operation *parent = common->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp())
    if (widensUses(parent, holdsBarrier))
      return failure();
  Operation *lastBefore = nullptr, *firstAfter = nullptr;
  for (Operation *use : before.uses) {
    Operation *op = common->findAncestorOpInBlock(*use);
    if (!lastBefore || entry.lookup(op) > entry.lookup(lastBefore))
      lastBefore = op;
  }
  for (Operation *use : after.uses) {
    Operation *op = common->findAncestorOpInBlock(*use);
    if (!firstAfter || entry.lookup(op) < entry.lookup(firstAfter))
      firstAfter = op;
  }
  if (entry.lookup(lastBefore) >= entry.lookup(firstAfter))
    return failure();
  for (Operation *op = lastBefore->getNextNode(); op != firstAfter;
       op = op->getNextNode())
    if (isWorkgroupBarrier(op))
      return static_cast<Operation *>(nullptr);
  return firstAfter;
}
