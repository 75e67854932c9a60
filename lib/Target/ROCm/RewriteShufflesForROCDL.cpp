//===----------------------------------------------------------------------===//
// gpumem-rewrite-shuffles-for-rocdl: gpu.shuffle with MLIR's meaning on AMD
// GPUs, whatever its mode and width.
//
// MLIR's (and gpumem's other targets') shuffle: only the first `width`
// lanes take part; lane k reads lane src (k ^ offset, k + offset,
// k - offset or offset), valid when 0 <= src < width, else it keeps its
// own value. Upstream's ROCDL lowering (ds_bpermute) splits the wavefront
// into segments of `width` lanes and only bounds src by the end of the
// lane's segment: `up` is valid below the segment's start (lane 0 of
// `up 1` reads lane 63, "valid"), and lanes at or past `width` shuffle
// among themselves instead of keeping their value.
//
// Algorithm, on a gpu.module with a #rocdl.target before the ROCDL
// lowering: `up` shuffles, and shuffles whose width is not the constant
// wavefront size (where both meanings agree and upstream may pick DPP or
// ds_swizzle), become
//   bits  = offset & (wavefront - 1)
//   src   = lane_id op bits                 (bits itself for idx)
//   w     = min(width, wavefront)
//   valid = lane_id < w && 0 <= src < w
//   r     = gpu.shuffle idx x, (valid ? src : lane_id), wavefront
//   value = valid ? r : x
//===----------------------------------------------------------------------===//

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Target/ROCm/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMREWRITESHUFFLESFORROCDLPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// The lanes of a wavefront the gpu.module's ROCDL target compiles for: its
/// wavefront-size feature, else its chip's default; 0 without a target.
unsigned getWavefrontSize(gpu::GPUModuleOp module) {
  ArrayAttr targets = module.getTargetsAttr();
  if (!targets)
    return 0;
  for (Attribute attr : targets) {
    auto target = dyn_cast<ROCDL::ROCDLTargetAttr>(attr);
    if (!target)
      continue;
    StringRef features = target.getFeatures();
    if (features.contains("+wavefrontsize32"))
      return 32;
    if (features.contains("+wavefrontsize64"))
      return 64;
    const gpumem::AMDGPUChip *chip = gpumem::lookupAMDGPUChip(target.getChip());
    return chip ? chip->defaultWavefrontSize : 64;
  }
  return 0;
}

struct RewriteShufflesForROCDLPass
    : gpumem::impl::GPUMemRewriteShufflesForROCDLPassBase<
          RewriteShufflesForROCDLPass> {
  void runOnOperation() override {
    unsigned wavefront = getWavefrontSize(getOperation());
    if (!wavefront)
      return;
    SmallVector<gpu::ShuffleOp> shuffles;
    getOperation().walk([&](gpu::ShuffleOp shuffle) {
      llvm::APInt width;
      bool fullWidth =
          matchPattern(shuffle.getWidth(), m_ConstantInt(&width)) &&
          width == wavefront;
      if (shuffle.getMode() == gpu::ShuffleMode::UP || !fullWidth)
        shuffles.push_back(shuffle);
    });
    for (gpu::ShuffleOp shuffle : shuffles)
      rewrite(shuffle, wavefront);
  }

  void rewrite(gpu::ShuffleOp shuffle, unsigned wavefront) {
    OpBuilder builder(shuffle);
    Location loc = shuffle.getLoc();
    Type i32 = builder.getI32Type();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(builder, loc, i32, value);
    };
    Value laneIndex = gpu::LaneIdOp::create(builder, loc, nullptr);
    Value lane = arith::IndexCastOp::create(builder, loc, i32, laneIndex);
    Value mask = constant(wavefront - 1);
    Value bits = arith::AndIOp::create(builder, loc, shuffle.getOffset(), mask);
    Value source;
    switch (shuffle.getMode()) {
    case gpu::ShuffleMode::XOR:
      source = arith::XOrIOp::create(builder, loc, lane, bits);
      break;
    case gpu::ShuffleMode::UP:
      source = arith::SubIOp::create(builder, loc, lane, bits);
      break;
    case gpu::ShuffleMode::DOWN:
      source = arith::AddIOp::create(builder, loc, lane, bits);
      break;
    case gpu::ShuffleMode::IDX:
      source = bits;
      break;
    }
    // One op after the other: the IR's order does not depend on the order
    // in which a compiler evaluates arguments.
    // A width past the wavefront (which MLIR does not allow, but the
    // verifier lets through) counts as the wavefront: no lane reads from a
    // lane that does not exist.
    Value wholeWavefront = constant(wavefront);
    Value width = arith::MinSIOp::create(builder, loc, shuffle.getWidth(),
                                         wholeWavefront);
    Value laneTakesPart = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, lane, width);
    Value zero = constant(0);
    Value fromStart = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sge, source, zero);
    Value belowWidth = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, source, width);
    Value inRange = arith::AndIOp::create(builder, loc, fromStart, belowWidth);
    Value valid = arith::AndIOp::create(builder, loc, laneTakesPart, inRange);
    Value safeSource =
        arith::SelectOp::create(builder, loc, valid, source, lane);
    auto idx =
        gpu::ShuffleOp::create(builder, loc, shuffle.getValue(), safeSource,
                               wholeWavefront, gpu::ShuffleMode::IDX);
    Value value = arith::SelectOp::create(
        builder, loc, valid, idx.getShuffleResult(), shuffle.getValue());
    shuffle.getShuffleResult().replaceAllUsesWith(value);
    shuffle.getValid().replaceAllUsesWith(valid);
    shuffle.erase();
  }
};

} // namespace
