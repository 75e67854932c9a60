//===----------------------------------------------------------------------===//
// 16-bit floats on the vulkan target: bits in i16, arithmetic in f32.
//
// gpumem's vulkan target declares no Float16 capability (few devices have
// bf16, and 16-bit storage is optional), and upstream's SPIR-V type
// conversion then widens f16 and bf16 to f32 silently: truncf becomes a
// no-op (nothing rounds), and a workgroup memref<N x f16> becomes an array
// of N/2 f32 whose elements are each a whole word, so half of them land past
// its end. Instead, before that conversion:
//
//  1. Every operation that computes on 16-bit floats computes in f32 and
//     rounds its result back (upstream's arith and math float emulation,
//     which gpu.subgroup_reduce joins); gpu.printf operands are extended,
//     as C's varargs promote them.
//  2. Every extf from and truncf to f16 or bf16 becomes integer arithmetic
//     on the bits: bf16 by upstream's expansion; f16 here, round to nearest
//     even with overflow to infinity, subnormals and quiet NaNs as IEEE 754
//     (and LLVM's fptrunc on the other targets) give them.
//  3. What is left holds 16-bit floats without computing on them (loads,
//     stores, selects, vectors, shuffles, loop values, constants): each f16
//     and bf16 type, in values, memrefs, vectors and attributes, becomes
//     i16, constants keep their bits, and the bitcasts between the two
//     vanish. The vulkan target's 16-bit integer path (sub-word accesses of
//     32-bit words) then carries them with the host's layout.
//===----------------------------------------------------------------------===//

#include "NarrowFloats.h"

#include "VulkanAtomics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

bool isNarrowFloat(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

bool usesNarrowFloats(gpu::GPUModuleOp module) {
  return module
      ->walk([](Operation *op) {
        auto narrow = [](Type type) {
          if (isNarrowFloat(type))
            return true;
          if (auto memref = dyn_cast<BaseMemRefType>(type))
            return isNarrowFloat(memref.getElementType());
          return false;
        };
        bool uses = llvm::any_of(op->getResultTypes(), narrow) ||
                    llvm::any_of(op->getOperandTypes(), narrow);
        for (Region &region : op->getRegions())
          for (Block &block : region)
            uses |= llvm::any_of(block.getArgumentTypes(), narrow);
        return uses ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

//===----------------------------------------------------------------------===//
// 1. Computing in f32
//===----------------------------------------------------------------------===//

/// gpu.printf promotes floats to double: a 16-bit one is extended first, so
/// that it is printed as a number, not as its bits.
void extendPrintfOperands(gpu::GPUModuleOp module) {
  module.walk([](gpu::PrintfOp printf) {
    OpBuilder builder(printf);
    for (OpOperand &operand : printf->getOpOperands())
      if (isNarrowFloat(operand.get().getType()))
        operand.set(arith::ExtFOp::create(builder, printf.getLoc(),
                                          builder.getF32Type(), operand.get()));
  });
}

LogicalResult computeInF32(gpu::GPUModuleOp module) {
  MLIRContext *context = module.getContext();
  Type f32 = Float32Type::get(context);
  // Math: every float type but f32 and f64 extended to f32.
  {
    SetVector<Type> supported;
    supported.insert(f32);
    supported.insert(Float64Type::get(context));
    TypeConverter converter;
    math::populateExtendToSupportedTypesTypeConverter(converter, supported,
                                                      f32);
    ConversionTarget target(*context);
    math::populateExtendToSupportedTypesConversionTarget(target, converter);
    RewritePatternSet patterns(context);
    math::populateExtendToSupportedTypesPatterns(patterns, converter);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return failure();
  }
  // Arith, the vector ops that compute, and subgroup reductions.
  SmallVector<Type> narrow = {Float16Type::get(context),
                              BFloat16Type::get(context)};
  TypeConverter converter;
  arith::populateEmulateUnsupportedFloatsConversions(converter, narrow, f32);
  ConversionTarget target(*context);
  arith::populateEmulateUnsupportedFloatsLegality(target, converter);
  target.addDynamicallyLegalOp<gpu::SubgroupReduceOp>(
      [&](Operation *op) { return converter.isLegal(op); });
  RewritePatternSet patterns(context);
  arith::populateEmulateUnsupportedFloatsPatterns(patterns, converter);
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return failure();
  // The emulation marks its extf and truncf `contract`, which lets a folder
  // drop a truncf-extf pair between two operations: the intermediate
  // rounding the other targets do (an f16 multiply then add, say) would be
  // skipped.
  module.walk(
      [](arith::ExtFOp op) { op.setFastmath(arith::FastMathFlags::none); });
  module.walk(
      [](arith::TruncFOp op) { op.setFastmath(arith::FastMathFlags::none); });
  return success();
}

//===----------------------------------------------------------------------===//
// 2. Conversions as integer arithmetic
//===----------------------------------------------------------------------===//

/// Integer and float constants shaped like `like` (scalar or vector).
struct Bits {
  OpBuilder &builder;
  Location loc;
  Type i32, i16, f32;

  Bits(OpBuilder &builder, Location loc, Type like)
      : builder(builder), loc(loc) {
    auto shaped = [&](Type element) -> Type {
      if (auto vector = dyn_cast<VectorType>(like))
        return vector.clone(element);
      return element;
    };
    i32 = shaped(builder.getI32Type());
    i16 = shaped(builder.getI16Type());
    f32 = shaped(builder.getF32Type());
  }
  Value c(int64_t value) {
    return createScalarOrSplatConstant(builder, loc, i32, value);
  }
  Value shr(Value v, int64_t n) {
    return arith::ShRUIOp::create(builder, loc, v, c(n));
  }
  Value shl(Value v, int64_t n) {
    return arith::ShLIOp::create(builder, loc, v, c(n));
  }
  Value mask(Value v, int64_t m) {
    return arith::AndIOp::create(builder, loc, v, c(m));
  }
  Value bitOr(Value a, Value b) {
    return arith::OrIOp::create(builder, loc, a, b);
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(builder, loc, a, b);
  }
  Value cmp(arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b);
  }
  Value select(Value condition, Value a, Value b) {
    return arith::SelectOp::create(builder, loc, condition, a, b);
  }
};

/// f16 bits (as the low half of an i32) to the bits of the same f32.
Value f16BitsToF32(Bits &b, Value half) {
  using P = arith::CmpIPredicate;
  Value sign = b.shl(b.mask(half, 0x8000), 16);
  Value exponent = b.mask(b.shr(half, 10), 0x1f);
  Value mantissa = b.mask(half, 0x3ff);
  Value shifted = b.shl(mantissa, 13);
  // Normal: rebias the exponent (15 to 127).
  Value normal = b.bitOr(b.shl(b.add(exponent, b.c(127 - 15)), 23), shifted);
  // Infinity and NaN keep their payload.
  Value special = b.bitOr(b.c(0x7f800000), shifted);
  // Subnormal (and zero): mantissa * 2^-24, exact in f32.
  Value scaled = arith::MulFOp::create(
      b.builder, b.loc,
      arith::UIToFPOp::create(b.builder, b.loc, b.f32, mantissa),
      createScalarOrSplatConstant(b.builder, b.loc, b.f32, APFloat(0x1p-24f)));
  Value subnormal = arith::BitcastOp::create(b.builder, b.loc, b.i32, scaled);
  Value magnitude =
      b.select(b.cmp(P::eq, exponent, b.c(0)), subnormal,
               b.select(b.cmp(P::eq, exponent, b.c(0x1f)), special, normal));
  return b.bitOr(sign, magnitude);
}

/// f32 bits to f16 bits (in the low half of an i32), rounded to nearest
/// even.
Value f32BitsToF16(Bits &b, Value word) {
  using P = arith::CmpIPredicate;
  Value sign = b.mask(b.shr(word, 16), 0x8000);
  Value magnitude = b.mask(word, 0x7fffffff);
  // Normal results: rebias, then round the 13 dropped bits to nearest even
  // (a carry may reach the exponent, up to infinity at 65520 and above).
  Value rebiased =
      arith::SubIOp::create(b.builder, b.loc, magnitude, b.c((127 - 15) << 23));
  Value odd = b.mask(b.shr(rebiased, 13), 1);
  Value normal = b.shr(b.add(b.add(rebiased, b.c(0xfff)), odd), 13);
  // Subnormal results (below 2^-14): the 24-bit significand shifted right
  // by 126 - exponent (capped at 25, where everything rounds to zero),
  // rounded to nearest even.
  Value exponent = b.shr(magnitude, 23);
  Value significand = b.bitOr(b.mask(magnitude, 0x7fffff), b.c(0x800000));
  Value shift = arith::MinUIOp::create(
      b.builder, b.loc,
      arith::SubIOp::create(b.builder, b.loc, b.c(126), exponent), b.c(25));
  Value quotient = arith::ShRUIOp::create(b.builder, b.loc, significand, shift);
  Value one = b.c(1);
  Value unit = arith::ShLIOp::create(b.builder, b.loc, one, shift);
  Value remainder =
      arith::AndIOp::create(b.builder, b.loc, significand,
                            arith::SubIOp::create(b.builder, b.loc, unit, one));
  Value half = b.shr(unit, 1);
  Value roundUp = arith::OrIOp::create(
      b.builder, b.loc, b.cmp(P::ugt, remainder, half),
      arith::AndIOp::create(b.builder, b.loc, b.cmp(P::eq, remainder, half),
                            b.cmp(P::ne, b.mask(quotient, 1), b.c(0))));
  Value subnormal =
      b.add(quotient, arith::ExtUIOp::create(b.builder, b.loc, b.i32, roundUp));
  // NaN stays NaN (quiet, payload's top bits); 65536 and above, infinity.
  Value nan = b.bitOr(b.c(0x7e00), b.shr(b.mask(magnitude, 0x7fffff), 13));
  Value result =
      b.select(b.cmp(P::ugt, magnitude, b.c(0x7f800000)), nan,
               b.select(b.cmp(P::uge, magnitude, b.c(0x47800000)), b.c(0x7c00),
                        b.select(b.cmp(P::ult, magnitude, b.c(0x38800000)),
                                 subnormal, normal)));
  return b.bitOr(sign, result);
}

struct F16ExtFToBits : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type source = op.getIn().getType();
    if (!getElementTypeOrSelf(source).isF16())
      return failure();
    Bits b(rewriter, op.getLoc(), source);
    Value bits =
        arith::BitcastOp::create(rewriter, op.getLoc(), b.i16, op.getIn());
    Value word = arith::ExtUIOp::create(rewriter, op.getLoc(), b.i32, bits);
    Value extended = arith::BitcastOp::create(rewriter, op.getLoc(), b.f32,
                                              f16BitsToF32(b, word));
    if (getElementTypeOrSelf(op.getType()).isF32())
      rewriter.replaceOp(op, extended);
    else // f64: exact from f32.
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), extended);
    return success();
  }
};

struct F16TruncFToBits : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF16() ||
        !getElementTypeOrSelf(op.getIn().getType()).isF32() ||
        op.getRoundingmodeAttr())
      return failure();
    Bits b(rewriter, op.getLoc(), op.getType());
    Value word =
        arith::BitcastOp::create(rewriter, op.getLoc(), b.i32, op.getIn());
    Value bits = arith::TruncIOp::create(rewriter, op.getLoc(), b.i16,
                                         f32BitsToF16(b, word));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), bits);
    return success();
  }
};

/// bf16 to f64 through f32 (exact), which upstream's expansion then takes.
struct BF16ExtFThroughF32 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getIn().getType()).isBF16() ||
        !getElementTypeOrSelf(op.getType()).isF64())
      return failure();
    Bits b(rewriter, op.getLoc(), op.getType());
    Value wide =
        arith::ExtFOp::create(rewriter, op.getLoc(), b.f32, op.getIn());
    rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), wide);
    return success();
  }
};

LogicalResult conversionsToBits(gpu::GPUModuleOp module) {
  MLIRContext *context = module.getContext();
  RewritePatternSet patterns(context);
  patterns.add<F16ExtFToBits, F16TruncFToBits, BF16ExtFThroughF32>(context);
  arith::populateExpandBFloat16Patterns(patterns);
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    return module.emitError()
           << "16-bit float conversions did not settle for the vulkan target";
  // What is left rounds otherwise than to nearest even, or from f64 (two
  // roundings would differ from the other targets' one).
  WalkResult left = module.walk([](Operation *op) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
      return WalkResult::advance();
    if (!isNarrowFloat(op->getResultTypes()[0]) &&
        !isNarrowFloat(op->getOperandTypes()[0]))
      return WalkResult::advance();
    op->emitOpError() << "converts " << op->getOperandTypes()[0] << " to "
                      << op->getResultTypes()[0]
                      << " in a way the vulkan target cannot round exactly "
                         "yet (it rounds f32 to f16 and bf16 to nearest "
                         "even); the cpu, cuda-emu and rocm-emu targets "
                         "run it";
    return WalkResult::interrupt();
  });
  return failure(left.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// 3. Storage as i16
//===----------------------------------------------------------------------===//

void floatsToBits(gpu::GPUModuleOp module) {
  MLIRContext *context = module.getContext();
  IntegerType i16 = IntegerType::get(context, 16);
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](FloatType type) -> std::optional<Type> {
    if (type.isF16() || type.isBF16())
      return i16;
    return std::nullopt;
  });
  replacer.addReplacement(
      [&](FloatAttr attr) -> std::optional<std::pair<Attribute, WalkResult>> {
        if (!isNarrowFloat(attr.getType()))
          return std::nullopt;
        return std::make_pair(
            IntegerAttr::get(i16, attr.getValue().bitcastToAPInt()),
            WalkResult::skip());
      });
  replacer.addReplacement(
      [&](DenseFPElementsAttr attr)
          -> std::optional<std::pair<Attribute, WalkResult>> {
        if (!isNarrowFloat(attr.getElementType()))
          return std::nullopt;
        return std::make_pair(Attribute(attr.bitcast(i16)), WalkResult::skip());
      });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  module.walk([](arith::BitcastOp cast) {
    if (cast.getIn().getType() == cast.getType()) {
      cast.replaceAllUsesWith(cast.getIn());
      cast.erase();
    }
  });
}

} // namespace

LogicalResult gpumem::vulkan::narrowFloatsToBits(gpu::GPUModuleOp module) {
  if (!usesNarrowFloats(module))
    return success();
  // Atomics on 16-bit floats are refused as what the user wrote (as bits
  // they would be i16 ones, refused the same way).
  WalkResult atomics = module.walk([](memref::GenericAtomicRMWOp op) {
    Type element = op.getMemref().getType().getElementType();
    if (isNarrowFloat(element) && failed(checkAtomicElement(op, element)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (atomics.wasInterrupted())
    return failure();
  extendPrintfOperands(module);
  if (failed(computeInF32(module)) || failed(conversionsToBits(module)))
    return failure();
  floatsToBits(module);
  // An op that still needs a float (one the steps above do not know) now
  // fails its verifier, at its location.
  if (failed(verify(module)))
    return module.emitError()
           << "the vulkan target could not carry this module's 16-bit floats "
              "as bits (the error above names the operation)";
  return success();
}
