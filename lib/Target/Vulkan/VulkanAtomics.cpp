//===----------------------------------------------------------------------===//
// Float atomics and memref.generic_atomic_rmw for the vulkan target.
//
// A float memref.atomic_rmw is first rewritten as generic_atomic_rmw whose
// body applies the arith op. generic_atomic_rmw then becomes:
//   %old0 = load ptr
//   %old = scf.while (%seen = %old0) {
//     %new = body(%seen)
//     %prev = spirv.AtomicCompareExchange ptr, %new, %seen
//     scf.condition(%prev != %seen) %prev
//   } do { scf.yield }
// which retries until no other invocation changed the element between the
// read and the exchange, and yields the value before the update, as
// generic_atomic_rmw's result is. The scf.while is converted by the same
// conversion (SCF-to-SPIR-V's structured loop). Integer elements only:
// logical SPIR-V cannot view a float element as the integer a
// compare-and-swap needs, so gpumem-prepare-vulkan-kernels first retypes
// the buffer or array a float generic_atomic_rmw updates to integers of the
// same width (retypeFloatRootAsIntegers): its loads and stores bitcast, and
// the atomic's body sees and yields floats through bitcasts.
//===----------------------------------------------------------------------===//

#include "VulkanAtomics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

struct FloatAtomicToGeneric : OpRewritePattern<memref::AtomicRMWOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::AtomicRMWOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<FloatType>(op.getValue().getType()))
      return failure();
    Location loc = op.getLoc();
    Value operand = op.getValue();
    arith::AtomicRMWKind kind = op.getKind();
    auto generic = memref::GenericAtomicRMWOp::create(
        rewriter, loc, op.getMemref(), op.getIndices());
    OpBuilder body = OpBuilder::atBlockEnd(generic.getBody());
    Value current = generic.getCurrentValue();
    Value updated;
    switch (kind) {
    case arith::AtomicRMWKind::addf:
      updated = arith::AddFOp::create(body, loc, current, operand);
      break;
    case arith::AtomicRMWKind::mulf:
      updated = arith::MulFOp::create(body, loc, current, operand);
      break;
    case arith::AtomicRMWKind::maximumf:
      updated = arith::MaximumFOp::create(body, loc, current, operand);
      break;
    case arith::AtomicRMWKind::minimumf:
      updated = arith::MinimumFOp::create(body, loc, current, operand);
      break;
    case arith::AtomicRMWKind::maxnumf:
      updated = arith::MaxNumFOp::create(body, loc, current, operand);
      break;
    case arith::AtomicRMWKind::minnumf:
      updated = arith::MinNumFOp::create(body, loc, current, operand);
      break;
    case arith::AtomicRMWKind::assign:
      updated = operand;
      break;
    default:
      rewriter.eraseOp(generic);
      return failure();
    }
    memref::AtomicYieldOp::create(body, loc, updated);
    rewriter.replaceOp(op, generic.getResult());
    return success();
  }
};

struct GenericAtomicToCASLoop
    : OpConversionPattern<memref::GenericAtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(memref::GenericAtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto *converter = getTypeConverter<SPIRVTypeConverter>();
    MemRefType memrefType = op.getMemref().getType();
    Type element = memrefType.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    if ((width != 32 && width != 64) || !element.isSignlessInteger())
      return rewriter.notifyMatchFailure(op, "not a 32- or 64-bit integer");
    Type converted = converter->convertType(element);
    auto storage = dyn_cast_if_present<spirv::StorageClassAttr>(
        memrefType.getMemorySpace());
    if (!converted || !storage)
      return rewriter.notifyMatchFailure(op, "unconverted memref");
    Location loc = op.getLoc();
    Value ptr =
        spirv::getElementPtr(*converter, memrefType, adaptor.getMemref(),
                             adaptor.getIndices(), loc, rewriter);
    if (!ptr)
      return rewriter.notifyMatchFailure(op, "no element pointer");
    IntegerType bits = rewriter.getIntegerType(width);
    spirv::Scope scope = storage.getValue() == spirv::StorageClass::Workgroup
                             ? spirv::Scope::Workgroup
                             : spirv::Scope::Device;
    Value initial = spirv::LoadOp::create(rewriter, loc, ptr);
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange{element},
                                     ValueRange{initial});
    Block *before =
        rewriter.createBlock(&loop.getBefore(), {}, {element}, {loc});
    Value seen = before->getArgument(0);
    // The body computes the new value from `seen`.
    Block *body = op.getBody();
    auto yield = cast<memref::AtomicYieldOp>(body->getTerminator());
    Value updated = yield.getResult();
    rewriter.inlineBlockBefore(body, before, before->end(), {seen});
    rewriter.eraseOp(yield);
    rewriter.setInsertionPointToEnd(before);
    Value expected = seen;
    Value previous = spirv::AtomicCompareExchangeOp::create(
        rewriter, loc, bits, ptr,
        spirv::ScopeAttr::get(rewriter.getContext(), scope),
        spirv::MemorySemanticsAttr::get(rewriter.getContext(),
                                        spirv::MemorySemantics::None),
        spirv::MemorySemanticsAttr::get(rewriter.getContext(),
                                        spirv::MemorySemantics::None),
        updated, expected);
    Value retry = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                        previous, expected);
    scf::ConditionOp::create(rewriter, loc, retry, ValueRange{previous});
    Block *after = rewriter.createBlock(&loop.getAfter(), {}, {element}, {loc});
    rewriter.setInsertionPointToEnd(after);
    scf::YieldOp::create(rewriter, loc, after->getArgument(0));
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void gpumem::vulkan::retypeFloatGenericAtomic(memref::GenericAtomicRMWOp op,
                                              Value integers,
                                              ValueRange indices) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Type floatType = op.getResult().getType();
  Type integerType = cast<MemRefType>(integers.getType()).getElementType();
  auto generic =
      memref::GenericAtomicRMWOp::create(builder, loc, integers, indices);
  OpBuilder body = OpBuilder::atBlockEnd(generic.getBody());
  IRMapping mapping;
  mapping.map(op.getCurrentValue(),
              arith::BitcastOp::create(body, loc, floatType,
                                       generic.getCurrentValue()));
  for (Operation &nested : op.getBody()->without_terminator())
    body.clone(nested, mapping);
  auto yield = cast<memref::AtomicYieldOp>(op.getBody()->getTerminator());
  Value updated = mapping.lookupOrDefault(yield.getResult());
  memref::AtomicYieldOp::create(
      body, loc, arith::BitcastOp::create(body, loc, integerType, updated));
  builder.setInsertionPointAfter(generic);
  Value previous =
      arith::BitcastOp::create(builder, loc, floatType, generic.getResult());
  op.getResult().replaceAllUsesWith(previous);
  op.erase();
}

LogicalResult gpumem::vulkan::retypeFloatRootAsIntegers(Value root) {
  auto type = cast<MemRefType>(root.getType());
  Type floatType = type.getElementType();
  if (!isa<FloatType>(floatType) ||
      llvm::none_of(root.getUsers(), [](Operation *user) {
        return isa<memref::GenericAtomicRMWOp>(user);
      }))
    return success();
  MLIRContext *context = root.getContext();
  Type integerType =
      IntegerType::get(context, floatType.getIntOrFloatBitWidth());
  root.setType(MemRefType::get(type.getShape(), integerType, type.getLayout(),
                               type.getMemorySpace()));
  for (Operation *user : llvm::make_early_inc_range(root.getUsers())) {
    OpBuilder builder(user);
    Location loc = user->getLoc();
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      Value bits =
          memref::LoadOp::create(builder, loc, root, load.getIndices());
      Value value = arith::BitcastOp::create(builder, loc, floatType, bits);
      load.getResult().replaceAllUsesWith(value);
      load.erase();
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      store.getValueMutable().assign(arith::BitcastOp::create(
          builder, loc, integerType, store.getValueToStore()));
    } else if (auto generic = dyn_cast<memref::GenericAtomicRMWOp>(user)) {
      retypeFloatGenericAtomic(generic, root, generic.getIndices());
    } else if (!isa<memref::ExtractStridedMetadataOp>(user) ||
               !user->use_empty()) {
      return user->emitOpError()
             << "uses a float memref that a float atomic updates in a way "
                "the vulkan target does not support (only loads, stores and "
                "atomics)";
    }
  }
  return success();
}

void gpumem::vulkan::populateFloatAtomicsToGenericPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FloatAtomicToGeneric>(patterns.getContext());
}

void gpumem::vulkan::populateGenericAtomicToSPIRVPatterns(
    const SPIRVTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GenericAtomicToCASLoop>(converter, patterns.getContext());
}

LogicalResult gpumem::vulkan::checkAtomicElement(Operation *op, Type element) {
  if ((element.isSignlessInteger() || element.isF32() || element.isF64()) &&
      (element.getIntOrFloatBitWidth() == 32 ||
       element.getIntOrFloatBitWidth() == 64))
    return success();
  return op->emitOpError()
         << "on " << element
         << " elements is not supported by the vulkan target (atomics on 32- "
            "and 64-bit integers and floats)";
}
