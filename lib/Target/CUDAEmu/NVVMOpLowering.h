//===----------------------------------------------------------------------===//
// What the cuda-emu per-op lowerings share (populateNVVMToCPUPatterns):
// the builder each pattern uses in front of its op, the pattern base, and
// the populate function of each file. NVVMOps.cpp lowers special registers,
// barriers, fences, printf and assert and is the entry point;
// NVVMWarpOps.cpp lowers the warp-level ops.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CUDAEMU_NVVMOPLOWERING_H
#define GPUMEM_LIB_TARGET_CUDAEMU_NVVMOPLOWERING_H

#include "NVVMToCPU.h"

#include "../HostKernel/HostCode.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

#include <iterator>

namespace gpumem::cudaemu::nvvmops {

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
  mlir::Value location() {
    return gpumem::hostkernel::getLocationString(
        builder, loc, op->getParentOfType<mlir::gpu::GPUModuleOp>());
  }
  /// (NVVMOps.cpp) The linear thread id in the block, as an i64.
  mlir::Value linearThreadId();
  /// (NVVMOps.cpp) The register as an i64.
  mlir::Value specialRegister(llvm::StringRef name);
  /// (NVVMWarpOps.cpp) services->warpSync; *predicate (an i1) when asked
  /// for.
  mlir::Value warpSync(int32_t warpOp, mlir::Value mask, mlir::Value value,
                       mlir::Value b, mlir::Value c, mlir::Value *predicate);
  /// The struct {value, predicate} of ops with a `return ... and is valid`
  /// form.
  mlir::Value pair(mlir::Type structType, mlir::Value value,
                   mlir::Value predicate) {
    mlir::Value result = mlir::LLVM::PoisonOp::create(builder, loc, structType);
    result = mlir::LLVM::InsertValueOp::create(builder, loc, result, value,
                                               llvm::ArrayRef<int64_t>{0});
    return mlir::LLVM::InsertValueOp::create(builder, loc, result, predicate,
                                             llvm::ArrayRef<int64_t>{1});
  }

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

/// The patterns of the warp-level ops (shfl, vote, redux, match and
/// bar.warp.sync), in NVVMWarpOps.cpp.
void populateWarpOpPatterns(mlir::RewritePatternSet &patterns,
                            DeviceFunctionState &state);

} // namespace gpumem::cudaemu::nvvmops

#endif // GPUMEM_LIB_TARGET_CUDAEMU_NVVMOPLOWERING_H
