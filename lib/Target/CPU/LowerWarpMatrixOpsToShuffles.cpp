//===----------------------------------------------------------------------===//
// gpumem-lower-warp-matrix-ops-to-shuffles: nvgpu.ldmatrix and
// nvgpu.mma.sync for the cpu target, in gpu dialect terms (decision 148).
//
// Unlike gpu.subgroup_mma_*, these ops carry the PTX ISA's per-lane
// fragment layout in their types: each lane's registers hold the elements
// PTX ISA 9.7.14.5 gives it. The rewrite keeps that layout and moves
// values between lanes with gpu.shuffle idx, which the cpu target runs at
// warp width 32:
//
//   ldmatrix: lane l needs rows addressed by other lanes (matrix i's rows
//   by lanes 8i..8i+7); it shuffles those lanes' indices (as i32) and
//   loads its elements with memref.load: row l/4, elements (l%4)*e ..
//   (l%4)*e+e-1 of each matrix, e = 32 / element bits (.trans, 16-bit
//   only: rows 2(l%4) and 2(l%4)+1 of column l/4).
//
//   mma.sync: lane l's accumulator elements are rows a*8 + l/4 and columns
//   b*8 + 2(l%4) + w; it gathers those rows of A and columns of B, one
//   32-bit (f64: 64-bit) register at a time, from the lanes that hold them
//   and computes its own elements of D = A * B + C.
//
// The layouts and the arithmetic are runtime/cpu/PTXMatrixOps.cpp's
// (cuda-emu), so both targets give identical results: an operand is seen
// as rows x columns (A: m x k, B as n x k, C: m x n) cut into atoms of 8
// rows by 4q columns (q: elements of one register, 2 for C); lane l holds
// row l/4, columns (l%4)q .. (l%4)q+q-1 of each atom, atoms listed with
// the row-atom index fastest. f16 products and tf32 products (inputs
// truncated to tf32's 19 bits) are exact in f32 and are accumulated in f32
// in k order starting from C; an f16 D is rounded to nearest even once at
// the end; f64 uses fused multiply-adds in k order; s8 sums exactly in
// 64 bits and clamps.
//
// Supported: ldmatrix of 8, 16 or 32-bit elements (.trans: 16-bit) from a
// memref whose last dimension has unit stride; mma.sync f16 x f16 -> f16
// or f32 (m16n8k16, m16n8k8), tf32 x tf32 -> f32 (m16n8k8, m16n8k4),
// f64 x f64 -> f64 (m8n8k4) and i8 x i8 -> i32 (m16n8k32, m16n8k16; signed,
// summed exactly and clamped to i32, as nvgpu's lowering asks for
// .satfinite). Anything else is an error at the op.
//===----------------------------------------------------------------------===//

#include "gpumem/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"

#include <cstdint>

using namespace mlir;

namespace {

constexpr int64_t kWarpSize = 32;

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value constantI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// `value` (an integer or float of at most 64 bits) of lane `source` (an
/// index), by gpu.shuffle idx over the warp.
Value shuffleFrom(OpBuilder &b, Location loc, Value value, Value source) {
  Value offset = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), source);
  return gpu::ShuffleOp::create(b, loc, value, offset,
                                constantI32(b, loc, kWarpSize),
                                gpu::ShuffleMode::IDX)
      .getShuffleResult();
}

/// An index value of lane `source`: constants are the same in every lane.
Value shuffleIndex(OpBuilder &b, Location loc, Value index, Value source) {
  if (matchPattern(index, m_Constant()))
    return index;
  Value bits = arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
  Value shuffled = shuffleFrom(b, loc, bits, source);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), shuffled);
}

/// Lane id, its group (l / 4) and its position in the group (l % 4).
struct Lane {
  Value id, group, quad;
  Lane(OpBuilder &b, Location loc) {
    id = gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
    group = arith::DivUIOp::create(b, loc, id, constantIndex(b, loc, 4));
    quad = arith::RemUIOp::create(b, loc, id, constantIndex(b, loc, 4));
  }
};

Value affine(OpBuilder &b, Location loc, Value x, int64_t scale,
             int64_t offset) {
  Value result = x;
  if (scale != 1)
    result = arith::MulIOp::create(b, loc, x, constantIndex(b, loc, scale));
  if (offset != 0)
    result =
        arith::AddIOp::create(b, loc, result, constantIndex(b, loc, offset));
  return result;
}

LogicalResult lowerLdMatrix(nvgpu::LdMatrixOp op) {
  MemRefType memrefType = op.getSrcMemref().getType();
  Type element = memrefType.getElementType();
  if (!element.isIntOrFloat())
    return op.emitOpError() << "of " << element
                            << " elements is not supported by the cpu target";
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16 && bits != 32)
    return op.emitOpError() << "of " << element
                            << " elements is not supported by the cpu target";
  bool transpose = op.getTranspose();
  if (transpose && bits != 16)
    return op.emitOpError()
           << "with transpose of " << element
           << " elements is not supported by the cpu target (16-bit only)";
  if (!memrefType.isLastDimUnitStride())
    return op.emitOpError()
           << "from a memref whose last dimension is not contiguous is not "
              "supported by the cpu target";
  int64_t tiles = op.getNumTiles(), perLane = 32 / bits;
  VectorType resultType = op.getRes().getType();
  if (resultType.getRank() != 2 || resultType.getDimSize(0) != tiles ||
      resultType.getDimSize(1) != perLane ||
      resultType.getElementType() != element)
    return op.emitOpError() << "with result " << resultType
                            << " is not supported by the cpu target";

  OpBuilder b(op);
  Location loc = op.getLoc();
  Lane lane(b, loc);
  // The indices of lane `source`'s row, then one element of it.
  auto rowOf = [&](Value source) {
    SmallVector<Value> at;
    for (Value index : op.getIndices())
      at.push_back(shuffleIndex(b, loc, index, source));
    return at;
  };
  auto load = [&](SmallVector<Value> at, Value column) {
    at.back() = arith::AddIOp::create(b, loc, at.back(), column);
    return memref::LoadOp::create(b, loc, op.getSrcMemref(), at).getResult();
  };
  SmallVector<Value> elements;
  for (int64_t i = 0; i < tiles; ++i) {
    if (!transpose) {
      // Row l/4 of matrix i, addressed by lane 8i + l/4.
      SmallVector<Value> row = rowOf(affine(b, loc, lane.group, 1, 8 * i));
      for (int64_t e = 0; e < perLane; ++e)
        elements.push_back(load(row, affine(b, loc, lane.quad, perLane, e)));
      continue;
    }
    // Rows 2(l%4) and 2(l%4)+1 of matrix i, column l/4.
    for (int64_t h = 0; h < 2; ++h)
      elements.push_back(
          load(rowOf(affine(b, loc, lane.quad, 2, 8 * i + h)), lane.group));
  }
  Value result = vector::FromElementsOp::create(b, loc, resultType, elements);
  op.getRes().replaceAllUsesWith(result);
  op.erase();
  return success();
}

/// One mma.sync operand's fragment: registers of q elements.
struct Fragment {
  Value value;
  int64_t rows; // of the operand's view (A: m, B: n)
  int64_t q;
};

/// Register `reg` of `fragment` from lane `source`: its q elements.
SmallVector<Value> shuffleRegister(OpBuilder &b, Location loc,
                                   const Fragment &fragment, int64_t reg,
                                   Value source) {
  SmallVector<Value> elements;
  if (fragment.q == 1) {
    Value scalar = vector::ExtractOp::create(b, loc, fragment.value,
                                             ArrayRef<int64_t>{reg, 0});
    elements.push_back(shuffleFrom(b, loc, scalar, source));
    return elements;
  }
  // q elements in one 32-bit register.
  Value row =
      vector::ExtractOp::create(b, loc, fragment.value, ArrayRef<int64_t>{reg});
  auto rowType = cast<VectorType>(row.getType());
  auto wordType = VectorType::get({1}, b.getI32Type());
  Value word = vector::BitCastOp::create(b, loc, wordType, row);
  Value bits =
      vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{int64_t(0)});
  Value shuffled = shuffleFrom(b, loc, bits, source);
  Value back = vector::BitCastOp::create(
      b, loc, rowType, vector::BroadcastOp::create(b, loc, wordType, shuffled));
  for (int64_t w = 0; w < fragment.q; ++w)
    elements.push_back(
        vector::ExtractOp::create(b, loc, back, ArrayRef<int64_t>{w}));
  return elements;
}

/// Rows of the operand's view, all k columns, gathered from the lanes that
/// hold them: result[r][kk]. Row r is (row atom, row within the atom); the
/// row within the atom is held by lanes row*4 .. row*4+3.
SmallVector<SmallVector<Value>>
gatherRows(OpBuilder &b, Location loc, const Fragment &fragment, int64_t k,
           ArrayRef<std::pair<int64_t, Value>> rows) {
  int64_t rowAtoms = fragment.rows / 8, width = 4 * fragment.q;
  SmallVector<SmallVector<Value>> result;
  for (auto [atom, laneRow] : rows) {
    SmallVector<Value> row(k);
    Value first = affine(b, loc, laneRow, 4, 0);
    for (int64_t colAtom = 0; colAtom < k / width; ++colAtom)
      for (int64_t j = 0; j < 4; ++j) {
        Value source = affine(b, loc, first, 1, j);
        SmallVector<Value> values = shuffleRegister(
            b, loc, fragment, colAtom * rowAtoms + atom, source);
        for (int64_t w = 0; w < fragment.q; ++w)
          row[colAtom * width + j * fragment.q + w] = values[w];
      }
    result.push_back(std::move(row));
  }
  return result;
}

enum class MmaKind { F16, TF32, F64, S8 };

LogicalResult lowerMmaSync(nvgpu::MmaSyncOp op) {
  auto unsupported = [&]() {
    return op.emitOpError()
           << "of " << op.getMatrixA().getType() << " x "
           << op.getMatrixB().getType() << " -> " << op.getRes().getType()
           << " (mmaShape " << op.getMmaShape()
           << ") is not supported by the cpu target (f16 m16n8k16/m16n8k8, "
              "tf32 m16n8k8/m16n8k4, f64 m8n8k4, s8 m16n8k32/m16n8k16)";
  };
  auto typeA = cast<VectorType>(op.getMatrixA().getType());
  auto typeB = cast<VectorType>(op.getMatrixB().getType());
  auto typeC = cast<VectorType>(op.getMatrixC().getType());
  SmallVector<int64_t> shape;
  for (Attribute dim : op.getMmaShape())
    shape.push_back(cast<IntegerAttr>(dim).getInt());
  if (shape.size() != 3)
    return unsupported();
  int64_t m = shape[0], n = shape[1], k = shape[2];
  Type elemAB = typeA.getElementType(), elemC = typeC.getElementType();
  if (typeB.getElementType() != elemAB || op.getRes().getType() != typeC)
    return unsupported();
  MmaKind kind;
  int64_t q;
  if (elemAB.isF16() && (elemC.isF16() || elemC.isF32()) && m == 16 && n == 8 &&
      (k == 16 || k == 8)) {
    kind = MmaKind::F16;
    q = 2;
  } else if (elemAB.isF32() && op.getTf32Enabled() && elemC.isF32() &&
             m == 16 && n == 8 && (k == 8 || k == 4)) {
    kind = MmaKind::TF32;
    q = 1;
  } else if (elemAB.isF64() && elemC.isF64() && m == 8 && n == 8 && k == 4) {
    kind = MmaKind::F64;
    q = 1;
  } else if (elemAB.isInteger(8) && elemC.isInteger(32) && m == 16 && n == 8 &&
             (k == 32 || k == 16)) {
    kind = MmaKind::S8;
    q = 4;
  } else {
    return unsupported();
  }
  auto isFragment = [](VectorType type, int64_t count, int64_t perRegister) {
    return type.getRank() == 2 && type.getDimSize(0) == count &&
           type.getDimSize(1) == perRegister;
  };
  if (!isFragment(typeA, m * k / kWarpSize / q, q) ||
      !isFragment(typeB, n * k / kWarpSize / q, q) ||
      !isFragment(typeC, m * n / kWarpSize / 2, 2))
    return unsupported();

  OpBuilder b(op);
  Location loc = op.getLoc();
  Lane lane(b, loc);
  Type accType = kind == MmaKind::F64  ? b.getF64Type()
                 : kind == MmaKind::S8 ? Type(b.getI64Type())
                                       : b.getF32Type();
  auto widen = [&](Value v) -> Value {
    if (kind == MmaKind::TF32) {
      // tf32: the low 13 bits of the mantissa are ignored.
      Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), v);
      Value mask = constantI32(b, loc, int32_t(0xffffe000u));
      Value kept = arith::AndIOp::create(b, loc, bits, mask);
      return arith::BitcastOp::create(b, loc, accType, kept);
    }
    if (v.getType() == accType)
      return v;
    if (kind == MmaKind::S8)
      return arith::ExtSIOp::create(b, loc, accType, v);
    return arith::ExtFOp::create(b, loc, accType, v);
  };

  Fragment a{op.getMatrixA(), m, q}, bFrag{op.getMatrixB(), n, q};
  // A: rows atom*8 + l/4 for every row atom of C.
  SmallVector<std::pair<int64_t, Value>> rowsA, rowsB;
  for (int64_t atom = 0; atom < m / 8; ++atom)
    rowsA.push_back({atom, lane.group});
  // B (as n x k): columns atom*8 + 2(l%4) + w of C, held by lanes
  // (2(l%4) + w)*4 + j.
  for (int64_t atom = 0; atom < n / 8; ++atom)
    for (int64_t w = 0; w < 2; ++w)
      rowsB.push_back({atom, affine(b, loc, lane.quad, 2, w)});
  SmallVector<SmallVector<Value>> gathered = gatherRows(b, loc, a, k, rowsA);
  SmallVector<SmallVector<Value>> gatheredB =
      gatherRows(b, loc, bFrag, k, rowsB);
  for (auto &row : gathered)
    for (Value &v : row)
      v = widen(v);
  for (auto &row : gatheredB)
    for (Value &v : row)
      v = widen(v);

  SmallVector<Value> results;
  int64_t slots = m * n / kWarpSize, rowAtoms = m / 8;
  for (int64_t s = 0; s < slots; ++s) {
    int64_t atom = s / 2, w = s % 2;
    int64_t rowAtom = atom % rowAtoms, colAtom = atom / rowAtoms;
    Value c = vector::ExtractOp::create(b, loc, op.getMatrixC(),
                                        ArrayRef<int64_t>{s / 2, w});
    Value acc = elemC == accType ? c
                : kind == MmaKind::S8
                    ? Value(arith::ExtSIOp::create(b, loc, accType, c))
                    : Value(arith::ExtFOp::create(b, loc, accType, c));
    ArrayRef<Value> rowA = gathered[rowAtom];
    ArrayRef<Value> colB = gatheredB[colAtom * 2 + w];
    for (int64_t kk = 0; kk < k; ++kk) {
      if (kind == MmaKind::F64) {
        acc = math::FmaOp::create(b, loc, rowA[kk], colB[kk], acc);
        continue;
      }
      if (kind == MmaKind::S8) {
        Value product = arith::MulIOp::create(b, loc, rowA[kk], colB[kk]);
        acc = arith::AddIOp::create(b, loc, acc, product);
        continue;
      }
      Value product = arith::MulFOp::create(b, loc, rowA[kk], colB[kk]);
      acc = arith::AddFOp::create(b, loc, acc, product);
    }
    if (kind == MmaKind::S8) {
      // nvgpu's integer mma.sync is .satfinite: the exact sum clamped to
      // i32.
      Value low = arith::ConstantIntOp::create(b, loc, accType, INT32_MIN);
      Value high = arith::ConstantIntOp::create(b, loc, accType, INT32_MAX);
      acc = arith::MaxSIOp::create(b, loc, acc, low);
      acc = arith::MinSIOp::create(b, loc, acc, high);
      acc = arith::TruncIOp::create(b, loc, elemC, acc);
    } else if (elemC != accType) {
      acc = arith::TruncFOp::create(b, loc, elemC, acc);
    }
    results.push_back(acc);
  }
  Value result = vector::FromElementsOp::create(b, loc, typeC, results);
  op.getRes().replaceAllUsesWith(result);
  op.erase();
  return success();
}

struct LowerWarpMatrixOpsToShufflesPass
    : PassWrapper<LowerWarpMatrixOpsToShufflesPass,
                  OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerWarpMatrixOpsToShufflesPass)

  StringRef getArgument() const override {
    return "gpumem-lower-warp-matrix-ops-to-shuffles";
  }
  StringRef getDescription() const override {
    return "Rewrites nvgpu.ldmatrix and nvgpu.mma.sync into per-lane loads "
           "and arithmetic with gpu.shuffle idx (the cpu target)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, gpu::GPUDialect, math::MathDialect,
                    memref::MemRefDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<nvgpu::LdMatrixOp, nvgpu::MmaSyncOp>(op))
        ops.push_back(op);
    });
    bool failed = false;
    for (Operation *op : ops) {
      LogicalResult result = isa<nvgpu::LdMatrixOp>(op)
                                 ? lowerLdMatrix(cast<nvgpu::LdMatrixOp>(op))
                                 : lowerMmaSync(cast<nvgpu::MmaSyncOp>(op));
      failed |= mlir::failed(result);
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> gpumem::createGPUMemLowerWarpMatrixOpsToShufflesPass() {
  return std::make_unique<LowerWarpMatrixOpsToShufflesPass>();
}

void gpumem::registerGPUMemLowerWarpMatrixOpsToShufflesPass() {
  PassRegistration<LowerWarpMatrixOpsToShufflesPass>();
}
