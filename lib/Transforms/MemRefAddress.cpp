//===----------------------------------------------------------------------===//
// Where an access of a strided memref lands (MemRefAddress.h).
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/MemRefAddress.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

Value gpumem::getLinearElement(OpBuilder &builder, Location loc, Value memref,
                               ValueRange indices, Value *lastStride) {
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides())) {
    linear = arith::AddIOp::create(
        builder, loc, linear,
        arith::MulIOp::create(builder, loc, index, stride));
    if (lastStride)
      *lastStride = stride;
  }
  return linear;
}

Value gpumem::getElementAddress(OpBuilder &builder, Location loc, Value memref,
                                Value linear, int64_t elementBytes) {
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
  return arith::AddIOp::create(
      builder, loc, aligned,
      arith::MulIOp::create(
          builder, loc, linear,
          arith::ConstantIndexOp::create(builder, loc, elementBytes)));
}
