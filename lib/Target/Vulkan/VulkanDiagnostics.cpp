//===----------------------------------------------------------------------===//
// gpu.printf and cf.assert on the vulkan target.
//
// Both write the diagnostics buffer (descriptor set 1, binding 0; its
// layout is in include/gpumem/Runtime/VulkanKernelABI.h), a StorageBuffer
// variable every function of the spirv.module can reach, so device
// functions print and assert as kernels do. Each op is a site, numbered in
// the order the conversion meets them; the site table (format or message,
// location, argument kinds) goes into the image, so the kernel writes only
// numbers:
//   gpu.printf: old = atomic add(cursor, n) for its n record words; when
//     old + n fits the capacity the words go to records[old...], else to
//     the discard word and `dropped` counts one more record. Arguments are
//     promoted as C's varargs are (i1, i8, i16 to int; f16, f32 to double
//     on the host) and stored as 32-bit words, 64-bit ones low word first.
//   cf.assert: prev = compare-and-swap(assert, 0, ok ? 0 : site + 1); the
//     thread whose swap won (it failed, prev was 0) writes its block and
//     thread ids, everyone else writes them to the discard word.
// Neither branches, so neither disturbs the structured control flow
// around it.
//===----------------------------------------------------------------------===//

#include "VulkanDiagnostics.h"
#include "gpumem/Runtime/VulkanKernelABI.h"
#include "gpumem/Transforms/SourceLocation.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace gpumem::vulkan;

namespace {

constexpr llvm::StringLiteral kBufferName = "__gpumem_diagnostics";

/// Where a site is, as the runtime prints it.
std::string siteLocation(Operation *op) {
  return gpumem::fileLineColumn(op->getLoc()).value_or("unknown location");
}

/// Builds SPIR-V around one op: constants and word pointers into the
/// diagnostics buffer, which is created in the spirv.module on first use.
class DiagnosticsBuilder {
public:
  DiagnosticsBuilder(Operation *op, const SPIRVTypeConverter &converter,
                     ConversionPatternRewriter &rewriter)
      : loc(op->getLoc()), rewriter(rewriter), i32(rewriter.getI32Type()) {
    auto module = op->getParentOfType<spirv::ModuleOp>();
    auto global = module.lookupSymbol<spirv::GlobalVariableOp>(kBufferName);
    if (!global) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      Attribute storage = spirv::StorageClassAttr::get(
          rewriter.getContext(), spirv::StorageClass::StorageBuffer);
      Type type = converter.convertType(MemRefType::get(
          {ShapedType::kDynamic}, i32, MemRefLayoutAttrInterface(), storage));
      global = spirv::GlobalVariableOp::create(rewriter, loc, type, kBufferName,
                                               /*descriptorSet=*/1,
                                               /*binding=*/0);
    }
    buffer = spirv::AddressOfOp::create(rewriter, loc, global);
  }

  Value constant(int64_t value) {
    return spirv::ConstantOp::create(rewriter, loc, i32,
                                     rewriter.getI32IntegerAttr(value));
  }
  Value word(Value index) {
    return spirv::AccessChainOp::create(rewriter, loc, buffer,
                                        ValueRange{constant(0), index});
  }
  Value word(int64_t index) { return word(constant(index)); }
  Value atomicAdd(int64_t index, Value value) {
    return spirv::AtomicIAddOp::create(rewriter, loc, i32, word(index),
                                       spirv::Scope::Device,
                                       spirv::MemorySemantics::None, value);
  }
  /// Stores `value` at `index` when `keep`, else at the discard word.
  void storeIf(Value keep, Value index, Value value) {
    Value at = spirv::SelectOp::create(rewriter, loc, keep, index,
                                       constant(GPUMEM_VULKAN_DIAG_DISCARD));
    spirv::StoreOp::create(rewriter, loc, word(at), value);
  }

  Location loc;
  ConversionPatternRewriter &rewriter;
  IntegerType i32;
  Value buffer;
};

/// Appends the words of printf argument `value` (converted from `type`)
/// and returns its kind, or 0 for a type it cannot print.
int32_t printfWords(DiagnosticsBuilder &b, Type type, Value value,
                    SmallVectorImpl<Value> &words) {
  ConversionPatternRewriter &rewriter = b.rewriter;
  Location loc = b.loc;
  Type converted = value.getType();
  auto split = [&](Value wide) {
    IntegerType i64 = rewriter.getI64Type();
    if (wide.getType() != i64)
      wide = spirv::BitcastOp::create(rewriter, loc, i64, wide);
    Value shift = spirv::ConstantOp::create(rewriter, loc, i64,
                                            rewriter.getI64IntegerAttr(32));
    Value high = spirv::ShiftRightLogicalOp::create(rewriter, loc, wide, shift);
    words.push_back(spirv::UConvertOp::create(rewriter, loc, b.i32, wide));
    words.push_back(spirv::UConvertOp::create(rewriter, loc, b.i32, high));
  };
  if (isa<FloatType>(converted)) {
    unsigned width = converted.getIntOrFloatBitWidth();
    if (width == 64) {
      split(value);
      return GPUMEM_VULKAN_ARG_FLOAT64;
    }
    if (width < 32)
      value = spirv::FConvertOp::create(rewriter, loc, rewriter.getF32Type(),
                                        value);
    words.push_back(spirv::BitcastOp::create(rewriter, loc, b.i32, value));
    return GPUMEM_VULKAN_ARG_FLOAT32;
  }
  auto integer = dyn_cast<IntegerType>(converted);
  if (!integer)
    return 0;
  unsigned width = integer.getWidth();
  if (width == 1) {
    words.push_back(spirv::SelectOp::create(rewriter, loc, value, b.constant(1),
                                            b.constant(0)));
    return GPUMEM_VULKAN_ARG_INT32;
  }
  if (width == 64) {
    split(value);
    return GPUMEM_VULKAN_ARG_INT64;
  }
  if (width < 32)
    value = spirv::SConvertOp::create(rewriter, loc, b.i32, value);
  words.push_back(value);
  return type.isIndex() ? GPUMEM_VULKAN_ARG_INT32_AS_INT64
                        : GPUMEM_VULKAN_ARG_INT32;
}

/// A pattern that numbers its op's site by appending it to `sites`.
template <typename Op> class SitePattern : public OpConversionPattern<Op> {
public:
  SitePattern(const SPIRVTypeConverter &converter, MLIRContext *context,
              SmallVectorImpl<DiagnosticSite> &sites)
      : OpConversionPattern<Op>(converter, context), sites(sites) {}

protected:
  SmallVectorImpl<DiagnosticSite> &sites;
};

class PrintfToDiagnostics final : public SitePattern<gpu::PrintfOp> {
public:
  using SitePattern::SitePattern;

  LogicalResult
  matchAndRewrite(gpu::PrintfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DiagnosticsBuilder b(op, *getTypeConverter<SPIRVTypeConverter>(), rewriter);
    DiagnosticSite site{
        GPUMEM_VULKAN_SITE_PRINTF, op.getFormat().str(), siteLocation(op), {}};
    SmallVector<Value> words = {b.constant(int64_t(sites.size()))};
    for (auto [arg, value] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
      int32_t kind = printfWords(b, arg.getType(), value, words);
      if (!kind)
        return rewriter.notifyMatchFailure(op, "an argument it cannot print");
      site.argKinds.push_back(kind);
    }
    int64_t count = words.size();
    Value old = b.atomicAdd(GPUMEM_VULKAN_DIAG_CURSOR, b.constant(count));
    Value capacity = spirv::LoadOp::create(rewriter, b.loc,
                                           b.word(GPUMEM_VULKAN_DIAG_CAPACITY));
    Value end = spirv::IAddOp::create(rewriter, b.loc, old, b.constant(count));
    Value fits =
        spirv::ULessThanEqualOp::create(rewriter, b.loc, end, capacity);
    b.atomicAdd(GPUMEM_VULKAN_DIAG_DROPPED,
                spirv::SelectOp::create(rewriter, b.loc, fits, b.constant(0),
                                        b.constant(1)));
    Value first = spirv::IAddOp::create(rewriter, b.loc, old,
                                        b.constant(GPUMEM_VULKAN_DIAG_RECORDS));
    for (auto [k, word] : llvm::enumerate(words)) {
      Value index =
          spirv::IAddOp::create(rewriter, b.loc, first, b.constant(int64_t(k)));
      b.storeIf(fits, index, word);
    }
    sites.push_back(std::move(site));
    rewriter.eraseOp(op);
    return success();
  }
};

class AssertToDiagnostics final : public SitePattern<cf::AssertOp> {
public:
  using SitePattern::SitePattern;

  LogicalResult
  matchAndRewrite(cf::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DiagnosticsBuilder b(op, *getTypeConverter<SPIRVTypeConverter>(), rewriter);
    Value ok = adaptor.getArg();
    Value zero = b.constant(0);
    Value mark = spirv::SelectOp::create(rewriter, b.loc, ok, zero,
                                         b.constant(int64_t(sites.size()) + 1));
    Value previous = spirv::AtomicCompareExchangeOp::create(
        rewriter, b.loc, b.i32, b.word(GPUMEM_VULKAN_DIAG_ASSERT),
        spirv::Scope::Device, spirv::MemorySemantics::None,
        spirv::MemorySemantics::None, mark, zero);
    Value first = spirv::IEqualOp::create(rewriter, b.loc, previous, zero);
    Value failed = spirv::LogicalNotOp::create(rewriter, b.loc, ok);
    Value won = spirv::LogicalAndOp::create(rewriter, b.loc, failed, first);
    auto storeIds = [&](spirv::BuiltIn builtin, int64_t at) {
      Value ids = spirv::getBuiltinVariableValue(op, builtin, b.i32, rewriter);
      for (int32_t d = 0; d < 3; ++d) {
        Value id = spirv::CompositeExtractOp::create(rewriter, b.loc, ids,
                                                     ArrayRef<int32_t>{d});
        b.storeIf(won, b.constant(at + d), id);
      }
    };
    storeIds(spirv::BuiltIn::WorkgroupId, GPUMEM_VULKAN_DIAG_ASSERT_BLOCK);
    storeIds(spirv::BuiltIn::LocalInvocationId,
             GPUMEM_VULKAN_DIAG_ASSERT_THREAD);
    // The place CUDA's assert message names, found as the NVVM lowering
    // does.
    gpumem::AssertSite site = gpumem::assertSite(op.getLoc());
    sites.push_back(
        {GPUMEM_VULKAN_SITE_ASSERT,
         op.getMsg().str(),
         site.file + ":" + std::to_string(site.line) + ": " + site.function,
         {}});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

bool gpumem::vulkan::isDiagnosticOp(Operation *op) {
  return isa<gpu::PrintfOp, cf::AssertOp>(op);
}

void gpumem::vulkan::populateDiagnosticsToSPIRVPatterns(
    const SPIRVTypeConverter &converter, RewritePatternSet &patterns,
    SmallVectorImpl<DiagnosticSite> &sites) {
  patterns.add<PrintfToDiagnostics, AssertToDiagnostics>(
      converter, patterns.getContext(), sites);
}
