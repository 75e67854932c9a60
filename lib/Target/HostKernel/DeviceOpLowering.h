//===----------------------------------------------------------------------===//
// What the per-op lowerings of a GPU dialect's device ops to host code
// (cuda-emu's NVVM patterns, rocm-emu's ROCDL patterns) share: the builder
// each pattern uses in front of its op (constants, thread context fields,
// the linear thread id, services->warpSync in the function's waiting mode),
// the pattern base, and the lowering of a block-wide barrier
// (DeviceOpLowering.cpp). What only one dialect needs stays in its target's
// folder.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEOPLOWERING_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEOPLOWERING_H

#include "DeviceFunctions.h"
#include "HostCode.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

#include <iterator>

namespace gpumem::hostkernel {

/// Builds the lowering of one op in front of it, in the function `state`
/// describes.
class DeviceOpEmitter {
public:
  DeviceOpEmitter(mlir::PatternRewriter &rewriter, mlir::Operation *op,
                  const DeviceFunctionState &state)
      : op(op), builder(rewriter), loc(op->getLoc()),
        access(rewriter, loc, state.context), context(state.context),
        layout(state.layout), coroutine(state.waiting != Waiting::Fibers) {
    rewriter.setInsertionPoint(op);
  }

  mlir::Value constant(mlir::Type type, int64_t value) {
    return mlir::LLVM::ConstantOp::create(builder, loc, type,
                                          builder.getIntegerAttr(type, value));
  }
  mlir::Value i32(int64_t value) {
    return constant(builder.getI32Type(), value);
  }
  mlir::Value i64(int64_t value) {
    return constant(builder.getI64Type(), value);
  }
  /// An i64 converted to `type` (an integer type).
  mlir::Value fromI64(mlir::Value value, mlir::Type type) {
    unsigned width = type.getIntOrFloatBitWidth();
    if (width == 64)
      return value;
    if (width < 64)
      return mlir::LLVM::TruncOp::create(builder, loc, type, value);
    return mlir::LLVM::ZExtOp::create(builder, loc, type, value);
  }
  /// An integer or float of up to 64 bits as an i64: its bits,
  /// zero-extended.
  mlir::Value toI64(mlir::Value value) {
    mlir::Type type = value.getType();
    if (mlir::isa<mlir::FloatType>(type))
      value = mlir::LLVM::BitcastOp::create(
          builder, loc, builder.getIntegerType(type.getIntOrFloatBitWidth()),
          value);
    if (value.getType().getIntOrFloatBitWidth() == 64)
      return value;
    return mlir::LLVM::ZExtOp::create(builder, loc, builder.getI64Type(),
                                      value);
  }
  /// The op's location as a string constant ("file:line:col"), which the
  /// runtime's reports name.
  mlir::Value location() {
    return getLocationString(builder, loc,
                             op->getParentOfType<mlir::gpu::GPUModuleOp>());
  }
  /// The i64 field at `offset` + 8 * `dim` of the thread context.
  mlir::Value field(int64_t offset, int dim) {
    return access.load(context, offset + 8 * dim, builder.getI64Type());
  }
  /// The thread's linear id in its block (x fastest, as GPUs fill warps),
  /// as an i64.
  mlir::Value linearThreadId();
  /// services->warpSync of `warpOp` (GPUMemWarpOp) over `mask` (an integer
  /// of up to the ABI's member mask width, zero-extended to it) with
  /// `value` (i64), `b` and `c` (i32); in a coroutine kernel the thread
  /// suspends after it and reads the result with services->warpSyncResult.
  /// *predicate (an i1, from a stack slot the service writes) when asked
  /// for.
  mlir::Value warpSync(int32_t warpOp, mlir::Value mask, mlir::Value value,
                       mlir::Value b, mlir::Value c,
                       mlir::Value *predicate = nullptr);

  /// In a coroutine kernel, the thread suspends after the op just built.
  void suspendAfterLastCall() {
    if (!coroutine)
      return;
    mlir::Operation *last = &*std::prev(builder.getInsertionPoint());
    last->setAttr(kSuspendAfterAttr, builder.getUnitAttr());
  }

  mlir::Operation *op;
  mlir::OpBuilder &builder;
  mlir::Location loc;
  ContextAccess access;
  mlir::Value context;
  const SharedLayout &layout;
  bool coroutine;
};

/// A pattern lowering `Op` in the function `state` describes.
template <typename Op> class DevicePattern : public mlir::OpRewritePattern<Op> {
public:
  DevicePattern(mlir::MLIRContext *context, DeviceFunctionState &state)
      : mlir::OpRewritePattern<Op>(context), state(state) {}

protected:
  DeviceFunctionState &state;
};

/// A barrier every thread of the block reaches, built by `emit` in a
/// function that waits the `waiting` way: services->barrier, or with
/// Waiting::BarrierCoroutine a store of its location to ctx->barrierAt
/// (no service call); a coroutine kernel suspends after it.
void emitBlockBarrier(DeviceOpEmitter &emit, Waiting waiting);

/// A block-wide barrier op `Op` (nvvm.barrier0, rocdl.barrier, ...):
/// emitBlockBarrier in the function's waiting mode, and the op goes.
template <typename Op> class BlockBarrierPattern : public DevicePattern<Op> {
public:
  using DevicePattern<Op>::DevicePattern;

  mlir::LogicalResult
  matchAndRewrite(Op op, mlir::PatternRewriter &rewriter) const override {
    DeviceOpEmitter emit(rewriter, op, this->state);
    emitBlockBarrier(emit, this->state.waiting);
    rewriter.eraseOp(op);
    return mlir::success();
  }
};

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEOPLOWERING_H
