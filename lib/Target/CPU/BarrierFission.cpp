//===----------------------------------------------------------------------===//
// Thread-loop fission: a block-wide, barrier-free copy of a kernel for the
// cpu target.
//
// A kernel whose barriers sit in block-uniform structured control flow can
// run a whole block without fibers (and a kernel without barriers whose
// uniform loops vectorize outside the thread loops gains from the same
// form): split its body at every gpu.barrier
// into segments, run each segment as a loop over the block's threads (z, y,
// x, storing the thread id into the context as run_blocks does), and keep
// the values a thread computes in one segment and uses in a later one in a
// per-thread array. Running the threads of a segment one after another is a
// legal schedule of the barrier-separated phases.
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
//     that needs fibers; values crossing segments are scalars. A value is
//     uniform when it is a function argument, a loop-carried value or result
//     of an op containing a barrier, or the result of an op without memory
//     effects or regions that does not read the thread id and whose operands
//     are uniform (such ops are emitted where they stand, never hoisted out
//     of a condition, so division is fine).
//     Some barrier-free scf.for loops with uniform bounds run once per
//     block too, around thread loops, as if they held a barrier
//     (ThreadLoopInterchange.cpp chooses them: those whose loop over x then
//     vectorizes); when a chosen loop does not fit the rules above, the
//     kernel is analyzed again without any. A carried value that a loop
//     yields from an inner per-block loop shares that loop's array.
//  2. Segments. Ops are numbered by segment; nested regions inherit their
//     op's segment unless the op contains a barrier, whose regions get
//     segments of their own. A non-uniform value with a use in another
//     segment crosses, but for thread ids and pure scalar arithmetic on
//     them and uniform values (a thread's row and column): a later segment
//     reads its thread ids from the context again and computes the rest
//     again where it is used.
//  3. Emission, by recursion over the blocks: uniform ops are cloned once,
//     outside thread loops; the other ops of a segment are cloned inside a
//     thread loop nest, loading crossing values from their arrays and
//     storing crossing results into them; ops containing barriers are
//     rebuilt around their transformed regions.
//===----------------------------------------------------------------------===//

#include "BarrierFission.h"
#include "HostCode.h"
#include "ThreadLoopInterchange.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstddef>

using namespace mlir;
using namespace gpumem;

namespace {

constexpr int64_t kContextThreadId = offsetof(GPUMemThreadContext, threadId);
constexpr int64_t kServiceBlockPhase =
    offsetof(GPUMemRuntimeServices, blockPhase);

class Fission {
public:
  Fission(func::FuncOp source,
          const llvm::DenseSet<Operation *> &fiberFunctions, bool phaseMarkers)
      : source(source), fiberFunctions(fiberFunctions),
        phaseMarkers(phaseMarkers) {}

  /// Steps 1 and 2; false when the kernel does not qualify.
  bool analyze();
  /// Step 3: the block-wide function, inserted after `source`.
  func::FuncOp emit(StringRef name);
  bool hasOutsideLoops() const { return !outsideLoops.empty(); }

private:
  bool containsBarrier(Operation *op);
  /// Whether `op` runs once per block (not inside a thread loop): it
  /// contains a barrier or a loop that runs outside the thread loops.
  bool runsPerBlock(Operation *op);
  bool isUniform(Value value);
  /// Whether a later segment computes `value` again rather than loading it
  /// from an array: a pure scalar function of uniform values and thread
  /// ids (a thread's row and column), a few ops deep.
  bool isRecomputable(Value value, unsigned depth = 0);
  /// `value` (recomputable) in the thread loop at `builder`; what it maps
  /// is recorded in `mapped`.
  Value recompute(OpBuilder &builder, Value value,
                  SmallVectorImpl<Value> &mapped);
  /// Chooses the uniform loops to run outside the thread loops, among the
  /// ops of `block`, which runs per block.
  void selectOutsideLoops(Block &block);
  /// Steps 1 and 2 for the loops chosen so far.
  bool analyzeStructure();
  bool analyzeBlock(Block &block);
  /// Finds the loop-carried values of `loop` that differ between threads.
  void classifyCarried(scf::ForOp loop);
  /// Whether each thread-carried value of `loop` can live in an array.
  bool checkCarried(scf::ForOp loop);
  /// A loop nest over the block's threads; `body` gets the linear thread id.
  void emitThreadLoop(OpBuilder &builder, Location loc,
                      function_ref<void(OpBuilder &, Value)> body);
  void numberSegments(Block &block);
  void emitBlock(Block &block, OpBuilder &builder);
  void emitSegment(ArrayRef<Operation *> ops, OpBuilder &builder);
  void emitControl(Operation *op, OpBuilder &builder);
  Value contextArg() { return target.getArguments().back(); }

  func::FuncOp source;
  const llvm::DenseSet<Operation *> &fiberFunctions;
  bool phaseMarkers;
  llvm::DenseMap<Operation *, bool> barrierMemo;
  llvm::DenseMap<Operation *, bool> perBlockMemo;
  /// Barrier-free uniform loops that run once per block, around thread loops.
  llvm::DenseSet<Operation *> outsideLoops;
  llvm::DenseMap<Value, bool> uniformMemo;
  llvm::DenseMap<Operation *, unsigned> segmentOf;
  unsigned nextSegment = 0;
  llvm::SetVector<Value> crossing;
  /// Loop-carried values of barrier loops that differ between threads.
  llvm::DenseSet<Value> threadCarried;

  func::FuncOp target;
  IRMapping mapping;
  llvm::DenseMap<Value, Value> spill; // crossing value -> its per-thread array
};

bool Fission::containsBarrier(Operation *op) {
  auto it = barrierMemo.find(op);
  if (it != barrierMemo.end())
    return it->second;
  bool found = op->walk([](gpu::BarrierOp) { return WalkResult::interrupt(); })
                   .wasInterrupted();
  barrierMemo[op] = found;
  return found;
}

bool Fission::runsPerBlock(Operation *op) {
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

bool Fission::isUniform(Value value) {
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

bool Fission::isRecomputable(Value value, unsigned depth) {
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

Value Fission::recompute(OpBuilder &builder, Value value,
                         SmallVectorImpl<Value> &mapped) {
  if (Value known = mapping.lookupOrNull(value))
    return known;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    recompute(builder, operand, mapped);
  Value copy = builder.clone(*def, mapping)->getResult(0);
  mapping.map(value, copy);
  mapped.push_back(value);
  return copy;
}

bool Fission::analyzeBlock(Block &block) {
  for (Operation &op : block) {
    if (isa<gpu::ShuffleOp, memref::AllocaOp>(op))
      return false;
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      auto callee = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
      Operation *target =
          callee ? SymbolTable::lookupNearestSymbolFrom(&op, callee) : nullptr;
      if (!target || fiberFunctions.contains(target))
        return false;
    }
    if (op.walk([](Operation *nested) {
            return isa<gpu::ShuffleOp, memref::AllocaOp>(nested)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted())
      return false;
    if (isa<gpu::BarrierOp>(op) || !runsPerBlock(&op))
      continue;
    auto allUniform = [&](ValueRange values) {
      return llvm::all_of(values, [&](Value v) { return isUniform(v); });
    };
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (!allUniform({loop.getLowerBound(), loop.getUpperBound(),
                       loop.getStep()}) ||
          !analyzeBlock(*loop.getBody()))
        return false;
      for (auto [arg, init, yielded] :
           llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs(),
                     loop.getBody()->getTerminator()->getOperands()))
        if (!threadCarried.contains(arg) &&
            (!isUniform(init) || !isUniform(yielded)))
          return false;
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (branch.getNumResults() || !isUniform(branch.getCondition()) ||
          !analyzeBlock(branch.getThenRegion().front()) ||
          (!branch.getElseRegion().empty() &&
           !analyzeBlock(branch.getElseRegion().front())))
        return false;
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      if (!allUniform(loop.getInits()))
        return false;
      for (Operation &before : loop.getBefore().front())
        if (before.getNumRegions() ||
            (!isa<scf::ConditionOp>(before) &&
             !llvm::all_of(before.getResults(),
                           [&](Value v) { return isUniform(v); })) ||
            !allUniform(before.getOperands()))
          return false;
      if (!analyzeBlock(loop.getAfter().front()) ||
          !allUniform(loop.getAfter().front().getTerminator()->getOperands()))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

void Fission::classifyCarried(scf::ForOp loop) {
  // Optimistic fixpoint: a carried value is uniform until its init or the
  // value yielded for it turns out not to be.
  for (bool changed = true; changed;) {
    changed = false;
    uniformMemo.clear();
    for (auto [arg, init, yielded, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs(),
                   loop.getBody()->getTerminator()->getOperands(),
                   loop.getResults())) {
      if (threadCarried.contains(arg) || (isUniform(init) && isUniform(yielded)))
        continue;
      threadCarried.insert(arg);
      threadCarried.insert(result);
      changed = true;
    }
  }
  uniformMemo.clear();
}

bool Fission::checkCarried(scf::ForOp loop) {
  llvm::SmallPtrSet<Value, 4> yieldedOnce;
  for (auto [arg, yielded] :
       llvm::zip(loop.getRegionIterArgs(),
                 loop.getBody()->getTerminator()->getOperands())) {
    if (!threadCarried.contains(arg))
      continue;
    if (!arg.getType().isIntOrIndexOrFloat())
      return false;
    if (yielded == arg)
      continue;
    // The yielded value replaces the carried one in the thread's array: it
    // must come from a segment of the body, after every use of the old value.
    Operation *def = yielded.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody() ||
        !yieldedOnce.insert(yielded).second)
      return false;
    // A per-block loop's per-thread result has an array already, which the
    // carried value then shares.
    if (runsPerBlock(def) && !threadCarried.contains(yielded))
      return false;
    unsigned defined = segmentOf.lookup(def);
    for (Operation *user : arg.getUsers()) {
      auto used = segmentOf.find(user);
      if (used == segmentOf.end() || used->second > defined)
        return false;
    }
  }
  return true;
}

void Fission::numberSegments(Block &block) {
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

void Fission::selectOutsideLoops(Block &block) {
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

bool Fission::analyze() {
  if (!source.getBody().hasOneBlock())
    return false;
  // Racecheck reports the first conflicting pair it sees: it keeps the
  // threads' program order, one thread's iterations after another's.
  if (!phaseMarkers)
    selectOutsideLoops(source.getBody().front());
  if (analyzeStructure())
    return true;
  if (outsideLoops.empty())
    return false;
  // Some chosen loop does not fit (say, its bounds turned out to depend on
  // a per-thread carried value): fission without any.
  outsideLoops.clear();
  perBlockMemo.clear();
  uniformMemo.clear();
  segmentOf.clear();
  nextSegment = 0;
  crossing.clear();
  threadCarried.clear();
  return analyzeStructure();
}

bool Fission::analyzeStructure() {
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
        if (!result.getType().isIntOrIndexOrFloat())
          return false;
        crossing.insert(result);
      }
    }
  }
  return true;
}

func::FuncOp Fission::emit(StringRef name) {
  OpBuilder builder(source->getContext());
  builder.setInsertionPointAfter(source);
  target = func::FuncOp::create(builder, source.getLoc(), name,
                                source.getFunctionType());
  cpu::makeInternal(target);
  Block &sourceEntry = source.getBody().front();
  Block *entry = builder.createBlock(&target.getBody());
  for (BlockArgument arg : sourceEntry.getArguments())
    mapping.map(arg, entry->addArgument(arg.getType(), arg.getLoc()));

  // One array per crossing value, sized by the block.
  Location loc = source.getLoc();
  Value threads = gpu::BlockDimOp::create(builder, loc, gpu::Dimension::x);
  for (gpu::Dimension dim : {gpu::Dimension::y, gpu::Dimension::z})
    threads = arith::MulIOp::create(builder, loc, threads,
                                    gpu::BlockDimOp::create(builder, loc, dim));
  auto makeArray = [&](Value value) -> Value {
    return memref::AllocaOp::create(
        builder, value.getLoc(),
        MemRefType::get({ShapedType::kDynamic}, value.getType()),
        ValueRange{threads});
  };
  // A thread-carried value, the value yielded for it and the loop's result
  // share one array.
  source.walk([&](scf::ForOp loop) {
    if (!runsPerBlock(loop))
      return;
    for (auto [arg, yielded, result] :
         llvm::zip(loop.getRegionIterArgs(),
                   loop.getBody()->getTerminator()->getOperands(),
                   loop.getResults()))
      if (threadCarried.contains(arg)) {
        Value array = spill.lookup(yielded);
        if (!array)
          array = makeArray(arg);
        spill[arg] = array;
        spill[yielded] = array;
        spill[result] = array;
      }
  });
  for (Value value : crossing)
    if (!spill.count(value))
      spill[value] = makeArray(value);

  emitBlock(sourceEntry, builder);
  return target;
}

void Fission::emitBlock(Block &block, OpBuilder &builder) {
  SmallVector<Operation *> segment;
  for (Operation &op : block) {
    if (isa<gpu::BarrierOp>(op)) {
      emitSegment(segment, builder);
      segment.clear();
      // Every thread of the block has run the segments before this point.
      if (phaseMarkers)
        cpu::ContextAccess(builder, op.getLoc(), contextArg())
            .callService(kServiceBlockPhase,
                         LLVM::LLVMVoidType::get(builder.getContext()),
                         {contextArg()});
      continue;
    }
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      emitSegment(segment, builder);
      segment.clear();
      if (auto yield = dyn_cast<scf::YieldOp>(op);
          yield && isa<scf::ForOp>(yield->getParentOp())) {
        // Thread-carried values were stored into their arrays.
        auto loop = cast<scf::ForOp>(yield->getParentOp());
        SmallVector<Value> operands;
        for (auto [arg, value] :
             llvm::zip(loop.getRegionIterArgs(), yield.getOperands()))
          if (!threadCarried.contains(arg))
            operands.push_back(mapping.lookup(value));
        scf::YieldOp::create(builder, yield.getLoc(), operands);
        continue;
      }
      builder.clone(op, mapping);
      continue;
    }
    if (runsPerBlock(&op)) {
      emitSegment(segment, builder);
      segment.clear();
      emitControl(&op, builder);
      continue;
    }
    // A uniform value that replaces a per-thread carried one is stored
    // into its array by each thread: it stays in the segment.
    if (llvm::all_of(
            op.getResults(),
            [&](Value v) { return isUniform(v) && !spill.count(v); }) &&
        op.getNumResults() && isMemoryEffectFree(&op) &&
        op.getNumRegions() == 0)
      builder.clone(op, mapping);
    else if (op.getNumResults() == 1 && isRecomputable(op.getResult(0)) &&
             !spill.count(op.getResult(0)))
      continue; // computed where it is used
    else
      segment.push_back(&op);
  }
  emitSegment(segment, builder);
}

void Fission::emitThreadLoop(OpBuilder &builder, Location loc,
                             function_ref<void(OpBuilder &, Value)> body) {
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value dims[3];
  for (int d = 0; d < 3; ++d)
    dims[d] = gpu::BlockDimOp::create(builder, loc, static_cast<gpu::Dimension>(d));
  // z outermost, x innermost, the thread id stored into the context.
  OpBuilder::InsertionGuard guard(builder);
  Value ids[3];
  for (int d = 2; d >= 0; --d) {
    auto loop = scf::ForOp::create(builder, loc, zero, dims[d], one);
    builder.setInsertionPointToStart(loop.getBody());
    ids[d] = loop.getInductionVar();
    Value id64 =
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), ids[d]);
    Value slot = LLVM::GEPOp::create(
        builder, loc, ptr, builder.getI8Type(), contextArg(),
        ArrayRef<LLVM::GEPArg>{int32_t(kContextThreadId + 8 * d)});
    LLVM::StoreOp::create(builder, loc, id64, slot);
  }
  Value linear = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(
          builder, loc,
          arith::AddIOp::create(
              builder, loc, arith::MulIOp::create(builder, loc, ids[2], dims[1]),
              ids[1]),
          dims[0]),
      ids[0]);
  body(builder, linear);
}

void Fission::emitSegment(ArrayRef<Operation *> ops, OpBuilder &builder) {
  if (ops.empty())
    return;
  emitThreadLoop(builder, ops.front()->getLoc(),
                 [&](OpBuilder &builder, Value linear) {
  Location loc = ops.front()->getLoc();
  // Crossing values from other segments are loaded once per thread; the
  // mapping is restored afterwards so later segments load their own.
  llvm::SmallPtrSet<Operation *, 16> here;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) { here.insert(nested); });
  SmallVector<Value> loaded;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        if (mapping.contains(operand) || here.contains(operand.getDefiningOp()))
          continue;
        if (spill.count(operand)) {
          Value value = memref::LoadOp::create(builder, loc, spill[operand],
                                               ValueRange{linear});
          mapping.map(operand, value);
          loaded.push_back(operand);
        } else if (isRecomputable(operand)) {
          // Thread ids are read again from the context, which the thread
          // loop set; arithmetic on them is done again.
          recompute(builder, operand, loaded);
        }
      }
    });
  for (Operation *op : ops) {
    Operation *clone = builder.clone(*op, mapping);
    for (auto [original, copy] :
         llvm::zip(op->getResults(), clone->getResults()))
      if (spill.count(original))
        memref::StoreOp::create(builder, loc, copy, spill[original],
                                ValueRange{linear});
  }
  // Values defined in this segment are per-thread: later segments reload.
  for (Operation *op : ops) {
    op->walk([&](Operation *nested) {
      for (Value result : nested->getResults())
        mapping.erase(result);
    });
  }
  for (Value value : loaded)
    mapping.erase(value);
  });
}

void Fission::emitControl(Operation *op, OpBuilder &builder) {
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    // Each thread's initial carried values go into their arrays first.
    for (auto [arg, init] : llvm::zip(loop.getRegionIterArgs(),
                                      loop.getInitArgs())) {
      // A carried value that continues an outer one shares its array.
      if (!threadCarried.contains(arg) || spill.lookup(init) == spill[arg])
        continue;
      emitThreadLoop(builder, loop.getLoc(), [&](OpBuilder &b, Value linear) {
        Value value;
        SmallVector<Value> recomputed;
        if (isUniform(init))
          value = mapping.lookup(init);
        else if (spill.count(init))
          value = memref::LoadOp::create(b, loop.getLoc(), spill[init],
                                         ValueRange{linear});
        else
          value = recompute(b, init, recomputed);
        memref::StoreOp::create(b, loop.getLoc(), value, spill[arg],
                                ValueRange{linear});
        for (Value done : recomputed)
          mapping.erase(done);
      });
    }
    SmallVector<Value> inits;
    for (auto [arg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
      if (!threadCarried.contains(arg))
        inits.push_back(mapping.lookup(init));
    auto copy = scf::ForOp::create(
        builder, loop.getLoc(), mapping.lookup(loop.getLowerBound()),
        mapping.lookup(loop.getUpperBound()), mapping.lookup(loop.getStep()),
        inits);
    Block *body = copy.getBody();
    mapping.map(loop.getInductionVar(), copy.getInductionVar());
    unsigned next = 0;
    for (auto [arg, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getResults())) {
      if (threadCarried.contains(arg))
        continue;
      mapping.map(arg, copy.getRegionIterArgs()[next]);
      mapping.map(result, copy.getResult(next));
      ++next;
    }
    if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
      body->back().erase();
    OpBuilder inner = OpBuilder::atBlockEnd(body);
    emitBlock(*loop.getBody(), inner);
    return;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    bool withElse = !branch.getElseRegion().empty();
    auto copy = scf::IfOp::create(builder, branch.getLoc(),
                                  mapping.lookup(branch.getCondition()),
                                  withElse);
    copy.getThenRegion().front().getTerminator()->erase();
    OpBuilder thenBuilder = OpBuilder::atBlockEnd(&copy.getThenRegion().front());
    emitBlock(branch.getThenRegion().front(), thenBuilder);
    if (withElse) {
      copy.getElseRegion().front().getTerminator()->erase();
      OpBuilder elseBuilder =
          OpBuilder::atBlockEnd(&copy.getElseRegion().front());
      emitBlock(branch.getElseRegion().front(), elseBuilder);
    }
    return;
  }
  auto loop = cast<scf::WhileOp>(op);
  auto copy = scf::WhileOp::create(
      builder, loop.getLoc(), loop.getResultTypes(),
      llvm::to_vector(llvm::map_range(
          loop.getInits(), [&](Value v) { return mapping.lookup(v); })));
  // The `before` region is uniform: cloned as it is.
  Block &before = loop.getBefore().front();
  Block *newBefore = builder.createBlock(&copy.getBefore());
  for (BlockArgument arg : before.getArguments())
    mapping.map(arg, newBefore->addArgument(arg.getType(), arg.getLoc()));
  OpBuilder beforeBuilder = OpBuilder::atBlockEnd(newBefore);
  for (Operation &nested : before)
    beforeBuilder.clone(nested, mapping);
  Block &after = loop.getAfter().front();
  Block *newAfter = builder.createBlock(&copy.getAfter());
  for (BlockArgument arg : after.getArguments())
    mapping.map(arg, newAfter->addArgument(arg.getType(), arg.getLoc()));
  OpBuilder afterBuilder = OpBuilder::atBlockEnd(newAfter);
  emitBlock(after, afterBuilder);
  builder.setInsertionPointAfter(copy);
  for (auto [from, to] : llvm::zip(loop.getResults(), copy.getResults()))
    mapping.map(from, to);
}

} // namespace

func::FuncOp gpumem::cpu::createBarrierFreeBlockFunction(
    func::FuncOp kernel, StringRef name,
    const llvm::DenseSet<Operation *> &fiberFunctions, bool phaseMarkers,
    bool onlyForOutsideLoops) {
  Fission fission(kernel, fiberFunctions, phaseMarkers);
  if (!fission.analyze() || (onlyForOutsideLoops && !fission.hasOutsideLoops()))
    return nullptr;
  return fission.emit(name);
}
