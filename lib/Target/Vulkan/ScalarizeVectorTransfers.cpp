//===----------------------------------------------------------------------===//
// 1-D vector transfers as scalar memory accesses.
//
// SPIR-V vectors have at most 4 elements (16 with an extension few devices
// have), and gpumem's Vulkan kernel ABI addresses memory only through
// memref.load and memref.store on a root. So a transfer of vector<N x T>
// along a memref's last dimension becomes N scalar accesses at index + k:
//   transfer_write: memref.store (vector.extract %v[k]), and when the
//     dimension is not known in bounds, inside scf.if (index + k < dim);
//   transfer_read: memref.load, or the padding value outside the bounds,
//     then vector.from_elements;
//   vector.load and vector.store (in bounds by definition) of a 1-D vector
//     the same way, without guards; vector.maskedload/maskedstore and
//     vector.gather/scatter with a guard per element on its mask bit (the
//     gather's index vector added to the last index).
// Masked transfers, other permutation maps and tensors are left alone
// (the conversion then names them). With them come folds that make the
// vectors of typical kernels (build a row, convert it, write it out)
// disappear: vector.extract of vector.from_elements is the element,
// vector.extract of an elementwise op is the op on the extracted operands,
// and vector.extract of a shuffle (what interleave and deinterleave become)
// is the extraction of the element the shuffle picks; a slice of
// vector.from_elements (how wide vectors are unrolled to SPIR-V's) is the
// vector of its elements.
//===----------------------------------------------------------------------===//

#include "ScalarizeVectorTransfers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// Whether `op` moves a 1-D vector along its memref's last dimension
/// without a mask; `vector` is its vector type.
bool isScalarizable(VectorTransferOpInterface op, VectorType vector) {
  auto memref = dyn_cast<MemRefType>(op.getShapedType());
  return memref && vector.getRank() == 1 && !vector.isScalable() &&
         !op.getMask() && memref.getRank() >= 1 &&
         op.getPermutationMap().isMinorIdentity();
}

/// index + k of the last dimension, and whether it is inside the memref
/// (null when the transfer is in bounds).
std::pair<SmallVector<Value>, Value>
elementIndices(PatternRewriter &rewriter, VectorTransferOpInterface op,
               int64_t k) {
  Location loc = op.getLoc();
  SmallVector<Value> indices(op.getIndices());
  Value offset = arith::ConstantIndexOp::create(rewriter, loc, k);
  indices.back() = arith::AddIOp::create(rewriter, loc, indices.back(), offset);
  if (op.isDimInBounds(0))
    return {indices, Value()};
  Value size = memref::DimOp::create(rewriter, loc, op.getBase(),
                                     op.getShapedType().getRank() - 1);
  Value inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       indices.back(), size);
  return {indices, inside};
}

struct ScalarizeTransferWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferWriteOp op,
                                PatternRewriter &rewriter) const override {
    VectorType vector = op.getVectorType();
    if (!isScalarizable(op, vector) || op.getNumResults())
      return failure();
    Location loc = op.getLoc();
    for (int64_t k = 0, n = vector.getDimSize(0); k < n; ++k) {
      Value element = vector::ExtractOp::create(rewriter, loc, op.getVector(),
                                                ArrayRef<int64_t>{k});
      auto [indices, inside] = elementIndices(rewriter, op, k);
      if (!inside) {
        memref::StoreOp::create(rewriter, loc, element, op.getBase(), indices);
        continue;
      }
      auto guard = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
      OpBuilder::InsertionGuard insertion(rewriter);
      rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
      memref::StoreOp::create(rewriter, loc, element, op.getBase(), indices);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ScalarizeTransferRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType vector = op.getVectorType();
    if (!isScalarizable(op, vector))
      return failure();
    Location loc = op.getLoc();
    Type element = vector.getElementType();
    if (op.getPadding().getType() != element)
      return failure();
    SmallVector<Value> elements;
    for (int64_t k = 0, n = vector.getDimSize(0); k < n; ++k) {
      auto [indices, inside] = elementIndices(rewriter, op, k);
      if (!inside) {
        elements.push_back(
            memref::LoadOp::create(rewriter, loc, op.getBase(), indices));
        continue;
      }
      auto guard = scf::IfOp::create(rewriter, loc, TypeRange{element}, inside,
                                     /*withElse=*/true);
      OpBuilder::InsertionGuard insertion(rewriter);
      rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
      Value loaded =
          memref::LoadOp::create(rewriter, loc, op.getBase(), indices);
      scf::YieldOp::create(rewriter, loc, loaded);
      rewriter.setInsertionPointToStart(&guard.getElseRegion().front());
      scf::YieldOp::create(rewriter, loc, op.getPadding());
      elements.push_back(guard.getResult(0));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vector, elements);
    return success();
  }
};

/// The indices of element k of a 1-D vector.load or vector.store at
/// `indices`: k added to the last.
SmallVector<Value> shiftLast(PatternRewriter &rewriter, Location loc,
                             ValueRange indices, int64_t k) {
  SmallVector<Value> shifted(indices);
  if (k)
    shifted.back() =
        arith::AddIOp::create(rewriter, loc, shifted.back(),
                              arith::ConstantIndexOp::create(rewriter, loc, k));
  return shifted;
}

struct ScalarizeVectorLoad : OpRewritePattern<vector::LoadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::LoadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType vector = op.getVectorType();
    if (vector.getRank() != 1 || vector.isScalable() ||
        op.getMemRefType().getRank() < 1 ||
        vector.getElementType() != op.getMemRefType().getElementType())
      return failure();
    SmallVector<Value> elements;
    for (int64_t k = 0, n = vector.getDimSize(0); k < n; ++k)
      elements.push_back(memref::LoadOp::create(
          rewriter, op.getLoc(), op.getBase(),
          shiftLast(rewriter, op.getLoc(), op.getIndices(), k)));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vector, elements);
    return success();
  }
};

struct ScalarizeVectorStore : OpRewritePattern<vector::StoreOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::StoreOp op,
                                PatternRewriter &rewriter) const override {
    VectorType vector = op.getVectorType();
    if (vector.getRank() != 1 || vector.isScalable() ||
        op.getMemRefType().getRank() < 1 ||
        vector.getElementType() != op.getMemRefType().getElementType())
      return failure();
    Location loc = op.getLoc();
    for (int64_t k = 0, n = vector.getDimSize(0); k < n; ++k) {
      Value element = vector::ExtractOp::create(
          rewriter, loc, op.getValueToStore(), ArrayRef<int64_t>{k});
      memref::StoreOp::create(rewriter, loc, element, op.getBase(),
                              shiftLast(rewriter, loc, op.getIndices(), k));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Element k of a masked or gathering access: its element loaded where the
/// mask is set, the pass-through value elsewhere (`store`: stored where the
/// mask is set), at the last index plus `offset`.
Value maskedElement(PatternRewriter &rewriter, Location loc, Value mask,
                    int64_t k, Value base, ValueRange indices, Value offset,
                    Value passThru, Value toStore) {
  Value set =
      vector::ExtractOp::create(rewriter, loc, mask, ArrayRef<int64_t>{k});
  SmallVector<Value> at(indices);
  at.back() = arith::AddIOp::create(rewriter, loc, at.back(), offset);
  OpBuilder::InsertionGuard insertion(rewriter);
  if (toStore) {
    Value element =
        vector::ExtractOp::create(rewriter, loc, toStore, ArrayRef<int64_t>{k});
    auto guard = scf::IfOp::create(rewriter, loc, set, /*withElse=*/false);
    rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
    memref::StoreOp::create(rewriter, loc, element, base, at);
    return Value();
  }
  Value fallback =
      vector::ExtractOp::create(rewriter, loc, passThru, ArrayRef<int64_t>{k});
  auto guard = scf::IfOp::create(rewriter, loc, TypeRange{fallback.getType()},
                                 set, /*withElse=*/true);
  rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
  Value loaded = memref::LoadOp::create(rewriter, loc, base, at);
  scf::YieldOp::create(rewriter, loc, loaded);
  rewriter.setInsertionPointToStart(&guard.getElseRegion().front());
  scf::YieldOp::create(rewriter, loc, fallback);
  return guard.getResult(0);
}

/// The offset of element k along the last dimension: k, or element k of a
/// gather's or scatter's index vector.
Value elementOffset(PatternRewriter &rewriter, Location loc, Value indexVec,
                    int64_t k) {
  if (!indexVec)
    return arith::ConstantIndexOp::create(rewriter, loc, k);
  Value index =
      vector::ExtractOp::create(rewriter, loc, indexVec, ArrayRef<int64_t>{k});
  if (index.getType().isIndex())
    return index;
  return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                    index);
}

/// The base indices of a masked or gathering access and, for a gather or
/// scatter, its index vector; failure unless it moves a 1-D vector through
/// a memref.
template <typename Op>
FailureOr<std::pair<SmallVector<Value>, Value>> maskedPlace(Op op) {
  VectorType vector = op.getVectorType();
  auto memref = dyn_cast<MemRefType>(op.getBase().getType());
  if (vector.getRank() != 1 || vector.isScalable() || !memref ||
      memref.getRank() < 1)
    return failure();
  if constexpr (std::is_same_v<Op, vector::GatherOp> ||
                std::is_same_v<Op, vector::ScatterOp>)
    return std::make_pair(SmallVector<Value>(op.getOffsets()),
                          Value(op.getIndices()));
  else
    return std::make_pair(SmallVector<Value>(op.getIndices()), Value());
}

/// vector.maskedload and vector.gather of 1-D vectors as guarded scalar
/// loads.
template <typename Op> struct ScalarizeMaskedRead : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;

  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    auto place = maskedPlace(op);
    if (failed(place))
      return failure();
    auto &[at, indexVec] = *place;
    VectorType vector = op.getVectorType();
    Location loc = op.getLoc();
    SmallVector<Value> elements;
    for (int64_t k = 0, n = vector.getDimSize(0); k < n; ++k)
      elements.push_back(
          maskedElement(rewriter, loc, op.getMask(), k, op.getBase(), at,
                        elementOffset(rewriter, loc, indexVec, k),
                        op.getPassThru(), Value()));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, vector, elements);
    return success();
  }
};

/// vector.maskedstore and vector.scatter of 1-D vectors as guarded scalar
/// stores.
template <typename Op> struct ScalarizeMaskedWrite : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;

  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    auto place = maskedPlace(op);
    if (failed(place))
      return failure();
    auto &[at, indexVec] = *place;
    VectorType vector = op.getVectorType();
    Location loc = op.getLoc();
    for (int64_t k = 0, n = vector.getDimSize(0); k < n; ++k)
      maskedElement(rewriter, loc, op.getMask(), k, op.getBase(), at,
                    elementOffset(rewriter, loc, indexVec, k), Value(),
                    op.getValueToStore());
    rewriter.eraseOp(op);
    return success();
  }
};

/// vector.deinterleave of a 1-D vector as two shuffles (its even and its
/// odd elements), which SPIR-V has and element extraction sees through.
struct DeinterleaveToShuffles : OpRewritePattern<vector::DeinterleaveOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::DeinterleaveOp op,
                                PatternRewriter &rewriter) const override {
    VectorType source = op.getSourceVectorType();
    if (source.getRank() != 1 || source.isScalable())
      return failure();
    int64_t half = source.getDimSize(0) / 2;
    SmallVector<int64_t> even, odd;
    for (int64_t k = 0; k < half; ++k) {
      even.push_back(2 * k);
      odd.push_back(2 * k + 1);
    }
    Value vector = op.getSource();
    Value evens =
        vector::ShuffleOp::create(rewriter, op.getLoc(), vector, vector, even);
    Value odds =
        vector::ShuffleOp::create(rewriter, op.getLoc(), vector, vector, odd);
    rewriter.replaceOp(op, {evens, odds});
    return success();
  }
};

/// vector.extract %s[k] of a 1-D vector.shuffle as the extraction of the
/// element the shuffle's mask picks, so shuffles of vectors SPIR-V cannot
/// hold (more than 4 elements) fold away element by element.
struct ExtractOfShuffle : OpRewritePattern<vector::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    auto shuffle = op.getSource().getDefiningOp<vector::ShuffleOp>();
    if (!shuffle || op.hasDynamicPosition() ||
        op.getStaticPosition().size() != 1 ||
        shuffle.getV1VectorType().getRank() != 1)
      return failure();
    int64_t picked = shuffle.getMask()[op.getStaticPosition()[0]];
    int64_t firstSize = shuffle.getV1VectorType().getDimSize(0);
    if (picked < 0)
      return failure(); // a poison element
    Value from = picked < firstSize ? shuffle.getV1() : shuffle.getV2();
    int64_t at = picked < firstSize ? picked : picked - firstSize;
    rewriter.replaceOpWithNewOp<vector::ExtractOp>(op, from,
                                                   ArrayRef<int64_t>{at});
    return success();
  }
};

/// vector.extract %r[k] of an elementwise op's 1-D result as the op on
/// element k of its operands, so vectors built, converted and written
/// element by element fold away.
struct ExtractOfElementwise : OpRewritePattern<vector::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    Operation *producer = op.getSource().getDefiningOp();
    if (!producer || producer->getNumResults() != 1 ||
        producer->getNumRegions() ||
        !producer->hasTrait<OpTrait::Elementwise>() ||
        op.getSourceVectorType().getRank() != 1 ||
        !op.getStaticPosition().size() || op.hasDynamicPosition())
      return failure();
    int64_t position = op.getStaticPosition()[0];
    SmallVector<Value> operands;
    for (Value operand : producer->getOperands()) {
      if (!isa<VectorType>(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      operands.push_back(vector::ExtractOp::create(
          rewriter, op.getLoc(), operand, ArrayRef<int64_t>{position}));
    }
    OperationState state(op.getLoc(), producer->getName());
    state.addOperands(operands);
    state.addTypes(op.getType());
    state.addAttributes(producer->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// A 1-D vector.extract_strided_slice of a vector.from_elements as the
/// vector of the sliced elements: the unrolling to SPIR-V's widths slices
/// a wide vector.load (a from_elements once scalarized) into vectors of 4.
struct SliceOfFromElements : OpRewritePattern<vector::ExtractStridedSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ExtractStridedSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto build = op.getSource().getDefiningOp<vector::FromElementsOp>();
    if (!build || op.getSourceVectorType().getRank() != 1 ||
        op.getType().getRank() != 1)
      return failure();
    int64_t offset = cast<IntegerAttr>(op.getOffsets()[0]).getInt();
    int64_t stride = cast<IntegerAttr>(op.getStrides()[0]).getInt();
    int64_t size = op.getType().getDimSize(0);
    SmallVector<Value> elements;
    for (int64_t k = 0; k < size; ++k)
      elements.push_back(build.getElements()[offset + k * stride]);
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, op.getType(),
                                                        elements);
    return success();
  }
};

} // namespace

void gpumem::vulkan::populateScalarizeVectorTransferPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ScalarizeTransferWrite, ScalarizeTransferRead,
               ScalarizeVectorLoad, ScalarizeVectorStore, ExtractOfElementwise,
               DeinterleaveToShuffles, ExtractOfShuffle, SliceOfFromElements,
               ScalarizeMaskedRead<vector::MaskedLoadOp>,
               ScalarizeMaskedRead<vector::GatherOp>,
               ScalarizeMaskedWrite<vector::MaskedStoreOp>,
               ScalarizeMaskedWrite<vector::ScatterOp>>(context);
  vector::populateVectorInterleaveToShufflePatterns(patterns);
  vector::ExtractOp::getCanonicalizationPatterns(patterns, context);
  vector::FromElementsOp::getCanonicalizationPatterns(patterns, context);
}
