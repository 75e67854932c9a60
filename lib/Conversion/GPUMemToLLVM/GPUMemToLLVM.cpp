//===----------------------------------------------------------------------===//
// gpumem's managed memory ops → LLVM calls of the runtime ABI.
//
//   gpumem.alloc_managed  mgpuMemAlloc(bytes, null, isHostShared = 1), then
//                         the memref descriptor, as upstream lowers a
//                         synchronous gpu.alloc host_shared;
//   gpumem.prefetch       gpumemMemPrefetch(start, bytes, destination,
//                         stream);
//   gpumem.advise         gpumemMemAdvise(start, bytes, advice).
//
// `start` and `bytes` cover every element the memref can address: from the
// lowest to the highest element that its sizes and strides reach from its
// offset (negative and zero strides included), none when a size is 0; what
// is known statically is folded. Streams follow gpu-to-llvm, which maps each
// !gpu.async.token to the stream (or, out of async.execute regions, the
// event) it stands for:
//   async, one stream dependency   queued on that stream, whose value is
//                                  also the result token;
//   async, otherwise               a new stream (mgpuStreamCreate) made to
//                                  wait for every dependency, as gpu.wait
//                                  async does;
//   synchronous                    every dependency is synchronized, then
//                                  the call gets a null stream, which the
//                                  runtimes treat as "finish before
//                                  returning".
// The patterns reach gpu-to-llvm through the dialect's
// ConvertToLLVMPatternInterface.
//===----------------------------------------------------------------------===//

#include "gpumem/Conversion/GPUMemToLLVM/GPUMemToLLVM.h"
#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Runtime/MemoryHints.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

using namespace mlir;
using namespace gpumem;

// The enums' values are what the runtimes expect.
static_assert(int(PrefetchDestination::Device) == GPUMEM_PREFETCH_TO_DEVICE &&
              int(PrefetchDestination::Host) == GPUMEM_PREFETCH_TO_HOST);
static_assert(int(MemoryAdvice::ReadMostly) == GPUMEM_ADVISE_READ_MOSTLY &&
              int(MemoryAdvice::UnsetReadMostly) ==
                  GPUMEM_ADVISE_UNSET_READ_MOSTLY &&
              int(MemoryAdvice::PreferredLocationDevice) ==
                  GPUMEM_ADVISE_PREFERRED_LOCATION_DEVICE &&
              int(MemoryAdvice::PreferredLocationHost) ==
                  GPUMEM_ADVISE_PREFERRED_LOCATION_HOST &&
              int(MemoryAdvice::UnsetPreferredLocation) ==
                  GPUMEM_ADVISE_UNSET_PREFERRED_LOCATION &&
              int(MemoryAdvice::AccessedByDevice) ==
                  GPUMEM_ADVISE_ACCESSED_BY_DEVICE &&
              int(MemoryAdvice::UnsetAccessedByDevice) ==
                  GPUMEM_ADVISE_UNSET_ACCESSED_BY_DEVICE &&
              getMaxEnumValForMemoryAdvice() + 1 == GPUMEM_ADVISE_COUNT);

namespace {

constexpr StringLiteral kStreamCreate = "mgpuStreamCreate";

/// Calls `name` of type `type`, declaring it in the enclosing module the
/// first time (as upstream's gpu-to-llvm does for the mgpu* functions).
Value callRuntime(ConversionPatternRewriter &rewriter, Location loc,
                  StringRef name, LLVM::LLVMFunctionType type,
                  ValueRange arguments) {
  auto module =
      rewriter.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!function) {
    auto builder = OpBuilder::atBlockEnd(module.getBody());
    function = LLVM::LLVMFuncOp::create(builder, loc, name, type);
  }
  auto call = LLVM::CallOp::create(rewriter, loc, function, arguments);
  return call.getNumResults() ? call.getResult() : Value();
}

/// Whether a converted token is a stream, i.e. made by mgpuStreamCreate
/// (gpu-to-llvm's own test); otherwise it is an event.
bool isStream(Value token) {
  auto call = token.getDefiningOp<LLVM::CallOp>();
  return call && call.getCallee() == kStreamCreate;
}

/// An i64: a constant (not materialized until needed) or an SSA value.
struct Int {
  std::optional<int64_t> constant;
  Value value;
};

/// i64 arithmetic that folds constants and materializes them only when an
/// operation needs them as values.
class IntBuilder {
public:
  IntBuilder(ConversionPatternRewriter &rewriter, Location loc)
      : rewriter(rewriter), loc(loc), i64(rewriter.getI64Type()) {}

  static Int constant(int64_t value) { return {value, Value()}; }
  static Int dynamic(Value value) { return {std::nullopt, value}; }

  Value materialize(Int a) {
    if (a.value)
      return a.value;
    return LLVM::ConstantOp::create(rewriter, loc, i64,
                                    rewriter.getI64IntegerAttr(*a.constant));
  }
  Int add(Int a, Int b) {
    if (a.constant && b.constant)
      return constant(*a.constant + *b.constant);
    if (a.constant == 0)
      return b;
    if (b.constant == 0)
      return a;
    return binary<LLVM::AddOp>(a, b);
  }
  Int sub(Int a, Int b) {
    if (a.constant && b.constant)
      return constant(*a.constant - *b.constant);
    if (b.constant == 0)
      return a;
    return binary<LLVM::SubOp>(a, b);
  }
  Int mul(Int a, Int b) {
    if (a.constant && b.constant)
      return constant(*a.constant * *b.constant);
    if (a.constant == 0 || b.constant == 0)
      return constant(0);
    if (a.constant == 1)
      return b;
    if (b.constant == 1)
      return a;
    return binary<LLVM::MulOp>(a, b);
  }
  Int min(Int a, Int b) {
    if (a.constant && b.constant)
      return constant(std::min(*a.constant, *b.constant));
    return binary<LLVM::SMinOp>(a, b);
  }
  Int max(Int a, Int b) {
    if (a.constant && b.constant)
      return constant(std::max(*a.constant, *b.constant));
    return binary<LLVM::SMaxOp>(a, b);
  }

private:
  template <typename Op> Int binary(Int a, Int b) {
    return dynamic(Op::create(rewriter, loc, materialize(a), materialize(b)));
  }

  ConversionPatternRewriter &rewriter;
  Location loc;
  Type i64;
};

/// The bytes a memref can address.
struct Extent {
  Value start; ///< !llvm.ptr in address space 0
  Value bytes; ///< i64
};

/// Base of the patterns: the extent computation and common types.
template <typename Op>
class RuntimeCallPattern : public ConvertOpToLLVMPattern<Op> {
public:
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;

protected:
  Type ptrType() const { return this->getPtrType(); }
  Type i64Type() const { return IntegerType::get(this->getContext(), 64); }
  Type i32Type() const { return IntegerType::get(this->getContext(), 32); }
  Type voidType() const { return this->getVoidType(); }

  /// Fails unless the index type is 64 bits wide: the runtime ABI takes
  /// sizes as uint64_t and the extent is computed in i64.
  LogicalResult checkIndexType(Operation *op,
                               ConversionPatternRewriter &rewriter) const {
    if (this->getIndexType() != i64Type())
      return rewriter.notifyMatchFailure(op, "needs a 64-bit index type");
    return success();
  }

  /// From the lowest to the highest element `descriptorValue` can address.
  Extent computeExtent(Location loc, MemRefType type, Value descriptorValue,
                       ConversionPatternRewriter &rewriter) const {
    MemRefDescriptor descriptor(descriptorValue);
    IntBuilder ints(rewriter, loc);
    auto [staticStrides, staticOffset] = type.getStridesAndOffset();
    auto known = [&](int64_t value, auto load) {
      return ShapedType::isDynamic(value) ? IntBuilder::dynamic(load())
                                          : IntBuilder::constant(value);
    };
    Int offset =
        known(staticOffset, [&] { return descriptor.offset(rewriter, loc); });
    Type elementType =
        this->getTypeConverter()->convertType(type.getElementType());
    Value aligned = descriptor.alignedPtr(rewriter, loc);
    auto address = [&](Int element) {
      Value start = aligned;
      if (element.constant != 0)
        start =
            LLVM::GEPOp::create(rewriter, loc, aligned.getType(), elementType,
                                aligned, ValueRange{ints.materialize(element)});
      if (cast<LLVM::LLVMPointerType>(start.getType()).getAddressSpace() != 0)
        start = LLVM::AddrSpaceCastOp::create(rewriter, loc, ptrType(), start);
      return start;
    };
    if (llvm::is_contained(type.getShape(), 0)) // no elements
      return {address(offset), ints.materialize(IntBuilder::constant(0))};

    Int low = IntBuilder::constant(0), high = IntBuilder::constant(0);
    Value anyEmpty; // i1: some dynamic size is 0
    for (int64_t dim = 0, rank = type.getRank(); dim < rank; ++dim) {
      Int size = known(type.getDimSize(dim),
                       [&] { return descriptor.size(rewriter, loc, dim); });
      Int stride = known(staticStrides[dim],
                         [&] { return descriptor.stride(rewriter, loc, dim); });
      if (!size.constant) {
        Value isZero = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::eq, size.value,
            ints.materialize(IntBuilder::constant(0)));
        anyEmpty = anyEmpty
                       ? LLVM::OrOp::create(rewriter, loc, anyEmpty, isZero)
                       : isZero;
      }
      Int reach = ints.mul(ints.sub(size, IntBuilder::constant(1)), stride);
      low = ints.add(low, ints.min(reach, IntBuilder::constant(0)));
      high = ints.add(high, ints.max(reach, IntBuilder::constant(0)));
    }
    Value start = address(ints.add(offset, low));
    Int elements = ints.add(ints.sub(high, low), IntBuilder::constant(1));
    Value elementBytes =
        this->getSizeInBytes(loc, type.getElementType(), rewriter);
    Value bytes =
        ints.materialize(ints.mul(elements, IntBuilder::dynamic(elementBytes)));
    if (anyEmpty)
      bytes = LLVM::SelectOp::create(rewriter, loc, anyEmpty,
                                     ints.materialize(IntBuilder::constant(0)),
                                     bytes);
    return {start, bytes};
  }
};

struct AllocManagedOpLowering : RuntimeCallPattern<AllocManagedOp> {
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(AllocManagedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getType();
    if (failed(checkIndexType(op, rewriter)) ||
        !isConvertibleAndHasIdentityMaps(type))
      return rewriter.notifyMatchFailure(op, "unsupported memref type");
    Location loc = op.getLoc();
    SmallVector<Value, 4> shape, strides;
    Value bytes;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             shape, strides, bytes);
    Value noStream = LLVM::ZeroOp::create(rewriter, loc, ptrType());
    Value hostShared = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI8Type(), rewriter.getI8IntegerAttr(1));
    auto allocType = LLVM::LLVMFunctionType::get(
        ptrType(), {i64Type(), ptrType(), rewriter.getI8Type()});
    Value memory = callRuntime(rewriter, loc, "mgpuMemAlloc", allocType,
                               {bytes, noStream, hostShared});
    rewriter.replaceOp(op, {createMemRefDescriptor(loc, type, memory, memory,
                                                   shape, strides, rewriter)});
    return success();
  }
};

struct PrefetchOpLowering : RuntimeCallPattern<PrefetchOp> {
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(PrefetchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkIndexType(op, rewriter)) ||
        !getTypeConverter()->convertType(op.getMemref().getType()))
      return rewriter.notifyMatchFailure(op, "unsupported memref type");
    Location loc = op.getLoc();
    auto unary = LLVM::LLVMFunctionType::get(voidType(), {ptrType()});
    auto binary =
        LLVM::LLVMFunctionType::get(voidType(), {ptrType(), ptrType()});
    SmallVector<Value> dependencies(adaptor.getAsyncDependencies());

    Value stream;
    if (!op.getAsyncToken()) {
      for (Value dependency : dependencies)
        callRuntime(rewriter, loc,
                    isStream(dependency) ? "mgpuStreamSynchronize"
                                         : "mgpuEventSynchronize",
                    unary, dependency);
      stream = LLVM::ZeroOp::create(rewriter, loc, ptrType());
    } else if (dependencies.size() == 1 && isStream(dependencies.front())) {
      stream = dependencies.front();
    } else {
      auto create = LLVM::LLVMFunctionType::get(ptrType(), {});
      stream = callRuntime(rewriter, loc, kStreamCreate, create, {});
      for (Value dependency : dependencies) {
        Value event = dependency;
        if (isStream(dependency)) {
          event = callRuntime(rewriter, loc, "mgpuEventCreate", create, {});
          callRuntime(rewriter, loc, "mgpuEventRecord", binary,
                      {event, dependency});
        }
        callRuntime(rewriter, loc, "mgpuStreamWaitEvent", binary,
                    {stream, event});
        callRuntime(rewriter, loc, "mgpuEventDestroy", unary, event);
      }
    }

    Extent extent =
        computeExtent(loc, cast<MemRefType>(op.getMemref().getType()),
                      adaptor.getMemref(), rewriter);
    Value destination = LLVM::ConstantOp::create(
        rewriter, loc, i32Type(),
        rewriter.getI32IntegerAttr(int32_t(op.getDestination())));
    auto prefetchType = LLVM::LLVMFunctionType::get(
        voidType(), {ptrType(), i64Type(), i32Type(), ptrType()});
    callRuntime(rewriter, loc, "gpumemMemPrefetch", prefetchType,
                {extent.start, extent.bytes, destination, stream});
    if (op.getAsyncToken())
      rewriter.replaceOp(op, {stream});
    else
      rewriter.eraseOp(op);
    return success();
  }
};

struct AdviseOpLowering : RuntimeCallPattern<AdviseOp> {
  using RuntimeCallPattern::RuntimeCallPattern;

  LogicalResult
  matchAndRewrite(AdviseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkIndexType(op, rewriter)) ||
        !getTypeConverter()->convertType(op.getMemref().getType()))
      return rewriter.notifyMatchFailure(op, "unsupported memref type");
    Location loc = op.getLoc();
    Extent extent =
        computeExtent(loc, cast<MemRefType>(op.getMemref().getType()),
                      adaptor.getMemref(), rewriter);
    Value advice = LLVM::ConstantOp::create(
        rewriter, loc, i32Type(),
        rewriter.getI32IntegerAttr(int32_t(op.getAdvice())));
    auto adviseType = LLVM::LLVMFunctionType::get(
        voidType(), {ptrType(), i64Type(), i32Type()});
    callRuntime(rewriter, loc, "gpumemMemAdvise", adviseType,
                {extent.start, extent.bytes, advice});
    rewriter.eraseOp(op);
    return success();
  }
};

/// What gpu-to-llvm and convert-to-llvm ask the loaded dialects for.
struct GPUMemToLLVMInterface : ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;

  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    populateGPUMemToLLVMConversionTarget(target, converter, patterns);
  }
};

} // namespace

void gpumem::populateGPUMemToLLVMConversionPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AllocManagedOpLowering, PrefetchOpLowering, AdviseOpLowering>(
      converter);
}

void gpumem::populateGPUMemToLLVMConversionTarget(ConversionTarget &target,
                                                  LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  target.addIllegalOp<AllocManagedOp, PrefetchOp, AdviseOp>();
  populateGPUMemToLLVMConversionPatterns(converter, patterns);
}

void gpumem::registerConvertGPUMemToLLVMInterface(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, GPUMemDialect *dialect) {
    dialect->addInterfaces<GPUMemToLLVMInterface>();
  });
}
