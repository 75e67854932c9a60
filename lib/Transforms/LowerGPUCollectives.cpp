//===----------------------------------------------------------------------===//
// gpumem-lower-gpu-collectives: gpu.all_reduce, gpu.subgroup_reduce
// (clustered or not) and gpu.subgroup_id become shuffles, barriers and
// thread-id arithmetic, with upstream's GPU rewrite patterns applied
// greedily (warp of 32 lanes, 32-bit shuffles; wider values are split);
// gpu.subgroup_size becomes 32 and gpu.num_subgroups the block's threads
// divided by 32, rounded up. With all-reduce=false, gpu.all_reduce stays
// (the vulkan target lowers it through workgroup memory). The driver does
// not gather constants: it would hoist the user's constants to the entry
// block and erase their locations, so that a later error about one (an
// index constant the vulkan target cannot represent, say) had none.
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

constexpr unsigned kWarpSize = 32;
constexpr unsigned kShuffleBits = 32;

LogicalResult lowerSubgroupSize(gpu::SubgroupSizeOp op,
                                PatternRewriter &rewriter) {
  rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, kWarpSize);
  return success();
}

LogicalResult lowerNumSubgroups(gpu::NumSubgroupsOp op,
                                PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value threads = gpu::BlockDimOp::create(rewriter, loc, gpu::Dimension::x);
  for (gpu::Dimension dim : {gpu::Dimension::y, gpu::Dimension::z})
    threads = arith::MulIOp::create(
        rewriter, loc, threads, gpu::BlockDimOp::create(rewriter, loc, dim));
  Value warp = arith::ConstantIndexOp::create(rewriter, loc, kWarpSize);
  rewriter.replaceOpWithNewOp<arith::CeilDivUIOp>(op, threads, warp);
  return success();
}

struct LowerGPUCollectivesPass
    : gpumem::impl::GPUMemLowerGPUCollectivesPassBase<LowerGPUCollectivesPass> {
  using GPUMemLowerGPUCollectivesPassBase::GPUMemLowerGPUCollectivesPassBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (allReduce)
      populateGpuAllReducePatterns(patterns);
    populateGpuSubgroupIdPatterns(patterns);
    populateGpuBreakDownSubgroupReducePatterns(patterns, kShuffleBits);
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns, kWarpSize,
                                                    kShuffleBits);
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
        patterns, kWarpSize, kShuffleBits);
    populateGpuShufflePatterns(patterns);
    patterns.add(lowerSubgroupSize);
    patterns.add(lowerNumSubgroups);
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
