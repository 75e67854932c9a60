//===----------------------------------------------------------------------===//
// Live ranges of workgroup buffers and the barriers their reuse needs; the
// algorithm is described in WorkgroupLiveness.h.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/WorkgroupLiveness.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <functional>
#include <limits>

#define DEBUG_TYPE "gpumem-plan-workgroup-memory"

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

/// True when `type` is a value read from memory rather than an alias of
/// it: a scalar, a vector or a tensor-core fragment.
static bool isLoadedValue(Type type) {
  return type.isIntOrIndexOrFloat() ||
         isa<VectorType, ComplexType, gpu::MMAMatrixType>(type);
}

/// True when `type` is the token of an asynchronous copy, which keeps
/// writing its destination until a wait on the token (or on a group made
/// of it).
static bool isAsyncCopyToken(Type type) {
  return isa<nvgpu::DeviceAsyncTokenType>(type);
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
    return !isa<BaseMemRefType>(type) && !isLoadedValue(type) &&
           !isAsyncCopyToken(type);
  });
}

WorkgroupLiveRange WorkgroupLiveness::getLiveRange(Value buffer) const {
  WorkgroupLiveRange range;
  llvm::SetVector<Value> aliases;
  aliases.insert(buffer);
  llvm::SetVector<Operation *> uses;
  // Tokens of asynchronous copies into the buffer: the ops that wait on
  // them (through groups, and through the region ops that carry them) use
  // the buffer too, since the copy writes it until then.
  llvm::SetVector<Value> tokens;
  auto addTokens = [&](Operation *op) {
    for (Value result : op->getResults())
      if (isAsyncCopyToken(result.getType()))
        tokens.insert(result);
  };
  for (unsigned i = 0; i < aliases.size(); ++i) {
    for (Operation *user : aliases[i].getUsers()) {
      uses.insert(user);
      if (losesTrack(user))
        range.whole = true;
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          aliases.insert(result);
      addTokens(user);
    }
  }
  for (unsigned i = 0; i < tokens.size(); ++i) {
    for (Operation *user : tokens[i].getUsers()) {
      // A token yielded or passed into a region op (a loop's iter_args):
      // the region op uses the buffer, and so do the users of every token
      // it carries, results and region arguments alike.
      Operation *carrier = user;
      if (user->hasTrait<OpTrait::IsTerminator>())
        carrier = user->getParentOp();
      uses.insert(user);
      if (carrier == kernel)
        continue;
      uses.insert(carrier);
      addTokens(carrier);
      for (Region &region : carrier->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (isAsyncCopyToken(argument.getType()))
              tokens.insert(argument);
    }
  }
  // Which copy a wait completes depends on how many groups are pending, not
  // on its token: only a wait for every group (numGroups 0 or none) at the
  // kernel's top level, after every copy into the buffer, surely ends
  // them. Without one the copies may write the buffer until the kernel
  // ends.
  bool copiedUntilEnd = false;
  unsigned copiesEnd = 0;
  bool copied = false;
  for (Operation *use : uses)
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(use))
      if (aliases.contains(copy.getDst())) {
        copied = true;
        copiesEnd = std::max(copiesEnd, widen(use).second);
      }
  if (copied && analyzable) {
    Operation *drain = nullptr;
    for (Operation &op : gpu::GPUFuncOp(kernel).getBody().front()) {
      auto wait = dyn_cast<nvgpu::DeviceAsyncWaitOp>(&op);
      if (wait && wait.getNumGroups().value_or(0) == 0 &&
          entry.lookup(&op) > copiesEnd) {
        drain = &op;
        break;
      }
    }
    if (drain)
      uses.insert(drain);
    else
      copiedUntilEnd = true;
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
  if (copiedUntilEnd)
    range.end = numPoints;
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

//===----------------------------------------------------------------------===//
// Rings of stages
//===----------------------------------------------------------------------===//

/// The scf.for around `user` whose induction variable or iter_args `value`
/// is computed from through pure ops, or null.
static scf::ForOp getLoopSource(Value value, Operation *user) {
  SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!visited.insert(current).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(current)) {
      auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
      if (loop && loop->isAncestor(user))
        return loop;
      continue;
    }
    Operation *def = current.getDefiningOp();
    if (def->getNumRegions() || !isPure(def))
      continue;
    worklist.append(def->operand_begin(), def->operand_end());
  }
  return nullptr;
}

/// True when `op` can make an index that follows a loop come round again:
/// a remainder, a mask, a toggle or a wrap.
static bool rotates(Operation *op) {
  if (isa<arith::RemUIOp, arith::RemSIOp, arith::AndIOp, arith::XOrIOp,
          arith::SelectOp>(op))
    return true;
  auto apply = dyn_cast<affine::AffineApplyOp>(op);
  if (!apply)
    return false;
  bool modulo = false;
  apply.getAffineMap().walkExprs([&](AffineExpr expr) {
    modulo |= expr.getKind() == AffineExprKind::Mod;
  });
  return modulo;
}

/// The scf.for around `user` that `index` rotates with: a rotating op in
/// the computation of `index` (through pure ops, and from an iter_arg
/// through the value yielded for it) takes a value computed from that
/// loop's induction variable or iter_args.
static scf::ForOp getStageLoop(Value index, Operation *user) {
  SmallVector<Value> worklist{index};
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!visited.insert(current).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(current)) {
      auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
      if (loop && loop->isAncestor(user) && argument != loop.getInductionVar())
        if (OpOperand *yielded = loop.getTiedLoopYieldedValue(argument))
          worklist.push_back(yielded->get());
      continue;
    }
    Operation *def = current.getDefiningOp();
    if (def->getNumRegions() || !isPure(def))
      continue;
    if (rotates(def))
      for (Value operand : def->getOperands())
        if (scf::ForOp loop = getLoopSource(operand, user))
          return loop;
    worklist.append(def->operand_begin(), def->operand_end());
  }
  return nullptr;
}

/// The index `use` of a buffer of rank `rank` gives its leading dimension:
/// a subview's first offset, or the first of the `rank` index operands
/// that an op reading or writing memory takes right after the memref
/// (memref.load and store, vector loads, stores and transfers,
/// nvgpu.device_async_copy, nvgpu.ldmatrix, gpu.subgroup_mma_load_matrix
/// and store_matrix). Null when there is none or it is a constant.
static Value getLeadingIndex(OpOperand &use, int64_t rank) {
  Operation *user = use.getOwner();
  if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
    if (use.get() != subview.getSource())
      return nullptr;
    return llvm::dyn_cast_if_present<Value>(subview.getMixedOffsets().front());
  }
  if (isa<ViewLikeOpInterface>(user) || !isa<MemoryEffectOpInterface>(user))
    return nullptr;
  unsigned first = use.getOperandNumber() + 1;
  if (first + rank > user->getNumOperands())
    return nullptr;
  for (unsigned i = first; i < first + rank; ++i)
    if (!user->getOperand(i).getType().isIndex())
      return nullptr;
  return user->getOperand(first);
}

std::optional<WorkgroupStages> gpumem::findWorkgroupStages(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
      type.getDimSize(0) < 2)
    return std::nullopt;
  // The buffer and the casts of it that keep its shape, so its dimensions.
  SmallVector<Value> sameShape{buffer};
  for (unsigned i = 0; i < sameShape.size(); ++i)
    for (Operation *user : sameShape[i].getUsers()) {
      if (!isa<memref::CastOp, memref::MemorySpaceCastOp>(user))
        continue;
      auto result = dyn_cast<MemRefType>(user->getResult(0).getType());
      if (result && result.getShape() == type.getShape())
        sameShape.push_back(user->getResult(0));
    }
  for (Value value : sameShape)
    for (OpOperand &use : value.getUses()) {
      Value index = getLeadingIndex(use, type.getRank());
      if (!index)
        continue;
      if (scf::ForOp loop = getStageLoop(index, use.getOwner())) {
        LLVM_DEBUG(llvm::dbgs() << "  ring of " << type.getDimSize(0)
                                << " stages: " << *use.getOwner() << "\n");
        return WorkgroupStages{type.getDimSize(0), loop};
      }
    }
  return std::nullopt;
}
