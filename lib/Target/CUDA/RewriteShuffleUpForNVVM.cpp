//===----------------------------------------------------------------------===//
// gpumem-rewrite-shuffle-up-for-nvvm: gpu.shuffle up with MLIR's meaning on
// NVIDIA GPUs, whatever its width.
//
// Upstream's NVVM lowering of `gpu.shuffle up` passes `32 - width` as the
// clamp of shfl.sync.up (member mask: the first `width` lanes), so with a
// width below 32 lane k is valid only when k - offset >= 32 - width: lane 5
// of a width-16 `up 2` comes back invalid with its own value instead of
// lane 3's. MLIR's `up` reads lane k - offset, valid when that is at least
// 0. Algorithm, on a gpu.module before the NVVM lowering: each `up` becomes
//   src   = lane_id - (offset & 31)        (PTX reads 5 bits of the offset)
//   r, v  = gpu.shuffle idx x, src, width  (idx's clamp is width - 1)
//   valid = v && src >= 0
//   value = valid ? r : x                  (PTX's value when invalid)
//===----------------------------------------------------------------------===//

#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMREWRITESHUFFLEUPFORNVVMPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct RewriteShuffleUpForNVVMPass
    : gpumem::impl::GPUMemRewriteShuffleUpForNVVMPassBase<
          RewriteShuffleUpForNVVMPass> {
  void runOnOperation() override {
    SmallVector<gpu::ShuffleOp> ups;
    getOperation().walk([&](gpu::ShuffleOp shuffle) {
      if (shuffle.getMode() == gpu::ShuffleMode::UP)
        ups.push_back(shuffle);
    });
    for (gpu::ShuffleOp up : ups)
      rewrite(up);
  }

  void rewrite(gpu::ShuffleOp up) {
    OpBuilder builder(up);
    Location loc = up.getLoc();
    Type i32 = builder.getI32Type();
    Value lane = arith::IndexCastOp::create(
        builder, loc, i32, gpu::LaneIdOp::create(builder, loc, nullptr));
    Value fiveBits = arith::ConstantIntOp::create(builder, loc, i32, 31);
    Value offset =
        arith::AndIOp::create(builder, loc, up.getOffset(), fiveBits);
    Value source = arith::SubIOp::create(builder, loc, lane, offset);
    auto idx = gpu::ShuffleOp::create(builder, loc, up.getValue(), source,
                                      up.getWidth(), gpu::ShuffleMode::IDX);
    Value zero = arith::ConstantIntOp::create(builder, loc, i32, 0);
    Value inRange = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sge, source, zero);
    Value valid = arith::AndIOp::create(builder, loc, idx.getValid(), inRange);
    Value value = arith::SelectOp::create(
        builder, loc, valid, idx.getShuffleResult(), up.getValue());
    up.getShuffleResult().replaceAllUsesWith(value);
    up.getValid().replaceAllUsesWith(valid);
    up.erase();
  }
};

} // namespace
