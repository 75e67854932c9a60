//===----------------------------------------------------------------------===//
// Tensor-core fragments and asynchronous copies on the cpu target.
//
// The gpu dialect leaves the layout of `!gpu.mma_matrix` opaque; the cpu
// target chooses one in which every thread computes alone, so these ops need
// no rendezvous of the warp (no fibers) and the warp does exactly M*N*K
// multiply-adds (decisions 135 and 147):
//  - a COp fragment (MxN) is the lane's share: S = ceil(M*N/32) consecutive
//    elements of the row-major matrix, lane l owning [l*S, l*S+S) (elements
//    past M*N are padding): a vector<S x T>. Lane l is gpu.lane_id. Every
//    accumulator the module computes with has 32 | M*N and S | N, so a
//    share is a segment of row l*M/32 starting at column l*S mod N;
//  - an AOp fragment (MxK) is the row of A the lane's share of C needs, row
//    floor(l*M/32) whatever N is: a vector<K x T>;
//  - a BOp fragment (KxN) is the S columns of B the share needs, from
//    column l*S mod N, row-major: a vector<K*S x T>, when every compute of
//    the module with B fragments of that shape has the same M (S follows
//    from it); else the whole matrix, row-major: a vector<K*N x T>;
//  - under --sanitize (lowerFragmentsAndAsyncCopies' wholeFragments) AOp
//    and BOp fragments are the whole matrix in every lane, so that the
//    sanitizer checks each lane's access to the warp's whole tile.
// With M = 1 (A) or M = 32 (B) a lane's part is the whole matrix anyway.
// Signed and unsigned i8 become i8 (the ops keep the signedness).
// Ops, each rewritten by one conversion pattern (dialect conversion, with
// scf.for/if/while carrying fragments converted structurally):
//  - load_matrix: element (r, c) is at `index + r*ld + c` (`c*ld + r` when
//    transposed) of the memref viewed as one row-major dimension; a whole
//    A/B loads every stored row as one vector, A's row one vector (K
//    elements when transposed), B's columns a vector per row (per column
//    when transposed, then a shuffle), C the lane's share (one vector when
//    it lies in one row).
//  - store_matrix: the lane's share, likewise.
//  - constant_matrix: a splat; elementwise: the arith op on the vectors.
//  - compute: the lane's share of C + A*B. Products and sums in f32 (i32
//    for integers), rounded to the result's type at the end. When the share
//    is a segment of one row (32 divides M*N, S divides N), each k adds
//    A[r][k] times the segment of B's row k: S-wide FMAs, in order of k (the
//    rounding of cuda-emu's and a sequential loop's). From a whole A or B
//    the row and the segment are chosen among the static slices by select.
//  - nvgpu's async copies: LowerAsyncCopiesToCPU.cpp; their tokens become
//    i32 here.
//===----------------------------------------------------------------------===//

#include "LowerMMAToCPU.h"

#include <cstdint>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

constexpr int64_t kLanes = 32;

bool isFragmentOrToken(Type type) {
  return isa<gpu::MMAMatrixType, nvgpu::DeviceAsyncTokenType>(type);
}

Type signless(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

/// Elements of a COp fragment each lane holds.
int64_t shareSize(int64_t rows, int64_t cols) {
  return llvm::divideCeil(rows * cols, kLanes);
}

/// Which M the computes of a module use with B fragments of each KxN shape
/// (-1: more than one), and whether A and B fragments are whole matrices.
struct FragmentLayout {
  bool wholeFragments = false;
  llvm::DenseMap<std::pair<int64_t, int64_t>, int64_t> bRows;

  FragmentLayout(gpu::GPUModuleOp module, bool wholeFragments)
      : wholeFragments(wholeFragments) {
    module.walk([&](gpu::SubgroupMmaComputeOp op) {
      ArrayRef<int64_t> b =
          cast<gpu::MMAMatrixType>(op.getOpB().getType()).getShape();
      int64_t m = cast<gpu::MMAMatrixType>(op.getOpA().getType()).getShape()[0];
      auto [it, inserted] = bRows.try_emplace({b[0], b[1]}, m);
      if (!inserted && it->second != m)
        it->second = -1;
    });
  }

  VectorType vectorOf(gpu::MMAMatrixType type) const {
    ArrayRef<int64_t> shape = type.getShape();
    int64_t size = shape[0] * shape[1];
    if (type.getOperand() == "COp") {
      size = shareSize(shape[0], shape[1]);
    } else if (!wholeFragments && type.getOperand() == "AOp") {
      size = shape[1];
    } else if (!wholeFragments) {
      auto it = bRows.find({shape[0], shape[1]});
      if (it != bRows.end() && it->second > 0)
        size = shape[0] * shareSize(it->second, shape[1]);
    }
    return VectorType::get({size}, signless(type.getElementType()));
  }
};

/// The lane's share starts at lane * S and is a segment of one row.
bool shareIsRowSegment(int64_t rows, int64_t cols) {
  int64_t share = shareSize(rows, cols);
  return (rows * cols) % kLanes == 0 && cols % share == 0;
}

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// `memref` as one dimension of unit stride from the start of the view to
/// its last element (extract_strided_metadata, reinterpret_cast), and
/// `indices` as a position in it: the address arithmetic a GPU does, bounded
/// by the view for --sanitize.
FailureOr<std::pair<Value, Value>> flatView(OpBuilder &b, Location loc,
                                            Value memref, ValueRange indices,
                                            Operation *op) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (type.getRank() == 0 ||
      failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return op->emitOpError()
           << "on the cpu target needs a strided memref whose last "
              "dimension is contiguous, not "
           << type;
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value one = constantIndex(b, loc, 1);
  Value flat = constantIndex(b, loc, 0);
  Value span = one;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value stride = metadata.getStrides()[d];
    flat = arith::AddIOp::create(
        b, loc, flat, arith::MulIOp::create(b, loc, indices[d], stride));
    Value last = arith::SubIOp::create(b, loc, metadata.getSizes()[d], one);
    span = arith::AddIOp::create(b, loc, span,
                                 arith::MulIOp::create(b, loc, last, stride));
  }
  auto flatType = MemRefType::get(
      {ShapedType::kDynamic}, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}),
      type.getMemorySpace());
  Value view = memref::ReinterpretCastOp::create(
      b, loc, flatType, metadata.getBaseBuffer(),
      OpFoldResult(metadata.getOffset()), ArrayRef<OpFoldResult>{span},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return std::make_pair(view, flat);
}

Value laneShareStart(OpBuilder &b, Location loc, int64_t share) {
  Value lane = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
  return arith::MulIOp::create(b, loc, lane, constantIndex(b, loc, share));
}

/// Position of element `element` (row-major in rows x cols) in the flat
/// memory: base + r*ld + c, or base + c*ld + r when transposed.
Value elementOffset(OpBuilder &b, Location loc, Value base, Value element,
                    int64_t cols, int64_t ld, bool transpose) {
  Value c64 = constantIndex(b, loc, cols);
  Value r = arith::DivUIOp::create(b, loc, element, c64);
  Value c = arith::RemUIOp::create(b, loc, element, c64);
  if (transpose)
    std::swap(r, c);
  Value rowStart = arith::MulIOp::create(b, loc, r, constantIndex(b, loc, ld));
  return arith::AddIOp::create(b, loc, base,
                               arith::AddIOp::create(b, loc, rowStart, c));
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

/// Elements of `value` (scalar or vector) widened to `to`'s width.
Value extend(OpBuilder &b, Location loc, Value value, Type to,
             bool isUnsigned) {
  Type from = getElementTypeOrSelf(value.getType());
  if (from == to)
    return value;
  Type target = to;
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    target = vector.clone(to);
  if (isa<FloatType>(from))
    return arith::ExtFOp::create(b, loc, target, value);
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, target, value);
  return arith::ExtSIOp::create(b, loc, target, value);
}

Value truncate(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = getElementTypeOrSelf(value.getType());
  if (from == to)
    return value;
  Type target = to;
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    target = vector.clone(to);
  if (isa<FloatType>(from))
    return arith::TruncFOp::create(b, loc, target, value);
  return arith::TruncIOp::create(b, loc, target, value);
}

//===----------------------------------------------------------------------===//
// Fragment loads and stores
//===----------------------------------------------------------------------===//

struct LoadMatrixLowering : OpConversionPattern<gpu::SubgroupMmaLoadMatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaLoadMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<gpu::MMAMatrixType>(op.getRes().getType());
    auto vector = cast<VectorType>(getTypeConverter()->convertType(type));
    Type element = vector.getElementType();
    if (op.getSrcMemref().getType().getElementType() != element)
      return op.emitOpError()
             << "on the cpu target loads " << type.getElementType()
             << " fragments from memrefs of " << element << " only";
    FailureOr<std::pair<Value, Value>> flat = flatView(
        rewriter, loc, adaptor.getSrcMemref(), adaptor.getIndices(), op);
    if (failed(flat))
      return failure();
    auto [memref, base] = *flat;
    int64_t rows = type.getShape()[0], cols = type.getShape()[1];
    int64_t ld = op.getLeadDimension().getSExtValue();
    bool transpose = op.getTranspose().value_or(false);
    Value result;
    int64_t size = vector.getNumElements();
    if (type.getOperand() == "AOp" && size != rows * cols) {
      // Row l*M/32 of A: one vector load, or K elements when transposed.
      Value lane =
          gpu::LaneIdOp::create(rewriter, loc, /*upper_bound=*/nullptr);
      Value r = arith::DivUIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, lane,
                                constantIndex(rewriter, loc, rows)),
          constantIndex(rewriter, loc, kLanes));
      if (!transpose) {
        Value at = arith::AddIOp::create(
            rewriter, loc, base,
            arith::MulIOp::create(rewriter, loc, r,
                                  constantIndex(rewriter, loc, ld)));
        result = vector::LoadOp::create(rewriter, loc, vector, memref, at);
      } else {
        result = zeroOf(rewriter, loc, vector);
        Value rowBase = arith::AddIOp::create(rewriter, loc, base, r);
        for (int64_t kk = 0; kk < cols; ++kk) {
          Value at = arith::AddIOp::create(
              rewriter, loc, rowBase, constantIndex(rewriter, loc, kk * ld));
          Value x = memref::LoadOp::create(rewriter, loc, memref, at);
          result = vector::InsertOp::create(rewriter, loc, x, result, kk);
        }
      }
    } else if (type.getOperand() == "BOp" && size != rows * cols) {
      // Columns l*S mod N .. +S of B, row-major: a vector per row, or per
      // column when transposed, put in place by one shuffle.
      int64_t share = size / rows;
      Value lane =
          gpu::LaneIdOp::create(rewriter, loc, /*upper_bound=*/nullptr);
      Value c0 = arith::RemUIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, lane,
                                constantIndex(rewriter, loc, share)),
          constantIndex(rewriter, loc, cols));
      Value start = arith::AddIOp::create(rewriter, loc, base, c0);
      int64_t pieces = transpose ? share : rows;
      int64_t pieceSize = transpose ? rows : share;
      auto pieceType = VectorType::get({pieceSize}, element);
      if (transpose)
        start = arith::AddIOp::create(
            rewriter, loc, base,
            arith::MulIOp::create(rewriter, loc, c0,
                                  constantIndex(rewriter, loc, ld)));
      result = zeroOf(rewriter, loc, vector);
      for (int64_t p = 0; p < pieces; ++p) {
        Value at = arith::AddIOp::create(rewriter, loc, start,
                                         constantIndex(rewriter, loc, p * ld));
        Value piece =
            vector::LoadOp::create(rewriter, loc, pieceType, memref, at);
        result = vector::InsertStridedSliceOp::create(
            rewriter, loc, piece, result, ArrayRef<int64_t>{p * pieceSize},
            ArrayRef<int64_t>{1});
      }
      if (transpose && share > 1) {
        SmallVector<int64_t> mask;
        for (int64_t i = 0; i < size; ++i)
          mask.push_back((i % share) * rows + i / share);
        result = vector::ShuffleOp::create(rewriter, loc, result, result, mask);
      }
    } else if (type.getOperand() != "COp") {
      // The whole matrix: each stored row is one vector load.
      int64_t storedRows = transpose ? cols : rows;
      int64_t storedCols = transpose ? rows : cols;
      result = zeroOf(rewriter, loc, vector);
      // Contiguous rows: one load.
      if (ld == storedCols) {
        storedCols *= storedRows;
        storedRows = 1;
      }
      auto rowType = VectorType::get({storedCols}, element);
      for (int64_t s = 0; s < storedRows; ++s) {
        Value at = arith::AddIOp::create(rewriter, loc, base,
                                         constantIndex(rewriter, loc, s * ld));
        Value row = vector::LoadOp::create(rewriter, loc, rowType, memref, at);
        result = storedRows == 1 ? row
                                 : vector::InsertStridedSliceOp::create(
                                       rewriter, loc, row, result,
                                       ArrayRef<int64_t>{s * storedCols},
                                       ArrayRef<int64_t>{1})
                                       .getResult();
      }
      if (transpose) {
        SmallVector<int64_t> mask;
        for (int64_t i = 0; i < rows * cols; ++i)
          mask.push_back((i % cols) * rows + i / cols);
        result = vector::ShuffleOp::create(rewriter, loc, result, result, mask);
      }
    } else {
      int64_t share = shareSize(rows, cols);
      Value start = laneShareStart(rewriter, loc, share);
      if (!transpose && shareIsRowSegment(rows, cols)) {
        Value at =
            elementOffset(rewriter, loc, base, start, cols, ld, transpose);
        result = vector::LoadOp::create(rewriter, loc, vector, memref, at);
      } else {
        result = zeroOf(rewriter, loc, vector);
        for (int64_t j = 0; j < share; ++j) {
          Value e = arith::AddIOp::create(rewriter, loc, start,
                                          constantIndex(rewriter, loc, j));
          Value inside =
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, e,
                                    constantIndex(rewriter, loc, rows * cols));
          auto ifOp = scf::IfOp::create(rewriter, loc, element, inside,
                                        /*withElseRegion=*/true);
          {
            OpBuilder::InsertionGuard guard(rewriter);
            rewriter.setInsertionPointToStart(ifOp.thenBlock());
            Value at =
                elementOffset(rewriter, loc, base, e, cols, ld, transpose);
            scf::YieldOp::create(
                rewriter, loc,
                ValueRange{memref::LoadOp::create(rewriter, loc, memref, at)});
            rewriter.setInsertionPointToStart(ifOp.elseBlock());
            scf::YieldOp::create(rewriter, loc,
                                 ValueRange{zeroOf(rewriter, loc, element)});
          }
          result = vector::InsertOp::create(rewriter, loc, ifOp.getResult(0),
                                            result, j);
        }
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct StoreMatrixLowering
    : OpConversionPattern<gpu::SubgroupMmaStoreMatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaStoreMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<gpu::MMAMatrixType>(op.getSrc().getType());
    Type element = signless(type.getElementType());
    if (op.getDstMemref().getType().getElementType() != element)
      return op.emitOpError()
             << "on the cpu target stores " << type.getElementType()
             << " fragments to memrefs of " << element << " only";
    FailureOr<std::pair<Value, Value>> flat = flatView(
        rewriter, loc, adaptor.getDstMemref(), adaptor.getIndices(), op);
    if (failed(flat))
      return failure();
    auto [memref, base] = *flat;
    int64_t rows = type.getShape()[0], cols = type.getShape()[1];
    int64_t ld = op.getLeadDimension().getSExtValue();
    bool transpose = op.getTranspose().value_or(false);
    int64_t share = shareSize(rows, cols);
    Value value = adaptor.getSrc();
    Value start = laneShareStart(rewriter, loc, share);
    if (!transpose && shareIsRowSegment(rows, cols)) {
      Value at = elementOffset(rewriter, loc, base, start, cols, ld, transpose);
      vector::StoreOp::create(rewriter, loc, value, memref, at);
    } else {
      for (int64_t j = 0; j < share; ++j) {
        Value e = arith::AddIOp::create(rewriter, loc, start,
                                        constantIndex(rewriter, loc, j));
        Value inside =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, e,
                                  constantIndex(rewriter, loc, rows * cols));
        auto ifOp = scf::IfOp::create(rewriter, loc, inside,
                                      /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        Value at = elementOffset(rewriter, loc, base, e, cols, ld, transpose);
        Value scalar = vector::ExtractOp::create(rewriter, loc, value, j);
        memref::StoreOp::create(rewriter, loc, scalar, memref, at);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

struct ConstantMatrixLowering
    : OpConversionPattern<gpu::SubgroupMmaConstantMatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaConstantMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto vector = cast<VectorType>(
        getTypeConverter()->convertType(op.getRes().getType()));
    if (adaptor.getValue().getType() != vector.getElementType())
      return op.emitOpError() << "on the cpu target needs a signless value";
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, vector,
                                                     adaptor.getValue());
    return success();
  }
};

struct ElementwiseLowering
    : OpConversionPattern<gpu::SubgroupMmaElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<gpu::MMAMatrixType>(op.getRes().getType());
    for (Value operand : op.getArgs())
      if (cast<gpu::MMAMatrixType>(operand.getType()).getOperand() !=
          resultType.getOperand())
        return op.emitOpError() << "on the cpu target needs operands of the "
                                   "result's operand kind";
    auto vector = cast<VectorType>(getTypeConverter()->convertType(resultType));
    ValueRange x = adaptor.getArgs();
    Value r;
    switch (op.getOpType()) {
    case gpu::MMAElementwiseOp::ADDF:
      r = arith::AddFOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::MULF:
      r = arith::MulFOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::SUBF:
      r = arith::SubFOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::MAXF:
      r = arith::MaximumFOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::MINF:
      r = arith::MinimumFOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::DIVF:
      r = arith::DivFOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::ADDI:
      r = arith::AddIOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::MULI:
      r = arith::MulIOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::SUBI:
      r = arith::SubIOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::DIVS:
      r = arith::DivSIOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::DIVU:
      r = arith::DivUIOp::create(rewriter, loc, x[0], x[1]);
      break;
    case gpu::MMAElementwiseOp::NEGATEF:
      r = arith::NegFOp::create(rewriter, loc, x[0]);
      break;
    case gpu::MMAElementwiseOp::NEGATES:
      r = arith::SubIOp::create(rewriter, loc, zeroOf(rewriter, loc, vector),
                                x[0]);
      break;
    case gpu::MMAElementwiseOp::EXTF:
      r = arith::ExtFOp::create(rewriter, loc, vector, x[0]);
      break;
    }
    rewriter.replaceOp(op, r);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// compute
//===----------------------------------------------------------------------===//

struct ComputeLowering : OpConversionPattern<gpu::SubgroupMmaComputeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaComputeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<gpu::MMAMatrixType>(op.getOpA().getType());
    auto bType = cast<gpu::MMAMatrixType>(op.getOpB().getType());
    auto cType = cast<gpu::MMAMatrixType>(op.getOpC().getType());
    int64_t m = aType.getShape()[0], k = aType.getShape()[1];
    int64_t n = bType.getShape()[1];
    Type resultElement = signless(cType.getElementType());
    bool isFloat = isa<FloatType>(resultElement);
    Type acc =
        isFloat ? Type(rewriter.getF32Type()) : Type(rewriter.getI32Type());
    if (isFloat && resultElement.getIntOrFloatBitWidth() > 32)
      acc = resultElement;
    bool aUnsigned = aType.getElementType().isUnsignedInteger();
    bool bUnsigned = bType.getElementType().isUnsignedInteger();
    Value a = adaptor.getOpA(), b = adaptor.getOpB(), c = adaptor.getOpC();
    int64_t share = shareSize(m, n);
    auto shareType = VectorType::get({share}, acc);
    Value start = laneShareStart(rewriter, loc, share);
    auto multiplyAdd = [&](Value x, Value y, Value sum) -> Value {
      if (isFloat)
        return isa<VectorType>(sum.getType())
                   ? Value(vector::FMAOp::create(rewriter, loc, x, y, sum))
                   : Value(math::FmaOp::create(rewriter, loc, x, y, sum));
      return arith::AddIOp::create(rewriter, loc, sum,
                                   arith::MulIOp::create(rewriter, loc, x, y));
    };
    Value result;
    if (shareIsRowSegment(m, n)) {
      // acc[0:S] += A[r][kk] * B[kk][c0:c0+S] for each kk.
      bool aWhole = cast<VectorType>(a.getType()).getNumElements() == m * k;
      bool bWhole = cast<VectorType>(b.getType()).getNumElements() == k * n;
      Value nIndex = constantIndex(rewriter, loc, n);
      Value r, segment;
      if (aWhole)
        r = arith::DivUIOp::create(rewriter, loc, start, nIndex);
      if (bWhole)
        segment = arith::DivUIOp::create(
            rewriter, loc, arith::RemUIOp::create(rewriter, loc, start, nIndex),
            constantIndex(rewriter, loc, share));
      SmallVector<Value> isSegment;
      for (int64_t s = 0; bWhole && s < n / share; ++s)
        isSegment.push_back(
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  segment, constantIndex(rewriter, loc, s)));
      // Row r of A: the fragment, or chosen among the M static rows of a
      // whole one by select (a dynamic extract from the whole fragment would
      // go through the stack). B's segment of row kk: a slice of the
      // fragment, or chosen among N/S static slices of a whole one.
      Value aRow = aWhole ? Value() : a;
      for (int64_t row = m - 1; aWhole && row >= 0; --row) {
        Value slice = vector::ExtractStridedSliceOp::create(
            rewriter, loc, a, ArrayRef<int64_t>{row * k}, ArrayRef<int64_t>{k},
            ArrayRef<int64_t>{1});
        if (!aRow) {
          aRow = slice;
          continue;
        }
        Value isRow =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, r,
                                  constantIndex(rewriter, loc, row));
        aRow = arith::SelectOp::create(rewriter, loc, isRow, slice, aRow);
      }
      Value sum = extend(rewriter, loc, c, acc, false);
      // The row widened at once (one conversion for K elements).
      aRow = extend(rewriter, loc, aRow, acc, aUnsigned);
      for (int64_t kk = 0; kk < k; ++kk) {
        Value x = vector::ExtractOp::create(rewriter, loc, aRow, kk);
        x = vector::BroadcastOp::create(rewriter, loc, shareType, x);
        Value y;
        if (!bWhole)
          y = vector::ExtractStridedSliceOp::create(
              rewriter, loc, b, ArrayRef<int64_t>{kk * share},
              ArrayRef<int64_t>{share}, ArrayRef<int64_t>{1});
        for (int64_t s = n / share - 1; bWhole && s >= 0; --s) {
          Value slice = vector::ExtractStridedSliceOp::create(
              rewriter, loc, b, ArrayRef<int64_t>{kk * n + s * share},
              ArrayRef<int64_t>{share}, ArrayRef<int64_t>{1});
          y = y ? Value(arith::SelectOp::create(rewriter, loc, isSegment[s],
                                                slice, y))
                : slice;
        }
        y = extend(rewriter, loc, y, acc, bUnsigned);
        sum = multiplyAdd(x, y, sum);
      }
      result = truncate(rewriter, loc, sum, resultElement);
    } else {
      // Element by element, with the padding past M*N left as it is. Not
      // reached: lowerFragmentsAndAsyncCopies refuses accumulators whose
      // shares are not row segments (and this indexes whole A and B).
      result = c;
      for (int64_t j = 0; j < share; ++j) {
        Value e = arith::AddIOp::create(rewriter, loc, start,
                                        constantIndex(rewriter, loc, j));
        Value inside =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, e,
                                  constantIndex(rewriter, loc, m * n));
        Value old = vector::ExtractOp::create(rewriter, loc, c, j);
        auto ifOp = scf::IfOp::create(rewriter, loc, resultElement, inside,
                                      /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPointToStart(ifOp.thenBlock());
          Value nIndex = constantIndex(rewriter, loc, n);
          Value r = arith::DivUIOp::create(rewriter, loc, e, nIndex);
          Value col = arith::RemUIOp::create(rewriter, loc, e, nIndex);
          Value rowStart = arith::MulIOp::create(
              rewriter, loc, r, constantIndex(rewriter, loc, k));
          Value sum = extend(rewriter, loc, old, acc, false);
          for (int64_t kk = 0; kk < k; ++kk) {
            Value ai = arith::AddIOp::create(rewriter, loc, rowStart,
                                             constantIndex(rewriter, loc, kk));
            Value bi = arith::AddIOp::create(
                rewriter, loc, col, constantIndex(rewriter, loc, kk * n));
            Value x = extend(
                rewriter, loc,
                vector::ExtractOp::create(rewriter, loc, a, OpFoldResult(ai)),
                acc, aUnsigned);
            Value y = extend(
                rewriter, loc,
                vector::ExtractOp::create(rewriter, loc, b, OpFoldResult(bi)),
                acc, bUnsigned);
            sum = multiplyAdd(x, y, sum);
          }
          scf::YieldOp::create(
              rewriter, loc,
              ValueRange{truncate(rewriter, loc, sum, resultElement)});
          rewriter.setInsertionPointToStart(ifOp.elseBlock());
          scf::YieldOp::create(rewriter, loc, ValueRange{old});
        }
        result = vector::InsertOp::create(rewriter, loc, ifOp.getResult(0),
                                          result, j);
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

LogicalResult gpumem::cpu::lowerFragmentsAndAsyncCopies(gpu::GPUModuleOp module,
                                                        bool wholeFragments) {
  // Fragments as tensor cores have them, 1 to 32 rows and columns: an A or
  // B fragment is a vector in every lane, and the lowering's code grows with
  // the fragment's elements; an empty one has no lane share.
  constexpr int64_t kMaxFragmentSide = 32;
  WalkResult tooLarge = module.walk([&](Operation *op) {
    auto types =
        llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes());
    for (Type type : types) {
      auto matrix = dyn_cast<gpu::MMAMatrixType>(type);
      if (!matrix || llvm::all_of(matrix.getShape(), [](int64_t side) {
            return side >= 1 && side <= kMaxFragmentSide;
          }))
        continue;
      op->emitOpError() << "uses a " << matrix.getShape()[0] << "x"
                        << matrix.getShape()[1]
                        << " matrix fragment; the cpu target takes fragments "
                           "of 1 to "
                        << kMaxFragmentSide
                        << " rows and columns, as tensor cores have them";
      return WalkResult::interrupt();
    }
    // A leading dimension the index arithmetic can hold.
    std::optional<APInt> ld;
    if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op))
      ld = load.getLeadDimension();
    else if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
      ld = store.getLeadDimension();
    if (ld && ld->ugt(INT32_MAX)) {
      op->emitOpError() << "has leadDimension " << ld->getZExtValue()
                        << "; the cpu target takes at most " << INT32_MAX;
      return WalkResult::interrupt();
    }
    // A C fragment's lane shares are segments of its rows, as in every
    // tensor-core shape (16x16, 32x8, 8x32, 8x8): the compute is then
    // vector FMAs (its element-by-element form took minutes to compile).
    for (Type type : types) {
      auto matrix = dyn_cast<gpu::MMAMatrixType>(type);
      if (!matrix || matrix.getOperand() != "COp")
        continue;
      int64_t rows = matrix.getShape()[0], cols = matrix.getShape()[1];
      int64_t share = rows * cols / 32;
      if ((rows * cols) % 32 == 0 && share > 0 && cols % share == 0)
        continue;
      op->emitOpError() << "uses a " << rows << "x" << cols
                        << " accumulator fragment; on the cpu target each "
                           "lane holds a segment of a row, so 32 must divide "
                           "its elements and each lane's share its columns "
                           "(16x16, 32x8, 8x32 and 8x8 do)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (tooLarge.wasInterrupted())
    return failure();
  // Fragments and tokens may flow through scf only.
  WalkResult misplaced = module.walk([](Operation *op) {
    if (isa<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
            gpu::SubgroupMmaConstantMatrixOp, gpu::SubgroupMmaElementwiseOp,
            gpu::SubgroupMmaComputeOp, nvgpu::DeviceAsyncCopyOp,
            nvgpu::DeviceAsyncCreateGroupOp, nvgpu::DeviceAsyncWaitOp,
            scf::ForOp, scf::IfOp, scf::WhileOp, scf::YieldOp,
            scf::ConditionOp>(op))
      return WalkResult::advance();
    auto types =
        llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes());
    bool argument = false;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          argument |= isFragmentOrToken(arg.getType());
    if (llvm::any_of(types, isFragmentOrToken) || argument) {
      op->emitOpError() << "carries a !gpu.mma_matrix or async token value, "
                           "which the cpu target supports only in "
                           "scf.for, scf.if and scf.while";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (misplaced.wasInterrupted())
    return failure();

  MLIRContext *context = module.getContext();
  TypeConverter converter;
  converter.addConversion([](Type type) { return type; });
  FragmentLayout layout(module, wholeFragments);
  converter.addConversion([&layout](gpu::MMAMatrixType type) -> Type {
    return layout.vectorOf(type);
  });
  converter.addConversion([](nvgpu::DeviceAsyncTokenType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addIllegalOp<
      gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
      gpu::SubgroupMmaConstantMatrixOp, gpu::SubgroupMmaElementwiseOp,
      gpu::SubgroupMmaComputeOp, nvgpu::DeviceAsyncCopyOp,
      nvgpu::DeviceAsyncCreateGroupOp, nvgpu::DeviceAsyncWaitOp>();
  RewritePatternSet patterns(context);
  patterns.add<LoadMatrixLowering, StoreMatrixLowering, ConstantMatrixLowering,
               ElementwiseLowering, ComputeLowering>(converter, context);
  markAsyncCopiesToPerformAtIssue(module);
  populateAsyncCopyToCPUPatterns(converter, patterns);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  return applyPartialConversion(module, target, std::move(patterns));
}
