//===----------------------------------------------------------------------===//
// What the rocm-emu per-op lowerings share (populateROCDLToCPUPatterns):
// the builder each pattern uses in front of its op (thread context fields,
// the linear work-item id, services->warpSync in the function's waiting
// mode), the pattern base, and the populate function of the cross-lane
// ops. ROCDLOps.cpp lowers ids, barriers, waits, mbcnt and printf and is
// the entry point; ROCDLWarpOps.cpp lowers the cross-lane ops.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_ROCMEMU_ROCDLOPLOWERING_H
#define GPUMEM_LIB_TARGET_ROCMEMU_ROCDLOPLOWERING_H

#include "ROCDLToCPU.h"

#include "../HostKernel/DeviceFunctions.h"
#include "../HostKernel/HostCode.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace gpumem::rocmemu::rocdlops {

using hostkernel::DeviceFunctionState;
using hostkernel::SharedLayout;
using hostkernel::Waiting;

/// Builds the lowering of one op in front of it, in the function `state`
/// describes.
class Emitter {
public:
  Emitter(mlir::PatternRewriter &rewriter, mlir::Operation *op,
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
  mlir::Value location() {
    return hostkernel::getLocationString(
        builder, loc, op->getParentOfType<mlir::gpu::GPUModuleOp>());
  }
  /// The i64 field at `offset` + 8 * `dim` of the thread context.
  mlir::Value field(int64_t offset, int dim) {
    return access.load(context, offset + 8 * dim, builder.getI64Type());
  }
  /// (ROCDLOps.cpp) The work-item's linear id in its workgroup (x fastest,
  /// as AMD GPUs fill wavefronts), as an i64.
  mlir::Value linearThreadId();
  /// (ROCDLWarpOps.cpp) services->warpSync of `warpOp` (GPUMemWarpOp) over
  /// `mask` (i32, zero-extended to the ABI's member mask) with `value`
  /// (i64), `b` and `c` (i32); in a coroutine kernel the thread suspends
  /// after it and reads the result with services->warpSyncResult.
  mlir::Value warpSync(int32_t warpOp, mlir::Value mask, mlir::Value value,
                       mlir::Value b, mlir::Value c);

  /// In a coroutine kernel, the thread suspends after the op just built.
  void suspendAfterLastCall() {
    if (!coroutine)
      return;
    mlir::Operation *last = &*std::prev(builder.getInsertionPoint());
    last->setAttr(hostkernel::kSuspendAfterAttr, builder.getUnitAttr());
  }

  mlir::Operation *op;
  mlir::OpBuilder &builder;
  mlir::Location loc;
  hostkernel::ContextAccess access;
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

/// Whether `op` is one of the cross-lane ops of ROCDLWarpOps.cpp.
bool isCrossLaneOp(mlir::Operation *op);

/// The patterns of the cross-lane ops (ds_bpermute, ds_swizzle, readlane,
/// readfirstlane, ballot), in ROCDLWarpOps.cpp.
void populateCrossLanePatterns(mlir::RewritePatternSet &patterns,
                               DeviceFunctionState &state);

} // namespace gpumem::rocmemu::rocdlops

#endif // GPUMEM_LIB_TARGET_ROCMEMU_ROCDLOPLOWERING_H
