//===----------------------------------------------------------------------===//
// gpumem-lower-gpu-collectives: gpu.all_reduce, gpu.subgroup_reduce
// (clustered or not) and gpu.subgroup_id become shuffles, barriers and
// thread-id arithmetic, with upstream's GPU rewrite patterns applied
// greedily (a subgroup of `subgroup-size` lanes: 32, a wave64 chip's 64 or
// the size a vulkan device runs; 32-bit shuffles, wider values are split);
// gpu.subgroup_size becomes that size and gpu.num_subgroups the block's
// threads divided by it, rounded up. Upstream's gpu.all_reduce rewrite
// assumes 32 lanes: with any other size each kernel's all_reduce goes
// through workgroup memory instead (WorkgroupAllReduce.h). With
// all-reduce=false, gpu.all_reduce stays (the vulkan target lowers it
// after inlining device functions).
// The driver does not gather constants: it would hoist the user's constants
// to the entry block and erase their locations, so that a later error about
// one (an index constant the vulkan target cannot represent, say) had none.
//===----------------------------------------------------------------------===//

#include "gpumem/Runtime/Limits.h"
#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/WorkgroupAllReduce.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/MathExtras.h"

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
    unsigned lanes = subgroupSize;
    if (!llvm::isPowerOf2_32(lanes) || lanes > GPUMEM_MAX_SUBGROUP_SIZE) {
      getOperation().emitError()
          << "subgroup-size " << lanes << " is not a power of two from 1 to "
          << GPUMEM_MAX_SUBGROUP_SIZE;
      return signalPassFailure();
    }
    // Upstream's gpu.all_reduce rewrite reduces in subgroups of 32 lanes
    // with shuffles of width 32: with other subgroups (the upper 32 lanes of
    // a wave64, say, are past that width) its partial results would be
    // wrong, so kernels reduce through workgroup memory instead.
    bool upstreamAllReduce = allReduce && lanes == 32;
    if (allReduce && !upstreamAllReduce) {
      for (auto function : getOperation().getOps<gpu::GPUFuncOp>())
        if (function.isKernel() &&
            failed(gpumem::lowerAllReduceThroughWorkgroupMemory(
                function, GPUMEM_MAX_THREADS_PER_BLOCK)))
          return signalPassFailure();
      WalkResult left = getOperation().walk([&](gpu::AllReduceOp op) {
        op.emitOpError() << "outside a kernel is not supported with "
                            "subgroups of "
                         << lanes
                         << " lanes yet (it reduces through the kernel's "
                            "workgroup memory)";
        return WalkResult::interrupt();
      });
      if (left.wasInterrupted())
        return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    if (upstreamAllReduce)
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
