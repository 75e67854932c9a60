//===----------------------------------------------------------------------===//
// gpu.shuffle of any width and mode as a full-width indexed shuffle.
//
// gpu.shuffle's semantics (which the cpu and cuda targets implement): only
// the first `width` lanes of the subgroup take part; lane L reads from
//   xor: L ^ o,  up: L - o,  down: L + o,  idx: o   (o = offset mod S)
// and the result is valid when L < width and that source lane is in
// [0, width); an invalid lane gets its own value. SPIR-V's group
// operations shuffle across the whole subgroup of S lanes, so upstream's
// lowering takes only width == S, and for `up` and `down` leaves lanes
// whose source is outside the subgroup undefined while calling them valid.
// Here the source lane and validity are computed as above, the lane reads
// from itself where invalid, and one `gpu.shuffle idx` of width S (which
// upstream lowers to OpGroupNonUniformShuffle) does the exchange: every
// source is a lane that takes part, so inactive lanes past `width` are
// never read. `xor` and `idx` of width S stay as they are (upstream's
// lowering is right for them).
//===----------------------------------------------------------------------===//

#include "ShuffleWidths.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LogicalResult.h"

using namespace mlir;

namespace {

std::optional<int64_t> constantWidth(gpu::ShuffleOp op) {
  APInt width;
  if (matchPattern(op.getWidth(), m_ConstantInt(&width)))
    return width.getSExtValue();
  return std::nullopt;
}

struct ShuffleAsFullWidthIndex : OpRewritePattern<gpu::ShuffleOp> {
  ShuffleAsFullWidthIndex(MLIRContext *context, uint32_t subgroupSize)
      : OpRewritePattern(context), subgroupSize(subgroupSize) {}

  LogicalResult matchAndRewrite(gpu::ShuffleOp op,
                                PatternRewriter &rewriter) const override {
    gpu::ShuffleMode mode = op.getMode();
    bool fullWidth = constantWidth(op) == int64_t(subgroupSize);
    if (fullWidth &&
        (mode == gpu::ShuffleMode::XOR || mode == gpu::ShuffleMode::IDX))
      return failure();
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, i32, value);
    };
    Value lane = arith::IndexCastOp::create(
        rewriter, loc, i32, gpu::LaneIdOp::create(rewriter, loc, nullptr));
    Value offset = arith::AndIOp::create(rewriter, loc, op.getOffset(),
                                         constant(subgroupSize - 1));
    Value source;
    switch (mode) {
    case gpu::ShuffleMode::XOR:
      source = arith::XOrIOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::UP:
      source = arith::SubIOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::DOWN:
      source = arith::AddIOp::create(rewriter, loc, lane, offset);
      break;
    case gpu::ShuffleMode::IDX:
      source = offset;
      break;
    }
    // Lanes past the subgroup do not exist, whatever a run-time width says.
    Value width = arith::MinSIOp::create(rewriter, loc, op.getWidth(),
                                         constant(subgroupSize));
    auto less = [&](Value a, Value b) -> Value {
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, a,
                                   b);
    };
    Value nonNegative = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge, source, constant(0));
    Value valid = arith::AndIOp::create(
        rewriter, loc,
        arith::AndIOp::create(rewriter, loc, less(lane, width),
                              less(source, width)),
        nonNegative);
    Value from = arith::SelectOp::create(rewriter, loc, valid, source, lane);
    auto exchange =
        gpu::ShuffleOp::create(rewriter, loc, op.getValue(), from,
                               constant(subgroupSize), gpu::ShuffleMode::IDX);
    rewriter.replaceOp(op, {exchange.getShuffleResult(), valid});
    return success();
  }

  uint32_t subgroupSize;
};

} // namespace

LogicalResult gpumem::vulkan::checkShuffleWidths(gpu::GPUModuleOp module,
                                                 uint32_t subgroupSize) {
  WalkResult walk = module.walk([&](gpu::ShuffleOp op) {
    std::optional<int64_t> width = constantWidth(op);
    if (!width || (*width >= 1 && *width <= int64_t(subgroupSize)))
      return WalkResult::advance();
    op.emitOpError() << "of width " << *width
                     << " in a kernel compiled for subgroups of "
                     << subgroupSize
                     << " lanes: the width must be 1 to the subgroup size "
                        "(the vulkan pipeline's subgroup-size option)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

void gpumem::vulkan::populateShuffleWidthPatterns(RewritePatternSet &patterns,
                                                  uint32_t subgroupSize) {
  patterns.add<ShuffleAsFullWidthIndex>(patterns.getContext(), subgroupSize);
}
