//===----------------------------------------------------------------------===//
// nvgpu's asynchronous copies on the cpu target, one conversion pattern per
// op (run by lowerFragmentsAndAsyncCopies, which turns the tokens into i32):
// device_async_copy copies when issued, a vector load and store of its
// elements, or a masked load that zero-fills past src-elements; the token is
// 0, create_group gives 0 and device_async_wait does nothing
// (docs/decisions.md: a forgotten wait is not caught here).
//===----------------------------------------------------------------------===//

#include "LowerMMAToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

struct AsyncCopyLowering : OpConversionPattern<nvgpu::DeviceAsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = op.getSrc().getType().getElementType();
    int64_t count = op.getDstElements().getSExtValue();
    auto type = VectorType::get({count}, element);
    Value data;
    if (Value srcElements = adaptor.getSrcElements()) {
      auto maskType = VectorType::get({count}, rewriter.getI1Type());
      Value mask = vector::CreateMaskOp::create(
          rewriter, loc, maskType, ArrayRef<OpFoldResult>{srcElements});
      data = vector::MaskedLoadOp::create(rewriter, loc, type, adaptor.getSrc(),
                                          adaptor.getSrcIndices(), mask,
                                          zeroOf(rewriter, loc, type));
    } else {
      data = vector::LoadOp::create(rewriter, loc, type, adaptor.getSrc(),
                                    adaptor.getSrcIndices());
    }
    vector::StoreOp::create(rewriter, loc, data, adaptor.getDst(),
                            adaptor.getDstIndices());
    rewriter.replaceOp(op, zeroOf(rewriter, loc, rewriter.getI32Type()));
    return success();
  }
};

struct AsyncGroupLowering
    : OpConversionPattern<nvgpu::DeviceAsyncCreateGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncCreateGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       zeroOf(rewriter, op.getLoc(), rewriter.getI32Type()));
    return success();
  }
};

struct AsyncWaitLowering : OpConversionPattern<nvgpu::DeviceAsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gpumem::cpu::populateAsyncCopyToCPUPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<AsyncCopyLowering, AsyncGroupLowering, AsyncWaitLowering>(
      converter, patterns.getContext());
}
