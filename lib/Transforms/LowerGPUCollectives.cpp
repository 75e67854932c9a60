//===----------------------------------------------------------------------===//
// gpumem-lower-gpu-collectives: gpu.all_reduce, gpu.subgroup_reduce
// (clustered or not) and gpu.subgroup_id become shuffles, barriers and
// thread-id arithmetic, with upstream's GPU rewrite patterns applied
// greedily (a subgroup of `subgroup-size` lanes, 32 unless the target's
// wavefront is 64, 32-bit shuffles; wider values are split);
// gpu.subgroup_size becomes that size and gpu.num_subgroups the block's
// threads divided by it, rounded up. With all-reduce=false, gpu.all_reduce
// stays (the vulkan target lowers it through workgroup memory); with
// subgroups of 64 lanes it is an error, since upstream's rewrite assumes 32.
// The driver does not gather constants: it would hoist the user's constants
// to the entry block and erase their locations, so that a later error about
// one (an index constant the vulkan target cannot represent, say) had none.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERGPUCOLLECTIVESPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

constexpr unsigned kShuffleBits = 32;

/// gpu.subgroup_size becomes the subgroup's lanes.
struct LowerSubgroupSize : OpRewritePattern<gpu::SubgroupSizeOp> {
  LowerSubgroupSize(MLIRContext *context, unsigned lanes)
      : OpRewritePattern(context), lanes(lanes) {}
  LogicalResult matchAndRewrite(gpu::SubgroupSizeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, lanes);
    return success();
  }
  unsigned lanes;
};

/// gpu.num_subgroups becomes the block's threads divided by the subgroup's
/// lanes, rounded up.
struct LowerNumSubgroups : OpRewritePattern<gpu::NumSubgroupsOp> {
  LowerNumSubgroups(MLIRContext *context, unsigned lanes)
      : OpRewritePattern(context), lanes(lanes) {}
  LogicalResult matchAndRewrite(gpu::NumSubgroupsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value threads = gpu::BlockDimOp::create(rewriter, loc, gpu::Dimension::x);
    for (gpu::Dimension dim : {gpu::Dimension::y, gpu::Dimension::z})
      threads = arith::MulIOp::create(
          rewriter, loc, threads, gpu::BlockDimOp::create(rewriter, loc, dim));
    Value subgroup = arith::ConstantIndexOp::create(rewriter, loc, lanes);
    rewriter.replaceOpWithNewOp<arith::CeilDivUIOp>(op, threads, subgroup);
    return success();
  }
  unsigned lanes;
};

struct LowerGPUCollectivesPass
    : gpumem::impl::GPUMemLowerGPUCollectivesPassBase<LowerGPUCollectivesPass> {
  using GPUMemLowerGPUCollectivesPassBase::GPUMemLowerGPUCollectivesPassBase;
  void runOnOperation() override {
    if (subgroupSize != 32 && subgroupSize != 64) {
      getOperation().emitError() << "subgroup-size " << subgroupSize.getValue()
                                 << " is not supported; expected 32 or 64";
      return signalPassFailure();
    }
    unsigned lanes = subgroupSize;
    // Upstream's gpu.all_reduce rewrite reduces in subgroups of 32 lanes
    // with shuffles of width 32: in a 64-lane wavefront the upper 32 lanes
    // are past that width, and their partial results would be wrong.
    if (allReduce && lanes != 32) {
      WalkResult wide = getOperation().walk([&](gpu::AllReduceOp op) {
        op.emitOpError() << "is not supported with subgroups of " << lanes
                         << " lanes yet (upstream's lowering reduces in "
                            "subgroups of 32)";
        return WalkResult::interrupt();
      });
      if (wide.wasInterrupted())
        return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    if (allReduce)
      populateGpuAllReducePatterns(patterns);
    populateGpuSubgroupIdPatterns(patterns);
    populateGpuBreakDownSubgroupReducePatterns(patterns, kShuffleBits);
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, lanes,
                                                    kShuffleBits);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(patterns, lanes,
                                                             kShuffleBits);
    populateGpuShufflePatterns(patterns);
    patterns.add<LowerSubgroupSize, LowerNumSubgroups>(&getContext(), lanes);
    GreedyRewriteConfig config;
    config.enableConstantCSE(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation().emitError() << "rewriting GPU collectives did not "
                                    "converge";
      signalPassFailure();
    }
  }
};

} // namespace
