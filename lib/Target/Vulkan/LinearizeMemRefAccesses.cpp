//===----------------------------------------------------------------------===//
// Memref accesses of a vulkan kernel addressed from one-dimensional roots.
//
// Logical SPIR-V has no pointers to offset: a kernel reaches memory only
// through arrays (a buffer's runtime array, a workgroup or function
// variable) indexed by one number. So every access is rewritten onto such
// an array, a root, in four steps:
//  1. Roots (makeBufferRoot, makeFlatRoot, makePrivateRoots). A memref
//     argument becomes a `memref<?xT>` buffer plus index arguments for its
//     offset, sizes and strides; a static identity attribution or alloca
//     becomes `memref<NxT>` (N at least 1: SPIR-V arrays are not empty).
//     Each old value is replaced by a memref.reinterpret_cast of its root
//     to the old type, so the body is unchanged. A buffer's view starts at
//     0: its offset argument is the root's base instead.
//  2. Views are expanded (expand-strided-metadata's patterns, and
//     memref.dim of a reinterpret_cast folded to its size): every view
//     becomes a reinterpret_cast of a root, or of the base buffer of an
//     extract_strided_metadata of one.
//  3. Each load, store, atomic_rmw and generic_atomic_rmw through such a
//     view indexes the root at base + offset + sum(index * stride), with
//     the view's offset and strides; an access to a root itself uses its
//     one index (plus the base). The base is 0 but for buffers.
//  4. After the caller's own rewrites, anything else still using a root
//     is a located error (checkRootUses), and roots get explicit memory
//     spaces: global for buffers, private for allocas (retypeRoots).
//===----------------------------------------------------------------------===//

#include "LinearizeMemRefAccesses.h"
#include "VulkanAtomics.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace gpumem::vulkan;

namespace {

/// A reinterpret_cast of `root` to `type`, static entries of `type` as
/// attributes and dynamic ones from `dynamic` (offset, sizes, strides).
Value viewOfRoot(OpBuilder &builder, Location loc, Value root, MemRefType type,
                 ArrayRef<Value> dynamic) {
  auto [strides, offset] = type.getStridesAndOffset();
  auto entry = [&](int64_t value, size_t index) -> OpFoldResult {
    if (!ShapedType::isDynamic(value))
      return builder.getIndexAttr(value);
    return dynamic[index];
  };
  OpFoldResult offsetEntry = entry(offset, 0);
  SmallVector<OpFoldResult> sizeEntries, strideEntries;
  for (int64_t i = 0, rank = type.getRank(); i < rank; ++i) {
    sizeEntries.push_back(entry(type.getDimSize(i), 1 + i));
    strideEntries.push_back(entry(strides[i], 1 + rank + i));
  }
  return memref::ReinterpretCastOp::create(
      builder, loc, type, root, offsetEntry, sizeEntries, strideEntries);
}

/// Flattens a static identity memref value in place: its type becomes
/// memref<N x T> and its uses see a reinterpret_cast to the old type.
void flattenStatic(OpBuilder &builder, Value value, Location loc) {
  auto type = cast<MemRefType>(value.getType());
  // SPIR-V arrays are not empty: a memref of no elements (which no access
  // may touch) gets one.
  auto flat = MemRefType::get(
      {std::max<int64_t>(1, type.getNumElements())}, type.getElementType(),
      MemRefLayoutAttrInterface(), type.getMemorySpace());
  value.setType(flat);
  // Identity strides, computed here: getStridesAndOffset gives dynamic ones
  // for shapes with a zero dimension.
  SmallVector<OpFoldResult> sizes, strides(type.getRank());
  int64_t stride = 1;
  for (int64_t i = type.getRank() - 1; i >= 0; --i) {
    strides[i] = builder.getIndexAttr(stride);
    stride *= type.getDimSize(i);
  }
  for (int64_t size : type.getShape())
    sizes.push_back(builder.getIndexAttr(size));
  Value view = memref::ReinterpretCastOp::create(
      builder, loc, type, value, builder.getIndexAttr(0), sizes, strides);
  value.replaceAllUsesExcept(view, view.getDefiningOp());
}

/// The root a view's base buffer comes from, or null.
Value rootOf(Value base, const llvm::SetVector<Value> &roots) {
  if (roots.contains(base))
    return base;
  if (auto metadata = base.getDefiningOp<memref::ExtractStridedMetadataOp>())
    if (roots.contains(metadata.getSource()) &&
        base == metadata.getBaseBuffer())
      return metadata.getSource();
  return {};
}

Value asValue(OpBuilder &builder, Location loc, OpFoldResult entry) {
  if (auto value = dyn_cast<Value>(entry))
    return value;
  return arith::ConstantIndexOp::create(
      builder, loc, cast<IntegerAttr>(cast<Attribute>(entry)).getInt());
}

/// offset + sum(indices[i] * strides[i]) of the view `cast`.
Value linearIndex(OpBuilder &builder, Location loc,
                  memref::ReinterpretCastOp cast, ValueRange indices) {
  Value linear = asValue(builder, loc, cast.getMixedOffsets()[0]);
  SmallVector<OpFoldResult> strides = cast.getMixedStrides();
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    Value product = arith::MulIOp::create(builder, loc, index,
                                          asValue(builder, loc, stride));
    linear = arith::AddIOp::create(builder, loc, linear, product);
  }
  return linear;
}

/// memref.dim of a view: the view's size (from the push constants for a
/// buffer's dynamic dimension).
struct DimOfReinterpretCast : OpRewritePattern<memref::DimOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::DimOp op,
                                PatternRewriter &rewriter) const override {
    auto view = op.getSource().getDefiningOp<memref::ReinterpretCastOp>();
    std::optional<int64_t> dim = op.getConstantIndex();
    if (!view || !dim || *dim < 0 || *dim >= view.getType().getRank())
      return failure();
    OpFoldResult size = view.getMixedSizes()[*dim];
    rewriter.replaceOp(op, asValue(rewriter, op.getLoc(), size));
    return success();
  }
};

bool isAccess(Operation *op) {
  return isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
             memref::GenericAtomicRMWOp>(op);
}

/// The memref and indices of access `op`; fails after a diagnostic on a
/// generic atomic of elements the vulkan target has no atomics for.
LogicalResult accessOperands(Operation *op, Value &memref,
                             ValueRange &indices) {
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    memref = load.getMemRef(), indices = load.getIndices();
    return success();
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    memref = store.getMemRef(), indices = store.getIndices();
    return success();
  }
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
    memref = atomic.getMemref(), indices = atomic.getIndices();
    return success();
  }
  auto generic = cast<memref::GenericAtomicRMWOp>(op);
  memref = generic.getMemref(), indices = generic.getIndices();
  return checkAtomicElement(op, generic.getMemref().getType().getElementType());
}

} // namespace

FailureOr<unsigned> gpumem::vulkan::makeBufferRoot(OpBuilder &builder,
                                                   gpu::GPUFuncOp kernel,
                                                   unsigned index,
                                                   MemRefRoots &roots) {
  MLIRContext *context = kernel.getContext();
  BlockArgument arg = kernel.getArgument(index);
  auto memref = cast<MemRefType>(arg.getType());
  int64_t rank = memref.getRank();
  // New arguments: the buffer, then offset, sizes and strides.
  SmallVector<Type> types = {
      MemRefType::get({ShapedType::kDynamic}, memref.getElementType(),
                      MemRefLayoutAttrInterface(), memref.getMemorySpace())};
  types.append(1 + 2 * rank, IndexType::get(context));
  unsigned first = kernel.getNumArguments();
  SmallVector<unsigned> positions(types.size(), first);
  SmallVector<DictionaryAttr> attrs(types.size(), DictionaryAttr::get(context));
  SmallVector<Location> locs(types.size(), arg.getLoc());
  if (failed(kernel.insertArguments(positions, types, attrs, locs)))
    return kernel.emitOpError() << "cannot rewrite its arguments";
  BlockArgument buffer = kernel.getArgument(first);
  SmallVector<Value> metadata;
  for (int64_t k = 0; k < 1 + 2 * rank; ++k)
    metadata.push_back(kernel.getArgument(first + 1 + k));
  // The buffer's element offset (where the aligned pointer is in the
  // buffer, plus the descriptor's offset) is added to every index into
  // the root; the view itself starts at 0.
  roots.bufferBase[buffer] = metadata[0];
  metadata[0] = arith::ConstantIndexOp::create(builder, arg.getLoc(), 0);
  Value view = viewOfRoot(builder, arg.getLoc(), buffer, memref, metadata);
  arg.replaceAllUsesWith(view);
  roots.buffers.push_back(buffer);
  roots.all.insert(buffer);
  return first;
}

void gpumem::vulkan::makeFlatRoot(OpBuilder &builder, Value value,
                                  MemRefRoots &roots) {
  flattenStatic(builder, value, value.getLoc());
  roots.all.insert(value);
}

LogicalResult gpumem::vulkan::makePrivateRoots(OpBuilder &builder,
                                               gpu::GPUFuncOp kernel,
                                               MemRefRoots &roots) {
  for (BlockArgument attribution : kernel.getPrivateAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return kernel.emitOpError()
             << "has a private attribution of type " << type
             << "; the vulkan target needs a static shape and the identity "
                "layout";
    makeFlatRoot(builder, attribution, roots);
  }
  WalkResult walk =
      kernel.walk([&](memref::AllocaOp alloca) {
        MemRefType type = alloca.getType();
        if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
          alloca.emitOpError()
              << "of type " << type
              << " in a vulkan kernel needs a static shape and the identity "
                 "layout";
          return WalkResult::interrupt();
        }
        OpBuilder after(alloca->getContext());
        after.setInsertionPointAfter(alloca);
        makeFlatRoot(after, alloca.getResult(), roots);
        roots.allocas.push_back(alloca.getResult());
        return WalkResult::advance();
      });
  return failure(walk.wasInterrupted());
}

LogicalResult gpumem::vulkan::expandViews(gpu::GPUFuncOp kernel) {
  RewritePatternSet patterns(kernel.getContext());
  memref::populateExpandStridedMetadataPatterns(patterns);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  patterns.add<DimOfReinterpretCast>(kernel.getContext());
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns,
                                                     kernel.getContext());
  if (failed(applyPatternsGreedily(kernel, std::move(patterns))))
    return kernel.emitOpError() << "views did not settle while expanding them";
  return success();
}

LogicalResult gpumem::vulkan::linearizeAccesses(gpu::GPUFuncOp kernel,
                                                const MemRefRoots &roots) {
  SmallVector<Operation *> accesses;
  kernel.walk([&](Operation *op) {
    if (isAccess(op))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    Value memref;
    ValueRange indices;
    if (failed(accessOperands(op, memref, indices)))
      return failure();
    OpBuilder builder(op);
    Value root, linear;
    if (roots.all.contains(memref)) {
      root = memref;
      linear = indices.front();
    } else {
      auto view = memref.getDefiningOp<memref::ReinterpretCastOp>();
      root = view ? rootOf(view.getSource(), roots.all) : Value();
      if (!root)
        return op->emitOpError()
               << "accesses a memref the vulkan target cannot trace to its "
                  "buffer or workgroup array (memrefs passed through control "
                  "flow or function calls are not supported)";
      linear = linearIndex(builder, op->getLoc(), view, indices);
    }
    if (Value base = roots.bufferBase.lookup(root))
      linear = arith::AddIOp::create(builder, op->getLoc(), base, linear);
    op->setOperand(isa<memref::StoreOp, memref::AtomicRMWOp>(op) ? 1 : 0, root);
    unsigned firstIndex =
        isa<memref::LoadOp, memref::GenericAtomicRMWOp>(op) ? 1 : 2;
    op->setOperands(firstIndex, op->getNumOperands() - firstIndex, linear);
  }
  return success();
}

LogicalResult gpumem::vulkan::checkRootUses(const MemRefRoots &roots) {
  for (Value root : roots.all)
    for (Operation *user : root.getUsers()) {
      if (isAccess(user))
        continue;
      if (isa<memref::ExtractStridedMetadataOp>(user) && user->use_empty())
        continue;
      return user->emitOpError()
             << "uses a memref in a way the vulkan target does not support "
                "(only loads, stores and atomics reach a buffer or a "
                "workgroup array)";
    }
  return success();
}

void gpumem::vulkan::retypeRoots(gpu::GPUFuncOp kernel,
                                 const MemRefRoots &roots) {
  MLIRContext *context = kernel.getContext();
  auto withSpace = [](Value value, Attribute space) {
    auto type = cast<MemRefType>(value.getType());
    if (!type.getMemorySpace())
      value.setType(MemRefType::get(type.getShape(), type.getElementType(),
                                    type.getLayout(), space));
  };
  for (BlockArgument buffer : roots.buffers)
    withSpace(buffer,
              gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Global));
  for (Value alloca : roots.allocas)
    withSpace(alloca,
              gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Private));
  SmallVector<Type> inputs;
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i)
    inputs.push_back(kernel.getArgument(i).getType());
  kernel.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(context, inputs, {})));
}
