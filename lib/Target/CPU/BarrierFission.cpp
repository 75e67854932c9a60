//===----------------------------------------------------------------------===//
// Thread-loop fission: a block-wide, barrier-free copy of a kernel for the
// cpu target.
//
// A kernel whose barriers sit in block-uniform structured control flow can
// run a whole block without fibers (and a kernel without barriers whose
// uniform loops vectorize outside the thread loops gains from the same
// form): split its body at every gpu.barrier into segments, run each
// segment as a loop over the block's threads (z, y, x, storing the thread
// id into the context as run_blocks does), and keep the values a thread
// computes in one segment and uses in a later one in a per-thread array.
// Running the threads of a segment one after another is a legal schedule of the
// barrier-separated phases.
//
// Algorithm: steps 1 and 2 (which ops run per block, what is uniform,
// which values cross segments) are FissionPlan.cpp's.
//  3. Emission, by recursion over the blocks: uniform ops are cloned once,
//     outside thread loops; the other ops of a segment are cloned inside a
//     thread loop nest, loading crossing values from their arrays and
//     storing crossing results into them, and computing again what the
//     plan says to compute again; ops that run per block are rebuilt
//     around their transformed regions.
//===----------------------------------------------------------------------===//

#include "BarrierFission.h"
#include "../HostKernel/HostCode.h"
#include "FissionPlan.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstddef>
#include <optional>

using namespace mlir;
using namespace gpumem;

namespace {

constexpr int64_t kContextThreadId = offsetof(GPUMemThreadContext, threadId);

/// Step 3: builds the block-wide function from a kernel and its plan.
class Fission {
public:
  Fission(func::FuncOp source, cpu::FissionPlan &plan, bool phaseMarkers)
      : source(source), plan(plan), phaseMarkers(phaseMarkers) {}

  /// The block-wide function, inserted after `source`.
  func::FuncOp emit(StringRef name);

private:
  bool runsPerBlock(Operation *op) { return plan.runsPerBlock(op); }
  bool isUniform(Value value) { return plan.isUniform(value); }
  bool isRecomputable(Value value) { return plan.isRecomputable(value); }
  /// `value` (recomputable) in the thread loop at `builder`; what it maps
  /// is recorded in `mapped`.
  Value recompute(OpBuilder &builder, Value value,
                  SmallVectorImpl<Value> &mapped);
  /// `value` in the thread loop whose linear thread id is `linear`: as
  /// mapped, loaded from its per-thread array (at `loc`), or computed
  /// again; what it maps is recorded in `mapped`.
  Value perThread(OpBuilder &builder, Location loc, Value value, Value linear,
                  SmallVectorImpl<Value> &mapped);
  /// A loop nest over the block's threads; `body` gets the linear thread id.
  void emitThreadLoop(OpBuilder &builder, Location loc,
                      function_ref<void(OpBuilder &, Value)> body);
  void emitBlock(Block &block, OpBuilder &builder);
  void emitSegment(ArrayRef<Operation *> ops, OpBuilder &builder);
  void emitControl(Operation *op, OpBuilder &builder);
  Value contextArg() { return target.getArguments().back(); }

  func::FuncOp source;
  cpu::FissionPlan &plan;
  bool phaseMarkers;
  func::FuncOp target;
  IRMapping mapping;
  llvm::DenseMap<Value, Value> spill; // crossing value -> its per-thread array
};

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
Value Fission::perThread(OpBuilder &builder, Location loc, Value value,
                         Value linear, SmallVectorImpl<Value> &mapped) {
  if (Value known = mapping.lookupOrNull(value))
    return known;
  Value array = spill.lookup(value);
  if (!array)
    return recompute(builder, value, mapped);
  Value loaded =
      memref::LoadOp::create(builder, loc, array, ValueRange{linear});
  mapping.map(value, loaded);
  mapped.push_back(value);
  return loaded;
}

func::FuncOp Fission::emit(StringRef name) {
  OpBuilder builder(source->getContext());
  builder.setInsertionPointAfter(source);
  target = func::FuncOp::create(builder, source.getLoc(), name,
                                source.getFunctionType());
  hostkernel::makeInternal(target);
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
    for (auto [arg, yielded, result] : llvm::zip(
             loop.getRegionIterArgs(),
             loop.getBody()->getTerminator()->getOperands(), loop.getResults()))
      if (plan.isThreadCarried(arg)) {
        Value array = spill.lookup(yielded);
        if (!array)
          array = makeArray(arg);
        spill[arg] = array;
        spill[yielded] = array;
        spill[result] = array;
      }
  });
  for (Value value : plan.crossingValues())
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
        hostkernel::ContextAccess(builder, op.getLoc(), contextArg())
            .call(GPUMEM_RUNTIME_SERVICE(blockPhase), {contextArg()});
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
          if (!plan.isThreadCarried(arg))
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
    dims[d] =
        gpu::BlockDimOp::create(builder, loc, static_cast<gpu::Dimension>(d));
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
              builder, loc,
              arith::MulIOp::create(builder, loc, ids[2], dims[1]), ids[1]),
          dims[0]),
      ids[0]);
  body(builder, linear);
}

void Fission::emitSegment(ArrayRef<Operation *> ops, OpBuilder &builder) {
  if (ops.empty())
    return;
  emitThreadLoop(
      builder, ops.front()->getLoc(), [&](OpBuilder &builder, Value linear) {
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
              if (mapping.contains(operand) ||
                  here.contains(operand.getDefiningOp()))
                continue;
              // Thread ids are read again from the context, which the thread
              // loop set; arithmetic on them is done again.
              if (spill.count(operand) || isRecomputable(operand))
                perThread(builder, loc, operand, linear, loaded);
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
    for (auto [arg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs())) {
      // A carried value that continues an outer one shares its array.
      if (!plan.isThreadCarried(arg) || spill.lookup(init) == spill[arg])
        continue;
      emitThreadLoop(builder, loop.getLoc(), [&](OpBuilder &b, Value linear) {
        SmallVector<Value> mapped;
        Value value = perThread(b, loop.getLoc(), init, linear, mapped);
        memref::StoreOp::create(b, loop.getLoc(), value, spill[arg],
                                ValueRange{linear});
        for (Value done : mapped)
          mapping.erase(done);
      });
    }
    SmallVector<Value> inits;
    for (auto [arg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
      if (!plan.isThreadCarried(arg))
        inits.push_back(mapping.lookup(init));
    auto copy = scf::ForOp::create(builder, loop.getLoc(),
                                   mapping.lookup(loop.getLowerBound()),
                                   mapping.lookup(loop.getUpperBound()),
                                   mapping.lookup(loop.getStep()), inits);
    Block *body = copy.getBody();
    mapping.map(loop.getInductionVar(), copy.getInductionVar());
    unsigned next = 0;
    for (auto [arg, result] :
         llvm::zip(loop.getRegionIterArgs(), loop.getResults())) {
      if (plan.isThreadCarried(arg))
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
    auto copy =
        scf::IfOp::create(builder, branch.getLoc(),
                          mapping.lookup(branch.getCondition()), withElse);
    copy.getThenRegion().front().getTerminator()->erase();
    OpBuilder thenBuilder =
        OpBuilder::atBlockEnd(&copy.getThenRegion().front());
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
  // Racecheck reports the first conflicting pair it sees: it keeps the
  // threads' program order, one thread's iterations after another's, so
  // under phase markers no loop moves out of the thread loops.
  std::optional<cpu::FissionPlan> plan;
  plan.emplace(kernel, fiberFunctions, /*moveLoops=*/!phaseMarkers);
  bool fits = plan->analyze();
  if (!fits && plan->hasOutsideLoops()) {
    // Some chosen loop does not fit (say, its bound turned out to be
    // carried per thread): plan again without moving any.
    plan.emplace(kernel, fiberFunctions, /*moveLoops=*/false);
    fits = plan->analyze();
  }
  if (!fits || (onlyForOutsideLoops && !plan->hasOutsideLoops()))
    return nullptr;
  return Fission(kernel, *plan, phaseMarkers).emit(name);
}
