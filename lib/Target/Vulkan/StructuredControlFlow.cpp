//===----------------------------------------------------------------------===//
// Control flow shaped for upstream's SPIR-V conversion, which shaders need
// structured: branches in gpu.func bodies (an early gpu.return) are lifted
// to scf with upstream's CFG-to-SCF transformation, which lift-cf-to-scf
// applies to func.func only; lift-cf-to-scf leaves scf.index_switch (made an if
// chain here), scf.if with yield-only regions becomes arith.select (upstream
// would branch twice to one block), and a terminator reaching one block
// twice gets a forwarding block per extra edge (OpPhi names predecessor
// blocks). Upstream's scf.for lowering keeps the loop's results in function
// variables that only the body stores, so after each loop with results the
// inits are selected where it ran no iteration (lb >= ub).
//===----------------------------------------------------------------------===//

#include "StructuredControlFlow.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Transforms/CFGToSCF.h"

#include <functional>

using namespace mlir;

namespace {

/// scf.index_switch (what lift-cf-to-scf makes of a multi-way branch) as a
/// chain of scf.if, which SPIR-V's structured selection can express.
struct IndexSwitchToIfs : OpRewritePattern<scf::IndexSwitchOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::IndexSwitchOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Builds the chain from case `i` on; the default region ends it.
    std::function<void(unsigned, OpBuilder &, Region &)> fill =
        [&](unsigned i, OpBuilder &builder, Region &into) {
          Region &from = i < op.getNumCases() ? op.getCaseRegions()[i]
                                              : op.getDefaultRegion();
          IRMapping mapping;
          from.cloneInto(&into, mapping);
        };
    std::function<ValueRange(unsigned, OpBuilder &)> chain =
        [&](unsigned i, OpBuilder &builder) -> ValueRange {
      Value key =
          arith::ConstantIndexOp::create(builder, loc, op.getCases()[i]);
      Value matches = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, op.getArg(), key);
      auto ifOp = scf::IfOp::create(builder, loc, op.getResultTypes(), matches,
                                    /*withElseRegion=*/true);
      ifOp.getThenRegion().front().erase();
      fill(i, builder, ifOp.getThenRegion());
      ifOp.getElseRegion().front().erase();
      if (i + 1 < op.getNumCases()) {
        Block *elseBlock = builder.createBlock(&ifOp.getElseRegion());
        OpBuilder inner = OpBuilder::atBlockEnd(elseBlock);
        ValueRange results = chain(i + 1, inner);
        scf::YieldOp::create(inner, loc, results);
      } else {
        fill(i + 1, builder, ifOp.getElseRegion());
      }
      builder.setInsertionPointAfter(ifOp);
      return ifOp.getResults();
    };
    if (op.getNumCases() == 0) {
      // Only the default region: inline it.
      Block &body = op.getDefaultRegion().front();
      auto yield = cast<scf::YieldOp>(body.getTerminator());
      SmallVector<Value> results(yield.getOperands());
      rewriter.inlineBlockBefore(&body, op);
      rewriter.eraseOp(yield);
      rewriter.replaceOp(op, results);
      return success();
    }
    OpBuilder builder(op);
    ValueRange results = chain(0, builder);
    rewriter.replaceOp(op, SmallVector<Value>(results));
    return success();
  }
};

} // namespace

/// Gives every branch edge its own predecessor block: SPIR-V's OpPhi names
/// predecessor blocks, so a terminator reaching one block twice (cf.switch
/// cases or both arms of cf.cond_br) would make invalid SPIR-V. The second
/// and later edges go through a new block that only branches on.
namespace {
/// Upstream's lifting, with gpu.return where a gpu.func needs a terminator
/// for a path that never returns (upstream's makes a func.return).
struct GPUFuncControlFlowToSCF : ControlFlowToSCFTransformation {
  FailureOr<Operation *> createUnreachableTerminator(Location loc,
                                                     OpBuilder &builder,
                                                     Region &region) override {
    auto func = dyn_cast<gpu::GPUFuncOp>(region.getParentOp());
    if (!func)
      return ControlFlowToSCFTransformation::createUnreachableTerminator(
          loc, builder, region);
    SmallVector<Value> poison;
    for (Type type : func.getFunctionType().getResults())
      poison.push_back(ub::PoisonOp::create(builder, loc, type));
    return gpu::ReturnOp::create(builder, loc, poison).getOperation();
  }
};
} // namespace

LogicalResult gpumem::vulkan::liftGPUFuncControlFlow(gpu::GPUModuleOp module) {
  GPUFuncControlFlowToSCF transformation;
  for (auto func : module.getOps<gpu::GPUFuncOp>()) {
    if (func.getBody().hasOneBlock())
      continue;
    DominanceInfo dominance(func);
    if (failed(transformCFGToSCF(func.getBody(), transformation, dominance)))
      return func.emitOpError()
             << "has branches that cannot be made structured control flow, "
                "which SPIR-V needs";
  }
  return success();
}

void gpumem::vulkan::splitRepeatedEdges(gpu::GPUModuleOp module) {
  SmallVector<Operation *> terminators;
  module.walk([&](Operation *op) {
    if (op->getNumSuccessors() > 1)
      terminators.push_back(op);
  });
  for (Operation *terminator : terminators) {
    llvm::SmallPtrSet<Block *, 4> seen;
    for (unsigned i = 0, e = terminator->getNumSuccessors(); i < e; ++i) {
      Block *target = terminator->getSuccessor(i);
      if (seen.insert(target).second)
        continue;
      auto branch = cast<BranchOpInterface>(terminator);
      Block *forward = new Block();
      forward->insertBefore(target);
      SmallVector<Value> arguments;
      for (BlockArgument arg : target->getArguments())
        arguments.push_back(forward->addArgument(arg.getType(), arg.getLoc()));
      OpBuilder builder = OpBuilder::atBlockEnd(forward);
      cf::BranchOp::create(builder, terminator->getLoc(), target, arguments);
      (void)branch;
      terminator->setSuccessor(forward, i);
    }
  }
}

void gpumem::vulkan::populateStructuredControlFlowPatterns(
    RewritePatternSet &patterns) {
  patterns.add<IndexSwitchToIfs>(patterns.getContext());
  scf::IfOp::getCanonicalizationPatterns(patterns, patterns.getContext());
}

void gpumem::vulkan::selectInitsOfZeroTripLoops(gpu::GPUModuleOp module) {
  SmallVector<scf::ForOp> loops;
  module.walk([&](scf::ForOp loop) {
    if (loop.getNumResults())
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    OpBuilder builder(loop->getContext());
    builder.setInsertionPointAfter(loop);
    Location loc = loop.getLoc();
    Value ran =
        arith::CmpIOp::create(builder, loc,
                              loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                    : arith::CmpIPredicate::slt,
                              loop.getLowerBound(), loop.getUpperBound());
    for (auto [result, init] :
         llvm::zip_equal(loop.getResults(), loop.getInitArgs())) {
      Type type = result.getType();
      if (!type.isIntOrIndexOrFloat() && !isa<VectorType>(type))
        continue; // (memrefs are roots' indices by now)
      Value chosen = arith::SelectOp::create(builder, loc, ran, result, init);
      result.replaceAllUsesExcept(chosen, chosen.getDefiningOp());
    }
  }
}
