//===----------------------------------------------------------------------===//
// gpumem-lower-mma-elementwise-for-nvvm: every gpu.subgroup_mma_elementwise
// as arithmetic on the registers of its NVIDIA fragment.
//
// Upstream's NVVM lowering of the op handles addf, mulf, divf, maxf and minf
// on floats held one per register: maxf/minf on f16 fragments (registers of
// two halves) build a NaN constant of the wrong type and crash the
// translation, tf32 fragments (f32 elements in i32 registers) get llvm.fadd
// on i32, and every other kind (subf, negatef, extf, the integer ones) hits
// an unreachable. Algorithm, on a gpu.module before the NVVM lowering: for
// each op,
//  1. check what the verifier leaves open: the kind's arity, the result
//     type (the operands' one, or for extf a wider float of the same shape,
//     operand and elements per thread), float kinds on float matrices,
//     integer kinds on integer ones, a fragment with registers;
//  2. view every operand as the LLVM struct of registers the NVVM lowering
//     gives it (convertMMAToLLVMType), through unrealized casts;
//  3. view each register as the elements it holds (vector<2xf16> for two
//     halves, f32 for tf32 bits in an i32, vector<4xi8> for four bytes),
//     apply the arith op of the kind to the views (maxf/minf as
//     arith.maximumf/minimumf, which propagate NaN), and bitcast back; for
//     extf, the source's elements in register order become the result's;
//  4. cast the struct of results back to the matrix type.
// The NVVM lowering then converts the arith ops, and the casts fold away
// against its conversion of the matrices around.
//===----------------------------------------------------------------------===//

#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERMMAELEMENTWISEFORNVVMPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

using gpu::MMAElementwiseOp;

/// How a fragment's registers hold its elements.
struct FragmentLayout {
  /// The type NVVM gives the matrix: a struct of registers, or one register
  /// (an f64 A or B fragment).
  Type converted;
  SmallVector<Type> registers;
  /// One register seen as the elements it holds (the register type itself
  /// when it already is that).
  Type view;
  /// Elements per register.
  int64_t perRegister = 1;

  int64_t numElements() const { return perRegister * registers.size(); }
};

bool isUnary(MMAElementwiseOp kind) {
  return kind == MMAElementwiseOp::NEGATEF ||
         kind == MMAElementwiseOp::NEGATES || kind == MMAElementwiseOp::EXTF;
}

bool isFloatKind(MMAElementwiseOp kind) {
  switch (kind) {
  case MMAElementwiseOp::ADDF:
  case MMAElementwiseOp::MULF:
  case MMAElementwiseOp::SUBF:
  case MMAElementwiseOp::MAXF:
  case MMAElementwiseOp::MINF:
  case MMAElementwiseOp::DIVF:
  case MMAElementwiseOp::NEGATEF:
  case MMAElementwiseOp::EXTF:
    return true;
  default:
    return false;
  }
}

/// The registers NVVM gives `type` and the element view of each, or failure
/// when they do not hold whole elements (no NVIDIA fragment has that type).
FailureOr<FragmentLayout> getLayout(gpu::MMAMatrixType type) {
  Type converted = convertMMAToLLVMType(type);
  SmallVector<Type> registers{converted};
  if (auto structType = dyn_cast_or_null<LLVM::LLVMStructType>(converted))
    registers.assign(structType.getBody().begin(), structType.getBody().end());
  if (!converted || registers.empty() || !llvm::all_equal(registers) ||
      !(registers.front().isIntOrFloat() || isa<VectorType>(registers.front())))
    return failure();
  // si8/ui8 elements are computed on as signless bytes.
  Type element = type.getElementType();
  if (auto integer = dyn_cast<IntegerType>(element))
    element = IntegerType::get(type.getContext(), integer.getWidth());
  Type reg = registers.front();
  FragmentLayout layout{converted, registers, reg, 1};
  if (auto vector = dyn_cast<VectorType>(reg)) {
    if (vector.getRank() != 1 || vector.getElementType() != element)
      return failure();
    layout.perRegister = vector.getNumElements();
    return layout;
  }
  unsigned regBits = reg.getIntOrFloatBitWidth();
  unsigned elementBits = element.getIntOrFloatBitWidth();
  if (regBits % elementBits)
    return failure();
  layout.perRegister = regBits / elementBits;
  layout.view = layout.perRegister == 1
                    ? element
                    : VectorType::get({layout.perRegister}, element);
  return layout;
}

struct LowerMMAElementwiseForNVVMPass
    : gpumem::impl::GPUMemLowerMMAElementwiseForNVVMPassBase<
          LowerMMAElementwiseForNVVMPass> {
  void runOnOperation() override {
    SmallVector<gpu::SubgroupMmaElementwiseOp> ops;
    getOperation().walk(
        [&](gpu::SubgroupMmaElementwiseOp op) { ops.push_back(op); });
    bool failed = false;
    for (gpu::SubgroupMmaElementwiseOp op : ops)
      failed |= mlir::failed(lower(op));
    if (failed)
      signalPassFailure();
  }

  LogicalResult lower(gpu::SubgroupMmaElementwiseOp op);
  LogicalResult check(gpu::SubgroupMmaElementwiseOp op,
                      const FragmentLayout &source,
                      const FragmentLayout &result);
};

LogicalResult
LowerMMAElementwiseForNVVMPass::check(gpu::SubgroupMmaElementwiseOp op,
                                      const FragmentLayout &source,
                                      const FragmentLayout &result) {
  MMAElementwiseOp kind = op.getOpType();
  StringRef name = gpu::stringifyMMAElementwiseOp(kind);
  auto sourceType = cast<gpu::MMAMatrixType>(op.getArgs().front().getType());
  gpu::MMAMatrixType resultType = op.getType();
  Type element = sourceType.getElementType();
  if (isFloatKind(kind) && !isa<FloatType>(element))
    return op.emitOpError()
           << name << " needs floating-point matrices, got " << sourceType;
  if (!isFloatKind(kind) && !isa<IntegerType>(element))
    return op.emitOpError()
           << name << " needs integer matrices, got " << sourceType;
  if (kind != MMAElementwiseOp::EXTF) {
    if (resultType != sourceType)
      return op.emitOpError() << name << " gives the operands' type "
                              << sourceType << ", not " << resultType;
    return success();
  }
  auto wider = dyn_cast<FloatType>(resultType.getElementType());
  if (!wider || wider.getWidth() <= element.getIntOrFloatBitWidth() ||
      resultType.getShape() != sourceType.getShape() ||
      resultType.getOperand() != sourceType.getOperand())
    return op.emitOpError()
           << "extf needs a wider floating-point matrix of the same shape "
              "and operand as "
           << sourceType << ", got " << resultType;
  if (source.numElements() != result.numElements())
    return op.emitOpError()
           << "extf from " << sourceType << " to " << resultType
           << " has no NVIDIA lowering: a thread holds " << source.numElements()
           << " elements of one and " << result.numElements()
           << " of the other";
  return success();
}

/// The kind's arith op on `operands` (element views of one register each).
Value createElementOp(OpBuilder &builder, Location loc, MMAElementwiseOp kind,
                      ValueRange operands) {
  Value lhs = operands.front();
  Value rhs = operands.size() > 1 ? operands[1] : Value();
  switch (kind) {
  case MMAElementwiseOp::ADDF:
    return arith::AddFOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::MULF:
    return arith::MulFOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::SUBF:
    return arith::SubFOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::MAXF:
    return arith::MaximumFOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::MINF:
    return arith::MinimumFOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::DIVF:
    return arith::DivFOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::ADDI:
    return arith::AddIOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::MULI:
    return arith::MulIOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::SUBI:
    return arith::SubIOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::DIVS:
    return arith::DivSIOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::DIVU:
    return arith::DivUIOp::create(builder, loc, lhs, rhs);
  case MMAElementwiseOp::NEGATEF:
    return arith::NegFOp::create(builder, loc, lhs);
  case MMAElementwiseOp::NEGATES: {
    Value zero = arith::ConstantOp::create(builder, loc,
                                           builder.getZeroAttr(lhs.getType()));
    return arith::SubIOp::create(builder, loc, zero, lhs);
  }
  case MMAElementwiseOp::EXTF:
    break;
  }
  llvm_unreachable("extf is lowered element by element");
}

LogicalResult
LowerMMAElementwiseForNVVMPass::lower(gpu::SubgroupMmaElementwiseOp op) {
  MMAElementwiseOp kind = op.getOpType();
  size_t arity = isUnary(kind) ? 1 : 2;
  if (op.getArgs().size() != arity)
    return op.emitOpError() << gpu::stringifyMMAElementwiseOp(kind) << " takes "
                            << arity << (arity == 1 ? " matrix" : " matrices")
                            << ", got " << op.getArgs().size();
  auto sourceType = cast<gpu::MMAMatrixType>(op.getArgs().front().getType());
  FailureOr<FragmentLayout> source = getLayout(sourceType);
  FailureOr<FragmentLayout> result = getLayout(op.getType());
  if (failed(source) || failed(result))
    return op.emitOpError() << "has no NVIDIA register fragment for "
                            << (failed(source) ? sourceType : op.getType());
  if (failed(check(op, *source, *result)))
    return failure();

  OpBuilder builder(op);
  Location loc = op.getLoc();
  // One register of `structValue` seen as its elements, and back.
  auto getRegister = [&](Value structValue, const FragmentLayout &layout,
                         int64_t index) -> Value {
    Value reg = structValue;
    if (isa<LLVM::LLVMStructType>(layout.converted))
      reg = LLVM::ExtractValueOp::create(builder, loc, structValue, index);
    if (reg.getType() == layout.view)
      return reg;
    return LLVM::BitcastOp::create(builder, loc, layout.view, reg);
  };
  auto toRegister = [&](Value view, const FragmentLayout &layout) -> Value {
    Type reg = layout.registers.front();
    if (view.getType() == reg)
      return view;
    return LLVM::BitcastOp::create(builder, loc, reg, view);
  };

  SmallVector<Value> structs;
  for (Value arg : op.getArgs())
    structs.push_back(
        UnrealizedConversionCastOp::create(builder, loc, source->converted, arg)
            .getResult(0));
  bool isStruct = isa<LLVM::LLVMStructType>(result->converted);
  Value resultStruct;
  if (isStruct)
    resultStruct = LLVM::PoisonOp::create(builder, loc, result->converted);
  // Register `i` of the result is `reg`.
  auto setRegister = [&](Value reg, size_t i) {
    resultStruct = isStruct ? LLVM::InsertValueOp::create(builder, loc,
                                                          resultStruct, reg, i)
                                  .getResult()
                            : reg;
  };
  size_t numRegisters = result->registers.size();
  if (kind != MMAElementwiseOp::EXTF) {
    for (size_t i = 0; i < numRegisters; ++i) {
      SmallVector<Value> views;
      for (Value s : structs)
        views.push_back(getRegister(s, *source, i));
      Value value = createElementOp(builder, loc, kind, views);
      setRegister(toRegister(value, *result), i);
    }
  } else {
    // Elements in register order, lanes of a register in order.
    Type wider = op.getType().getElementType();
    SmallVector<Value> elements;
    for (size_t i = 0, e = source->registers.size(); i < e; ++i) {
      Value view = getRegister(structs.front(), *source, i);
      if (source->perRegister == 1) {
        elements.push_back(arith::ExtFOp::create(builder, loc, wider, view));
        continue;
      }
      for (int64_t lane = 0; lane < source->perRegister; ++lane) {
        Value element = vector::ExtractOp::create(builder, loc, view, lane);
        elements.push_back(arith::ExtFOp::create(builder, loc, wider, element));
      }
    }
    for (size_t i = 0; i < numRegisters; ++i) {
      ArrayRef<Value> lanes = ArrayRef(elements).slice(i * result->perRegister,
                                                       result->perRegister);
      Value view =
          result->perRegister == 1
              ? lanes.front()
              : vector::FromElementsOp::create(
                    builder, loc, cast<VectorType>(result->view), lanes)
                    .getResult();
      setRegister(toRegister(view, *result), i);
    }
  }
  Value matrix = UnrealizedConversionCastOp::create(builder, loc, op.getType(),
                                                    resultStruct)
                     .getResult(0);
  op.replaceAllUsesWith(matrix);
  op.erase();
  return success();
}

} // namespace
