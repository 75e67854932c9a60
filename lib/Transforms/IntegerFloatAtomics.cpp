//===----------------------------------------------------------------------===//
// gpumem-integer-float-atomics: memref.generic_atomic_rmw on floats as the
// same operation on an integer view of the memref.
//
// For each generic_atomic_rmw whose element type is a float of 16, 32 or 64
// bits: a new one on `unrealized_conversion_cast(memref) : memref<...xiN>`
// (same shape, layout and memory space) whose body bitcasts the integer to
// the float, runs the original body and bitcasts its yield back; the
// result is bitcast to the float. Both memref types lower to the same LLVM
// descriptor, so reconcile-unrealized-casts removes the cast after the LLVM
// conversion, and the compare-and-swap loop is on integers, as LLVM
// requires.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMINTEGERFLOATATOMICSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

void retype(memref::GenericAtomicRMWOp op) {
  auto type = cast<MemRefType>(op.getMemref().getType());
  auto floatType = cast<FloatType>(type.getElementType());
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Type integer = builder.getIntegerType(floatType.getWidth());
  auto integerMemRef = MemRefType::get(type.getShape(), integer,
                                       type.getLayout(), type.getMemorySpace());
  Value view = UnrealizedConversionCastOp::create(builder, loc, integerMemRef,
                                                  op.getMemref())
                   .getResult(0);
  auto atomic =
      memref::GenericAtomicRMWOp::create(builder, loc, view, op.getIndices());
  Block &body = atomic.getRegion().front();
  OpBuilder inside = OpBuilder::atBlockBegin(&body);
  IRMapping mapping;
  mapping.map(op.getCurrentValue(),
              arith::BitcastOp::create(inside, loc, floatType,
                                       atomic.getCurrentValue()));
  for (Operation &nested : op.getRegion().front().without_terminator())
    inside.clone(nested, mapping);
  auto yield =
      cast<memref::AtomicYieldOp>(op.getRegion().front().getTerminator());
  Value result = mapping.lookupOrDefault(yield.getResult());
  memref::AtomicYieldOp::create(
      inside, loc, arith::BitcastOp::create(inside, loc, integer, result));
  op.replaceAllUsesWith(
      arith::BitcastOp::create(builder, loc, floatType, atomic.getResult())
          .getResult());
  op.erase();
}

struct IntegerFloatAtomicsPass
    : gpumem::impl::GPUMemIntegerFloatAtomicsPassBase<IntegerFloatAtomicsPass> {
  void runOnOperation() override {
    SmallVector<memref::GenericAtomicRMWOp> floats;
    getOperation()->walk([&](memref::GenericAtomicRMWOp op) {
      auto element = dyn_cast<FloatType>(
          cast<MemRefType>(op.getMemref().getType()).getElementType());
      if (element && llvm::is_contained({16u, 32u, 64u}, element.getWidth()))
        floats.push_back(op);
    });
    for (memref::GenericAtomicRMWOp op : floats)
      retype(op);
  }
};

} // namespace
