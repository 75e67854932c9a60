//===----------------------------------------------------------------------===//
// Loops the device left early, reported instead of silently wrong results.
//
// Mesa's llvmpipe (behind lavapipe, the Vulkan device of machines without a
// GPU) gives each shader invocation a budget of 65535 loop iterations, all
// loops together, and leaves every loop once it is spent, as if it had
// ended. Splitting a long loop into nested ones does not help (they share
// the budget), so the vulkan target checks instead that each loop ran to
// its end, which costs one carried value and one comparison after the
// loop, never a test inside it:
//   scf.for: an extra carried value holds the next induction value (lb
//     before the first iteration, iv + step after each); a loop that ended
//     has next >= ub, one that was left early next < ub;
//   scf.while: the condition is also forwarded; a loop that ended forwards
//     false, one that was left early true.
// After the loop, a cf.assert at the loop's location says which loop it was
// and why; the runtime reports a failed one as the launch's error. The
// check is exact: a loop that ends by itself never fails it, on any device.
//===----------------------------------------------------------------------===//

#include "LoopCompletionChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

static constexpr llvm::StringLiteral kMessage =
    "the Vulkan device left this loop before its end: Mesa's llvmpipe "
    "(lavapipe) runs at most 65535 loop iterations per thread, all loops "
    "together; the cpu and cuda-emu targets have no such limit";

/// Asserts after `loop` that `leftEarly` is false.
static void assertCompleted(OpBuilder &builder, Location loc, Value leftEarly) {
  Value trueValue = arith::ConstantIntOp::create(builder, loc, 1, 1);
  Value completed = arith::XOrIOp::create(builder, loc, leftEarly, trueValue);
  cf::AssertOp::create(builder, loc, completed, kMessage);
}

static void checkFor(scf::ForOp loop) {
  IRRewriter rewriter(loop);
  Location loc = loop.getLoc();
  Value step = loop.getStep();
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, loop.getLowerBound(), /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> newArgs) {
        Value iv = newArgs.front().getOwner()->getArgument(0);
        return SmallVector<Value>{arith::AddIOp::create(b, l, iv, step)};
      });
  if (failed(replaced))
    return;
  auto checked = cast<scf::ForOp>(replaced->getOperation());
  rewriter.setInsertionPointAfter(checked);
  Value next = checked.getResults().back();
  Value leftEarly = arith::CmpIOp::create(rewriter, loc,
                                          checked.getUnsignedCmp()
                                              ? arith::CmpIPredicate::ult
                                              : arith::CmpIPredicate::slt,
                                          next, checked.getUpperBound());
  assertCompleted(rewriter, loc, leftEarly);
}

static void checkWhile(scf::WhileOp loop) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Type> types(loop.getResultTypes());
  types.push_back(builder.getI1Type());
  auto checked = scf::WhileOp::create(builder, loc, types, loop.getInits());
  checked.getBefore().takeBody(loop.getBefore());
  checked.getAfter().takeBody(loop.getAfter());
  checked.getAfterBody()->addArgument(builder.getI1Type(), loc);
  scf::ConditionOp condition = checked.getConditionOp();
  condition.getArgsMutable().append(condition.getCondition());
  loop.replaceAllUsesWith(checked.getResults().drop_back());
  loop.erase();
  builder.setInsertionPointAfter(checked);
  assertCompleted(builder, loc, checked.getResults().back());
}

void gpumem::vulkan::checkLoopsComplete(gpu::GPUModuleOp module) {
  SmallVector<Operation *> loops;
  module.walk([&](Operation *op) {
    if (isa<scf::ForOp, scf::WhileOp>(op))
      loops.push_back(op);
  });
  for (Operation *op : loops) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      checkFor(loop);
    else
      checkWhile(cast<scf::WhileOp>(op));
  }
}
