//===----------------------------------------------------------------------===//
// nvgpu's asynchronous copies on the cpu target, one conversion pattern per
// op (run by lowerFragmentsAndAsyncCopies, which turns the tokens into i32).
// As on cuda-emu, a copy's data lands at the wait that covers its group,
// not when it is issued (decision 146): device_async_copy becomes a call of
// @__gpumem_async_copy with the addresses of its first destination and
// source elements, its bytes and the bytes it reads (src-elements; the rest
// is zero-filled), create_group one of @__gpumem_async_commit and
// device_async_wait one of @__gpumem_async_wait with numGroups (-1 without:
// every copy). Once the functions take the thread context, these calls
// become the runtime's services asyncCopyIssue, asyncCopyGroup and
// asyncCopyWaitGroups (GPUToCPUServices.cpp), which keep each thread's
// copies in flight and perform them at its wait (runtime/cpu/
// PTXAsyncCopies.cpp). Tokens become 0: the runtime counts groups itself.
// A copy that only copies, async copies, commits and ops without memory
// effects separate from a wait for every committed group, in its block,
// is copied at issue instead, with a vector load and store (or a masked
// load that zero-fills past src-elements): no access can tell the two
// apart, and the common cp.async; commit; wait_group 0 keeps its
// vectorized form (markAsyncCopiesToPerformAtIssue); when every copy of the
// module is such, commits and waits have nothing to do and are dropped.
// For --sanitize=memcheck each queued copy is preceded by a vector.load of its
// destination (and of its source, unless src-elements may shorten it)
// marked gpumem.async_copy_probe ("to", "from"), which the sanitizer checks for
// bounds only; unused, it costs nothing once LLVM drops it.
//===----------------------------------------------------------------------===//

#include "LowerMMAToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

/// The declaration of `name` in the gpu.module around `op`, made once.
func::FuncOp declaration(ConversionPatternRewriter &rewriter, Operation *op,
                         StringRef name, TypeRange inputs) {
  auto module = op->getParentOfType<gpu::GPUModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  auto func = func::FuncOp::create(rewriter, module.getLoc(), name,
                                   rewriter.getFunctionType(inputs, {}));
  func.setPrivate();
  return func;
}

/// The address of `memref`[`indices`] as an i64.
Value addressOf(OpBuilder &b, Location loc, Value memref, ValueRange indices,
                int64_t elementBytes) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value bytes = arith::MulIOp::create(
      b, loc, linear, arith::ConstantIndexOp::create(b, loc, elementBytes));
  Value address = arith::AddIOp::create(b, loc, aligned, bytes);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
}

constexpr llvm::StringLiteral kCopyNow = "gpumem.async_copy_now";

/// Copies at issue: a vector load and store, or a masked load that
/// zero-fills past src-elements.
void copyNow(nvgpu::DeviceAsyncCopyOp op,
             nvgpu::DeviceAsyncCopyOp::Adaptor adaptor,
             ConversionPatternRewriter &rewriter) {
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
}

struct AsyncCopyLowering : OpConversionPattern<nvgpu::DeviceAsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (op->hasAttr(kCopyNow)) {
      copyNow(op, adaptor, rewriter);
      rewriter.replaceOp(op, zeroOf(rewriter, loc, rewriter.getI32Type()));
      return success();
    }
    Type element = op.getSrc().getType().getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
      return rewriter.notifyMatchFailure(op, "element without a byte size");
    int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
    int64_t count = op.getDstElements().getSExtValue();
    auto type = VectorType::get({count}, element);
    vector::LoadOp::create(rewriter, loc, type, adaptor.getDst(),
                           adaptor.getDstIndices())
        ->setAttr("gpumem.async_copy_probe", rewriter.getStringAttr("to"));
    auto i32 = rewriter.getI32Type();
    auto i64 = rewriter.getI64Type();
    Value bytes =
        arith::ConstantIntOp::create(rewriter, loc, i32, count * elementBytes);
    Value srcBytes = bytes;
    if (Value srcElements = adaptor.getSrcElements()) {
      Value read = arith::MulIOp::create(
          rewriter, loc, srcElements,
          arith::ConstantIndexOp::create(rewriter, loc, elementBytes));
      srcBytes = arith::IndexCastOp::create(rewriter, loc, i32, read);
    } else {
      vector::LoadOp::create(rewriter, loc, type, adaptor.getSrc(),
                             adaptor.getSrcIndices())
          ->setAttr("gpumem.async_copy_probe", rewriter.getStringAttr("from"));
    }
    Value dst = addressOf(rewriter, loc, adaptor.getDst(),
                          adaptor.getDstIndices(), elementBytes);
    Value src = addressOf(rewriter, loc, adaptor.getSrc(),
                          adaptor.getSrcIndices(), elementBytes);
    func::FuncOp callee =
        declaration(rewriter, op, "__gpumem_async_copy", {i64, i64, i32, i32});
    func::CallOp::create(rewriter, loc, callee,
                         ValueRange{dst, src, bytes, srcBytes});
    rewriter.replaceOp(op, zeroOf(rewriter, loc, i32));
    return success();
  }
};

struct AsyncGroupLowering
    : OpConversionPattern<nvgpu::DeviceAsyncCreateGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncCreateGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->hasAttr(kCopyNow)) {
      func::FuncOp callee =
          declaration(rewriter, op, "__gpumem_async_commit", {});
      func::CallOp::create(rewriter, op.getLoc(), callee, ValueRange{});
    }
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
    if (op->hasAttr(kCopyNow)) {
      rewriter.eraseOp(op);
      return success();
    }
    auto i32 = rewriter.getI32Type();
    int64_t groups = 0; // all committed groups, as NVVM lowers it
    if (std::optional<uint32_t> numGroups = op.getNumGroups())
      groups = int64_t(*numGroups);
    Value count =
        arith::ConstantIntOp::create(rewriter, op.getLoc(), i32, groups);
    func::FuncOp callee =
        declaration(rewriter, op, "__gpumem_async_wait", {i32});
    func::CallOp::create(rewriter, op.getLoc(), callee, ValueRange{count});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void gpumem::cpu::markAsyncCopiesToPerformAtIssue(Operation *root) {
  root->walk([&](nvgpu::DeviceAsyncCopyOp copy) {
    bool committed = false;
    for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
      if (auto wait = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op)) {
        std::optional<uint32_t> groups = wait.getNumGroups();
        if (committed && (!groups || *groups == 0))
          copy->setAttr(kCopyNow, UnitAttr::get(copy.getContext()));
        return;
      }
      if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op)) {
        committed = true;
        continue;
      }
      // Other copies, and ops that touch no memory, may come between.
      if (isa<nvgpu::DeviceAsyncCopyOp>(op) ||
          (op->getNumRegions() == 0 && isMemoryEffectFree(op)))
        continue;
      return;
    }
  });
  bool every = true;
  root->walk(
      [&](nvgpu::DeviceAsyncCopyOp copy) { every &= copy->hasAttr(kCopyNow); });
  // Then no copy is ever queued, and commits and waits have nothing to do.
  if (every)
    root->walk([](Operation *op) {
      if (isa<nvgpu::DeviceAsyncCreateGroupOp, nvgpu::DeviceAsyncWaitOp>(op))
        op->setAttr(kCopyNow, UnitAttr::get(op->getContext()));
    });
}

void gpumem::cpu::populateAsyncCopyToCPUPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<AsyncCopyLowering, AsyncGroupLowering, AsyncWaitLowering>(
      converter, patterns.getContext());
}
