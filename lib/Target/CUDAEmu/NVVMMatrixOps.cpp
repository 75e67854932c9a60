//===----------------------------------------------------------------------===//
// The cuda-emu lowering of PTX's warp-level matrix instructions:
// nvvm.wmma.load, nvvm.wmma.store, nvvm.wmma.mma, nvvm.mma.sync and
// nvvm.ldmatrix (populateMatrixOpPatterns, called by
// populateNVVMToCPUPatterns in NVVMOps.cpp).
//
// Each op becomes one services->warpSync of GPUMEM_WARP_MATRIX over the
// full warp (these instructions are .sync.aligned: all 32 lanes execute
// them together). The lane's operands are stored, in order, into a record
// on its stack (an address, then 32-bit register words;
// include/gpumem/Runtime/PTXMatrix.h), the record's address is the call's
// value and the instruction's descriptor (shape, element types, layouts)
// its b operand; the runtime computes the warp's result once every lane
// has arrived and writes each lane's output registers into its record,
// which the lane then loads into the op's result struct. Which lane holds
// which element is decided by the runtime alone (runtime/cpu/PTXMatrixOps.cpp).
// Shapes and types the runtime does not implement are refused with a
// located error by checkMatrixOp.
//===----------------------------------------------------------------------===//

#include "NVVMOpLowering.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Runtime/PTXMatrix.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace gpumem::cudaemu;
using namespace gpumem::cudaemu::nvvmops;

namespace {

std::optional<int> matrixType(NVVM::MMATypes type) {
  switch (type) {
  case NVVM::MMATypes::f16:
    return GPUMEM_MATRIX_F16;
  case NVVM::MMATypes::bf16:
    return GPUMEM_MATRIX_BF16;
  case NVVM::MMATypes::tf32:
    return GPUMEM_MATRIX_TF32;
  case NVVM::MMATypes::f64:
    return GPUMEM_MATRIX_F64;
  case NVVM::MMATypes::s8:
    return GPUMEM_MATRIX_S8;
  case NVVM::MMATypes::u8:
    return GPUMEM_MATRIX_U8;
  case NVVM::MMATypes::f32:
    return GPUMEM_MATRIX_F32;
  case NVVM::MMATypes::s32:
    return GPUMEM_MATRIX_S32;
  default:
    return std::nullopt;
  }
}

/// The accumulator type of registers of `type`.
std::optional<int> accumulatorType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getElementType().isF16() ? std::optional(GPUMEM_MATRIX_F16)
                                           : std::nullopt;
  if (type.isF32())
    return GPUMEM_MATRIX_F32;
  if (type.isF64())
    return GPUMEM_MATRIX_F64;
  if (type.isInteger(32))
    return GPUMEM_MATRIX_S32;
  return std::nullopt;
}

/// The shapes the runtime implements, per instruction family and A/B type.
bool isWMMAShape(int type, unsigned m, unsigned n, unsigned k) {
  auto is = [&](unsigned a, unsigned b, unsigned c) {
    return m == a && n == b && k == c;
  };
  switch (type) {
  case GPUMEM_MATRIX_F16:
  case GPUMEM_MATRIX_BF16:
  case GPUMEM_MATRIX_S8:
  case GPUMEM_MATRIX_U8:
    return is(16, 16, 16) || is(32, 8, 16) || is(8, 32, 16);
  case GPUMEM_MATRIX_TF32:
    return is(16, 16, 8);
  case GPUMEM_MATRIX_F64:
    return is(8, 8, 4);
  default:
    return false;
  }
}

bool isMMASyncShape(int type, unsigned m, unsigned n, unsigned k) {
  auto is = [&](unsigned a, unsigned b, unsigned c) {
    return m == a && n == b && k == c;
  };
  switch (type) {
  case GPUMEM_MATRIX_F16:
  case GPUMEM_MATRIX_BF16:
    return is(16, 8, 16) || is(16, 8, 8);
  case GPUMEM_MATRIX_TF32:
    return is(16, 8, 8) || is(16, 8, 4);
  case GPUMEM_MATRIX_S8:
  case GPUMEM_MATRIX_U8:
    return is(16, 8, 32) || is(16, 8, 16);
  case GPUMEM_MATRIX_F64:
    return is(8, 8, 4);
  default:
    return false;
  }
}

/// A/B type of an nvvm.mma.sync: its attribute, else its registers'.
std::optional<int> mmaSyncInputType(NVVM::MmaOp mma) {
  if (auto type = mma.getMultiplicandAPtxType())
    return matrixType(*type);
  Type reg = mma.getOperandA().front().getType();
  if (auto vector = dyn_cast<VectorType>(reg)) {
    if (vector.getElementType().isF16())
      return GPUMEM_MATRIX_F16;
    if (vector.getElementType().isBF16())
      return GPUMEM_MATRIX_BF16;
  }
  if (reg.isF64())
    return GPUMEM_MATRIX_F64;
  return std::nullopt;
}

/// Bytes of a register value in the record (a multiple of 4).
int64_t wordBytes(Type type) {
  int64_t bits = 32;
  if (auto vector = dyn_cast<VectorType>(type))
    bits = vector.getNumElements() *
           vector.getElementType().getIntOrFloatBitWidth();
  else if (type.isIntOrFloat())
    bits = type.getIntOrFloatBitWidth();
  return std::max<int64_t>(4, bits / 8);
}

/// The record of one lane and the warpSync that hands it to the runtime.
struct MatrixCall {
  MatrixCall(Emitter &emit, int64_t words) : emit(emit) {
    OpBuilder::InsertionGuard guard(emit.builder);
    auto func = emit.op->getParentOfType<LLVM::LLVMFuncOp>();
    emit.builder.setInsertionPointToStart(&func.getBody().front());
    auto ptr = LLVM::LLVMPointerType::get(emit.builder.getContext());
    record = LLVM::AllocaOp::create(
        emit.builder, emit.loc, ptr, emit.builder.getI64Type(),
        emit.i64((GPUMEM_MATRIX_RECORD_HEADER + 4 * words + 7) / 8), 8);
  }
  Value at(int64_t byteOffset) {
    auto ptr = LLVM::LLVMPointerType::get(emit.builder.getContext());
    return LLVM::GEPOp::create(emit.builder, emit.loc, ptr,
                               emit.builder.getI8Type(), record,
                               ArrayRef<LLVM::GEPArg>{int32_t(byteOffset)});
  }
  void setAddress(Value pointer) {
    LLVM::StoreOp::create(emit.builder, emit.loc, pointer, record);
  }
  /// Stores `values` from word `word` on; returns the next word.
  int64_t store(ValueRange values, int64_t word) {
    for (Value value : values) {
      LLVM::StoreOp::create(emit.builder, emit.loc, value,
                            at(GPUMEM_MATRIX_RECORD_HEADER + 4 * word));
      word += wordBytes(value.getType()) / 4;
    }
    return word;
  }
  void call(int32_t descriptor, Value c) {
    Value address = LLVM::PtrToIntOp::create(emit.builder, emit.loc,
                                             emit.builder.getI64Type(), record);
    emit.warpSync(GPUMEM_WARP_MATRIX, emit.i64(0xffffffffu), address,
                  emit.i32(descriptor), c, nullptr);
  }
  /// The struct (or single value) of `type` from word `word` on.
  Value load(Type type, int64_t word) {
    auto structType = dyn_cast<LLVM::LLVMStructType>(type);
    if (!structType)
      return LLVM::LoadOp::create(emit.builder, emit.loc, type,
                                  at(GPUMEM_MATRIX_RECORD_HEADER + 4 * word));
    Value result = LLVM::PoisonOp::create(emit.builder, emit.loc, type);
    for (auto [i, element] : llvm::enumerate(structType.getBody())) {
      Value value =
          LLVM::LoadOp::create(emit.builder, emit.loc, element,
                               at(GPUMEM_MATRIX_RECORD_HEADER + 4 * word));
      result = LLVM::InsertValueOp::create(
          emit.builder, emit.loc, result, value, ArrayRef<int64_t>{int64_t(i)});
      word += wordBytes(element) / 4;
    }
    return result;
  }

  Emitter &emit;
  Value record;
};

int64_t wordsOf(Type type) {
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    int64_t words = 0;
    for (Type element : structType.getBody())
      words += wordBytes(element) / 4;
    return words;
  }
  return wordBytes(type) / 4;
}

int64_t wordsOf(ValueRange values) {
  int64_t words = 0;
  for (Value value : values)
    words += wordBytes(value.getType()) / 4;
  return words;
}

class WMMALoadLowering : public DevicePattern<NVVM::WMMALoadOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::WMMALoadOp load,
                                PatternRewriter &rewriter) const override {
    int type = *matrixType(load.getEltype());
    int instruction = load.getFrag() == NVVM::MMAFrag::a ? GPUMEM_MATRIX_LOAD_A
                      : load.getFrag() == NVVM::MMAFrag::b
                          ? GPUMEM_MATRIX_LOAD_B
                          : GPUMEM_MATRIX_LOAD_C;
    int ab = instruction == GPUMEM_MATRIX_LOAD_C ? GPUMEM_MATRIX_F16 : type;
    int cd = instruction == GPUMEM_MATRIX_LOAD_C ? type : GPUMEM_MATRIX_F32;
    Emitter emit(rewriter, load, state);
    MatrixCall call(emit, wordsOf(load.getType()));
    call.setAddress(load.getPtr());
    call.call(GPUMEM_MATRIX_DESCRIPTOR(
                  instruction, load.getM(), load.getN(), load.getK(), ab, cd,
                  load.getLayout() == NVVM::MMALayout::col, false),
              load.getStride());
    rewriter.replaceOp(load, call.load(load.getType(), 0));
    return success();
  }
};

class WMMAStoreLowering : public DevicePattern<NVVM::WMMAStoreOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::WMMAStoreOp store,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, store, state);
    MatrixCall call(emit, wordsOf(store.getArgs()));
    call.setAddress(store.getPtr());
    call.store(store.getArgs(), 0);
    call.call(GPUMEM_MATRIX_DESCRIPTOR(
                  GPUMEM_MATRIX_STORE_D, store.getM(), store.getN(),
                  store.getK(), GPUMEM_MATRIX_F16,
                  *matrixType(store.getEltype()),
                  store.getLayout() == NVVM::MMALayout::col, false),
              store.getStride());
    rewriter.eraseOp(store);
    return success();
  }
};

/// The descriptor and inputs of a multiply, the record's outputs after.
LogicalResult lowerMultiply(Emitter &emit, PatternRewriter &rewriter,
                            Operation *op, int32_t descriptor,
                            ValueRange inputs) {
  int64_t inputWords = wordsOf(inputs);
  Type resultType = op->getResult(0).getType();
  MatrixCall call(emit, inputWords + wordsOf(resultType));
  call.store(inputs, 0);
  call.call(descriptor, emit.i32(inputWords));
  rewriter.replaceOp(op, call.load(resultType, inputWords));
  return success();
}

class WMMAMmaLowering : public DevicePattern<NVVM::WMMAMmaOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::WMMAMmaOp mma,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, mma, state);
    // eltypeB names the accumulator's type.
    int32_t descriptor = GPUMEM_MATRIX_DESCRIPTOR(
        GPUMEM_MATRIX_WMMA, mma.getM(), mma.getN(), mma.getK(),
        *matrixType(mma.getEltypeA()), *matrixType(mma.getEltypeB()),
        mma.getLayoutA() == NVVM::MMALayout::col,
        mma.getLayoutB() == NVVM::MMALayout::col);
    return lowerMultiply(emit, rewriter, mma, descriptor, mma.getArgs());
  }
};

class MmaSyncLowering : public DevicePattern<NVVM::MmaOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::MmaOp mma,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, mma, state);
    NVVM::MMAShapeAttr shape = mma.getShape();
    int32_t descriptor = GPUMEM_MATRIX_DESCRIPTOR(
        GPUMEM_MATRIX_MMA_SYNC, shape.getM(), shape.getN(), shape.getK(),
        *mmaSyncInputType(mma),
        *accumulatorType(mma.getOperandC().front().getType()),
        mma.getLayoutA() == NVVM::MMALayout::col,
        mma.getLayoutB() == NVVM::MMALayout::col);
    if (mma.getIntOverflowBehavior() == NVVM::MMAIntOverflow::satfinite)
      descriptor |= GPUMEM_MATRIX_SATFINITE;
    return lowerMultiply(emit, rewriter, mma, descriptor, mma->getOperands());
  }
};

class LdMatrixLowering : public DevicePattern<NVVM::LdMatrixOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::LdMatrixOp ld,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, ld, state);
    MatrixCall call(emit, wordsOf(ld.getType()));
    call.setAddress(ld.getPtr());
    call.call(GPUMEM_MATRIX_DESCRIPTOR(GPUMEM_MATRIX_LDMATRIX, ld.getNum(), 8,
                                       8, GPUMEM_MATRIX_F16, GPUMEM_MATRIX_F16,
                                       ld.getLayout() == NVVM::MMALayout::col,
                                       false),
              emit.i32(0));
    rewriter.replaceOp(ld, call.load(ld.getType(), 0));
    return success();
  }
};

} // namespace

bool gpumem::cudaemu::isMatrixOp(Operation *op) {
  return isa<NVVM::WMMALoadOp, NVVM::WMMAStoreOp, NVVM::WMMAMmaOp, NVVM::MmaOp,
             NVVM::LdMatrixOp>(op);
}

LogicalResult gpumem::cudaemu::checkMatrixOp(Operation *op) {
  auto refuse = [&](StringRef what) {
    return op->emitOpError()
           << what << " has no lowering on the cuda-emu target";
  };
  if (auto load = dyn_cast<NVVM::WMMALoadOp>(op)) {
    std::optional<int> type = matrixType(load.getEltype());
    if (!type || (load.getFrag() != NVVM::MMAFrag::c &&
                  !isWMMAShape(*type, load.getM(), load.getN(), load.getK())))
      return refuse("of this shape and type");
  }
  if (auto mma = dyn_cast<NVVM::WMMAMmaOp>(op)) {
    std::optional<int> type = matrixType(mma.getEltypeA());
    if (!type || !matrixType(mma.getEltypeB()) ||
        !isWMMAShape(*type, mma.getM(), mma.getN(), mma.getK()))
      return refuse("of this shape and type");
  }
  if (auto store = dyn_cast<NVVM::WMMAStoreOp>(op))
    if (!matrixType(store.getEltype()))
      return refuse("of this type");
  if (auto mma = dyn_cast<NVVM::MmaOp>(op)) {
    std::optional<int> type = mmaSyncInputType(mma);
    NVVM::MMAShapeAttr shape = mma.getShape();
    if (!type || mma.getB1Op() ||
        !accumulatorType(mma.getOperandC().front().getType()) ||
        !isMMASyncShape(*type, shape.getM(), shape.getN(), shape.getK()))
      return refuse("of this shape and type");
  }
  if (auto ld = dyn_cast<NVVM::LdMatrixOp>(op))
    if (ld.getShape().getM() != 8 || ld.getShape().getN() != 8 ||
        ld.getEltType() != NVVM::LdStMatrixEltType::B16)
      return refuse("other than .m8n8.b16");
  return success();
}

void gpumem::cudaemu::nvvmops::populateMatrixOpPatterns(
    RewritePatternSet &patterns, DeviceFunctionState &state) {
  patterns.add<WMMALoadLowering, WMMAStoreLowering, WMMAMmaLowering,
               MmaSyncLowering, LdMatrixLowering>(patterns.getContext(), state);
}
