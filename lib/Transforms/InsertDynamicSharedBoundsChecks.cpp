//===----------------------------------------------------------------------===//
// gpumem-insert-dynamic-shared-bounds-checks: run-time bounds checks of
// the views of gpu.dynamic_shared_memory, opt in.
//
// Algorithm, on every function of a gpu.module: before each view whose
// source is a gpu.dynamic_shared_memory (memref.view, memref.subview,
// memref.reinterpret_cast), compute the bytes [begin, end) it can address
// and compare end with `memref.dim` of the dynamic shared memory, the bytes
// the launch passed (the NVVM path reads it from %dynamic_smem_size, the cpu
// target from the launch). Out of bounds, the thread prints the function,
// offset, size and launch size with gpu.printf and fails a cf.assert at the
// view's location, which stops the program on every target.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMINSERTDYNAMICSHAREDBOUNDSCHECKSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// The bytes [begin, end) a strided i8 view with `offset`, `sizes` and
/// `strides` (in elements of one byte) can address; [offset, offset) when a
/// size is 0.
std::pair<Value, Value> stridedRange(OpBuilder &builder, Location loc,
                                     OpFoldResult offset,
                                     ArrayRef<OpFoldResult> sizes,
                                     ArrayRef<OpFoldResult> strides) {
  Value begin = getValueOrCreateConstantIndexOp(builder, loc, offset);
  Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(builder, loc, 1);
  Value last = begin;
  Value empty = arith::ConstantIntOp::create(builder, loc, 0, 1);
  for (auto [sizeOfr, strideOfr] : llvm::zip(sizes, strides)) {
    Value size = getValueOrCreateConstantIndexOp(builder, loc, sizeOfr);
    Value stride = getValueOrCreateConstantIndexOp(builder, loc, strideOfr);
    Value isZero =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, size, c0);
    empty = arith::OrIOp::create(builder, loc, empty, isZero);
    Value steps = arith::SubIOp::create(builder, loc, size, c1);
    Value span = arith::MulIOp::create(builder, loc, steps, stride);
    last = arith::AddIOp::create(builder, loc, last, span);
  }
  Value pastLast = arith::AddIOp::create(builder, loc, last, c1);
  Value end = arith::SelectOp::create(builder, loc, empty, begin, pastLast);
  return {begin, end};
}

/// The bytes [begin, end) `view` of dynamic shared memory can address.
std::optional<std::pair<Value, Value>> byteRange(OpBuilder &builder,
                                                 Operation *view) {
  Location loc = view->getLoc();
  if (auto typed = dyn_cast<memref::ViewOp>(view)) {
    MemRefType type = typed.getType();
    Value bytes = gpumem::createBufferBytes(
        builder, loc, type, typed.getSizes(),
        DataLayout::closest(view).getTypeSize(type.getElementType()));
    Value begin = typed.getByteShift();
    return std::make_pair(
        begin, arith::AddIOp::create(builder, loc, begin, bytes).getResult());
  }
  if (auto sub = dyn_cast<memref::SubViewOp>(view))
    return stridedRange(builder, loc, sub.getMixedOffsets()[0],
                        sub.getMixedSizes(), sub.getMixedStrides());
  if (auto cast = dyn_cast<memref::ReinterpretCastOp>(view))
    return stridedRange(builder, loc, cast.getMixedOffsets()[0],
                        cast.getMixedSizes(), cast.getMixedStrides());
  return std::nullopt;
}

struct InsertDynamicSharedBoundsChecksPass
    : gpumem::impl::GPUMemInsertDynamicSharedBoundsChecksPassBase<
          InsertDynamicSharedBoundsChecksPass> {
  void runOnOperation() override {
    SmallVector<std::pair<gpu::DynamicSharedMemoryOp, Operation *>> views;
    getOperation().walk([&](gpu::DynamicSharedMemoryOp dynamic) {
      for (Operation *user : dynamic->getUsers())
        if (isa<memref::ViewOp, memref::SubViewOp, memref::ReinterpretCastOp>(
                user) &&
            user->getOperand(0) == dynamic.getResult())
          views.push_back({dynamic, user});
    });
    for (auto [dynamic, view] : views) {
      insertCheck(dynamic, view);
      ++numChecks;
    }
  }

  void insertCheck(gpu::DynamicSharedMemoryOp dynamic, Operation *view) {
    OpBuilder builder(view);
    Location loc = view->getLoc();
    std::optional<std::pair<Value, Value>> range = byteRange(builder, view);
    if (!range)
      return;
    auto [begin, end] = *range;
    Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
    Value launched = memref::DimOp::create(builder, loc, dynamic, c0);
    Value endFits = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ule, end, launched);
    Value ordered = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ule, begin, end);
    Value inBounds = arith::AndIOp::create(builder, loc, endFits, ordered);
    Value outOfBounds =
        arith::XOrIOp::create(builder, loc, inBounds,
                              arith::ConstantIntOp::create(builder, loc, 1, 1));

    auto func = view->getParentOfType<FunctionOpInterface>();
    auto kernel = dyn_cast<gpu::GPUFuncOp>(func.getOperation());
    std::string what =
        (kernel && kernel.isKernel() ? "kernel '" : "function '") +
        func.getName().str() + "'";
    auto ifOp = scf::IfOp::create(builder, loc, outOfBounds);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value bytes = arith::SubIOp::create(builder, loc, end, begin);
    gpu::PrintfOp::create(
        builder, loc,
        builder.getStringAttr(
            "gpumem: error: " + what +
            ": view of dynamic shared memory at byte offset %llu, size "
            "%llu bytes, is past the %llu bytes the launch passed\n"),
        ValueRange{begin, bytes, launched});
    cf::AssertOp::create(builder, loc,
                         arith::ConstantIntOp::create(builder, loc, 0, 1),
                         "view of dynamic shared memory out of bounds");
  }
};

} // namespace
