//===----------------------------------------------------------------------===//
// gpumem-prepare-vulkan-kernels: gpumem's Vulkan kernel ABI, and every
// memref access addressed from a one-dimensional root.
//
// For each kernel:
//  1. A known block size (known_block_size) becomes the entry point's
//     LocalSize (spirv.entry_point_abi); without one, gpu.block_dim reads
//     the push constants.
//  2. Roots. A memref argument becomes a `memref<?xT>` buffer plus index
//     arguments for offset, sizes and strides; workgroup and private
//     attributions and static private allocas become `memref<NxT>`. Each
//     old value is replaced by a memref.reinterpret_cast of its root to the
//     old type, so the body is unchanged.
//  3. Views are expanded (expand-strided-metadata's patterns): every view
//     becomes a reinterpret_cast of a root's base buffer.
//  4. Each load, store and atomic_rmw through such a view indexes the root
//     at base + offset + sum(index * stride), where a buffer's base is its
//     element offset from the push constants (the runtime binds the whole
//     allocation) and other roots' is 0. Anything else still using a view
//     or a root is a located error.
//  5. Roots get explicit memory spaces (global buffers, private allocas),
//     and the launch's parameter records go on the gpu.module
//     (VulkanKernelRecords.h): scalars and the buffers' metadata as push
//     constants from offset 16, buffers as bindings 0, 1, ...
// Then every loop is followed by a check that it ran to its end, which fails
// where the driver left it early (LoopCompletionChecks.h).
//===----------------------------------------------------------------------===//

#include "DynamicWorkgroupMemory.h"
#include "InlineDeviceFunctions.h"
#include "LoopCompletionChecks.h"
#include "ScalarizeVectorTransfers.h"
#include "ShuffleWidths.h"
#include "WorkgroupAllReduce.h"
#include "VulkanAtomics.h"
#include "VulkanDiagnostics.h"
#include "StructuredControlFlow.h"
#include "VulkanKernelRecords.h"
#include "WorkgroupBufferChoices.h"
#include "gpumem/Transforms/WorkgroupMemory.h"
#include "gpumem/Target/Vulkan/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMPREPAREVULKANKERNELSPASS
#include "gpumem/Target/Vulkan/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem::vulkan;

namespace {

/// Push-constant bytes of a scalar argument type, or 0 when push constants
/// cannot carry it.
unsigned pushBytesOf(Type type) {
  // i1, i8 and i16 travel as a 32-bit word (the host's bytes, zero-
  // extended), which the kernel narrows.
  if (type.isIndex() || type.isInteger(1) || type.isInteger(8) ||
      type.isInteger(16) || type.isInteger(32) || type.isF32())
    return 4;
  if (type.isInteger(64) || type.isF64())
    return 8;
  return 0;
}

/// Bytes the host passes for a scalar argument.
unsigned hostBytesOf(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isInteger(1))
    return 1;
  return type.getIntOrFloatBitWidth() / 8;
}

/// Whether a memref element type can live in a SPIR-V buffer with the same
/// bytes as on the host.
bool isBufferElement(Type type) {
  return type.isInteger(32) || type.isInteger(64) || type.isF32() ||
         type.isF64() || type.isInteger(16) || type.isF16() ||
         type.isInteger(8);
}

Attribute globalSpace(MLIRContext *context) {
  return gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Global);
}
Attribute privateSpace(MLIRContext *context) {
  return gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Private);
}

/// A reinterpret_cast of `root` to `type`, static entries of `type` as
/// attributes and dynamic ones from `dynamic` (offset, sizes, strides).
Value viewOfRoot(OpBuilder &builder, Location loc, Value root,
                 MemRefType type, ArrayRef<Value> dynamic) {
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
  return memref::ReinterpretCastOp::create(builder, loc, type, root,
                                           offsetEntry, sizeEntries,
                                           strideEntries);
}

/// Flattens a static identity memref value in place: its type becomes
/// memref<N x T> and its uses see a reinterpret_cast to the old type.
void flattenStatic(OpBuilder &builder, Value value, Location loc) {
  auto type = cast<MemRefType>(value.getType());
  // SPIR-V arrays are not empty: a memref of no elements (which no access
  // may touch) gets one.
  auto flat = MemRefType::get({std::max<int64_t>(1, type.getNumElements())},
                              type.getElementType(),
                              MemRefLayoutAttrInterface(),
                              type.getMemorySpace());
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
Value rootOf(Value base, const llvm::DenseSet<Value> &roots) {
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

/// Whether `op` depends on the subgroup size.
bool isSubgroupOp(Operation *op) {
  return isa<gpu::ShuffleOp, gpu::SubgroupReduceOp, gpu::SubgroupSizeOp,
             gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::NumSubgroupsOp,
             gpu::AllReduceOp, gpu::SubgroupBroadcastOp>(op);
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

class KernelPreparer {
public:
  /// `subgroupSize`: what the kernel's subgroup operations assume, or 0
  /// when it has none.
  KernelPreparer(gpu::GPUFuncOp kernel, uint32_t subgroupSize)
      : kernel(kernel), subgroupSize(subgroupSize) {}

  /// Prepares the kernel and returns its record, or fails after a
  /// diagnostic.
  FailureOr<KernelRecord> run();

private:
  LogicalResult setEntryPoint();
  LogicalResult makeRoots();
  LogicalResult makeDynamicSharedRoots();
  LogicalResult expandViews();
  LogicalResult linearizeAccesses();
  LogicalResult lowerDynamicSharedAccesses();
  LogicalResult resolveWorkgroupAddresses();
  LogicalResult checkRootUses();
  void retypeRoots();

  gpu::GPUFuncOp kernel;
  uint32_t subgroupSize;
  KernelRecord record;
  llvm::DenseSet<Value> roots;
  SmallVector<BlockArgument> bufferRoots;
  /// The element offset of each buffer root, added to every index into it.
  llvm::DenseMap<Value, Value> bufferBase;
  SmallVector<Value> allocaRoots;
  /// Notional addresses of workgroup arrays (what
  /// memref.extract_aligned_pointer_as_index returns): the static ones
  /// in order, each aligned to 16 bytes or what it asks for, then the
  /// dynamic array, aligned as getDynamicSharedAlignment says.
  llvm::DenseMap<Value, int64_t> workgroupAddress;
  int64_t dynamicSharedAddress = 0;
  DynamicSharedRoots dynamicShared;
  uint32_t pushOffset = GPUMEM_VULKAN_PUSH_PARAMS;
};

/// Logical SPIR-V has no addresses to align: a memref.assume_alignment (whose
/// alignment gpumem-pack-dynamic-workgroup-allocs and the notional addresses
/// honour) becomes its operand, so that accesses trace to their roots.
static void dropAlignmentAssumptions(gpu::GPUFuncOp kernel) {
  kernel.walk([](memref::AssumeAlignmentOp assume) {
    assume.replaceAllUsesWith(assume.getMemref());
    assume.erase();
  });
}

FailureOr<KernelRecord> KernelPreparer::run() {
  dropAlignmentAssumptions(kernel);
  if (failed(setEntryPoint()) || failed(makeRoots()) ||
      failed(makeDynamicSharedRoots()) || failed(expandViews()) ||
      failed(linearizeAccesses()) || failed(lowerDynamicSharedAccesses()))
    return failure();
  // Views and metadata nobody reads any more.
  IRRewriter rewriter(kernel.getContext());
  (void)runRegionDCE(rewriter, kernel->getRegions());
  if (failed(resolveWorkgroupAddresses()))
    return failure();
  // Float atomics are compare-and-swap loops on the same bytes as integers.
  for (Value root : roots)
    if (failed(retypeFloatRootAsIntegers(root)))
      return failure();
  if (failed(checkRootUses()))
    return failure();
  retypeRoots();
  record.header.flags |= subgroupSize << GPUMEM_VULKAN_SUBGROUP_SIZE_SHIFT;
  record.header.bindingCount = bufferRoots.size();
  record.header.pushConstantBytes = llvm::alignTo(pushOffset, 4);
  record.header.paramCount = record.params.size();
  return record;
}

LogicalResult KernelPreparer::setEntryPoint() {
  // A known block size is the LocalSize (gpu.block_dim folds to it); else
  // the entry point has none and gpu.block_dim reads the push constants.
  // Either way the launch's size reaches the shader as the specialization
  // the serializer adds (SpecializationPatches.h).
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  kernel->setAttr(spirv::getEntryPointABIAttrName(),
                  spirv::getEntryPointABIAttr(kernel.getContext(),
                                              block.value_or(ArrayRef<int32_t>())));
  return success();
}

LogicalResult KernelPreparer::makeRoots() {
  MLIRContext *context = kernel.getContext();
  Block &entry = kernel.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  IntegerType i32 = IntegerType::get(context, 32);
  auto allocatePush = [&](unsigned bytes) {
    pushOffset = llvm::alignTo(pushOffset, bytes);
    uint32_t offset = pushOffset;
    pushOffset += bytes;
    return offset;
  };

  unsigned numInputs = kernel.getNumArguments();
  llvm::BitVector replaced(numInputs);
  for (unsigned i = 0; i < numInputs; ++i) {
    BlockArgument arg = kernel.getArgument(i);
    Type type = arg.getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      Attribute space = memref.getMemorySpace();
      if (space && gpumem::getAddressSpaceNumber(space) != 1)
        return kernel.emitOpError()
               << "argument " << i << " is a memref in memory space " << space
               << "; a vulkan kernel takes global memory";
      if (!memref.isStrided())
        return kernel.emitOpError()
               << "argument " << i << " has type " << memref
               << ", whose layout is not strided";
      Type element = memref.getElementType();
      if (!isBufferElement(element))
        return kernel.emitOpError()
               << "argument " << i << " is a memref of " << element
               << "; vulkan buffers hold 8-, 16-, 32- or 64-bit integers and "
                  "floats (index differs in size between host and device)";
      uint32_t binding = bufferRoots.size();
      unsigned elementBytes = element.getIntOrFloatBitWidth() / 8;
      int64_t rank = memref.getRank();
      // New arguments: the buffer, then offset, sizes and strides.
      SmallVector<Type> types = {MemRefType::get(
          {ShapedType::kDynamic}, element, MemRefLayoutAttrInterface(),
          space)};
      types.append(1 + 2 * rank, IndexType::get(context));
      unsigned first = kernel.getNumArguments();
      SmallVector<unsigned> positions(types.size(), first);
      SmallVector<DictionaryAttr> attrs(types.size(),
                                        DictionaryAttr::get(context));
      SmallVector<Location> locs(types.size(), arg.getLoc());
      if (failed(kernel.insertArguments(positions, types, attrs, locs)))
        return kernel.emitOpError() << "cannot rewrite its arguments";
      BlockArgument buffer = kernel.getArgument(first);
      kernel.setArgAttr(first, kBindingAttrName,
                        IntegerAttr::get(i32, binding));
      record.params.push_back({GPUMEM_VULKAN_PARAM_IGNORED, 0, 0, 0, 0, 0});
      record.params.push_back(
          {GPUMEM_VULKAN_PARAM_BUFFER, binding, elementBytes, 0, 0, 0});
      SmallVector<Value> metadata;
      for (int64_t k = 0; k < 1 + 2 * rank; ++k) {
        uint32_t offset = allocatePush(4);
        kernel.setArgAttr(first + 1 + k, kPushOffsetAttrName,
                          IntegerAttr::get(i32, offset));
        record.params.push_back({k == 0 ? uint32_t(GPUMEM_VULKAN_PARAM_BUFFER_OFFSET)
                                        : uint32_t(GPUMEM_VULKAN_PARAM_INDEX),
                                 binding, 0, offset, 0, 0});
        metadata.push_back(kernel.getArgument(first + 1 + k));
      }
      // The buffer's element offset (where the aligned pointer is in the
      // buffer, plus the descriptor's offset) is added to every index into
      // the root; the view itself starts at 0.
      bufferBase[buffer] = metadata[0];
      metadata[0] = arith::ConstantIndexOp::create(builder, arg.getLoc(), 0);
      Value view = viewOfRoot(builder, arg.getLoc(), buffer, memref, metadata);
      arg.replaceAllUsesWith(view);
      replaced.set(i);
      bufferRoots.push_back(buffer);
      roots.insert(buffer);
      continue;
    }
    unsigned bytes = pushBytesOf(type);
    if (!bytes)
      return kernel.emitOpError()
             << "argument " << i << " has type " << type
             << ", which the vulkan target cannot pass to a kernel (scalars "
                "of type index, i1, i8, i16, i32, i64, f32 or f64, and "
                "memrefs)";
    uint32_t offset = allocatePush(bytes);
    kernel.setArgAttr(i, kPushOffsetAttrName, IntegerAttr::get(i32, offset));
    if (type.isIndex())
      record.params.push_back(
          {GPUMEM_VULKAN_PARAM_INDEX, 0, 0, offset, 0, 0});
    else
      record.params.push_back({GPUMEM_VULKAN_PARAM_SCALAR, 0, 0, offset,
                               hostBytesOf(type), bytes});
  }
  replaced.resize(kernel.getNumArguments());
  if (failed(kernel.eraseArguments(replaced)))
    return kernel.emitOpError() << "cannot rewrite its arguments";

  // Attributions and allocas of static shape become flat.
  uint64_t sharedBytes = 0, address = 0;
  SmallVector<BlockArgument> attributions(kernel.getWorkgroupAttributions());
  for (auto [index, attribution] : llvm::enumerate(attributions)) {
    auto type = cast<MemRefType>(attribution.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat())
      return kernel.emitOpError()
             << "has a workgroup attribution of type " << type
             << "; the vulkan target needs a static shape, the identity "
                "layout and integer or float elements";
    uint64_t bytes = type.getNumElements() *
                     llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    // Elements here are integers and floats of at most 8 bytes, which the
    // 16-byte minimum covers. (No DataLayout query: built here, after the
    // arguments are rewritten, one made this walk read a stale type.)
    address = llvm::alignTo(
        address, std::max<uint64_t>(gpumem::kMinWorkgroupAlignment,
                                    gpumem::getRequestedAlignment(kernel, index)));
    workgroupAddress[attribution] = address;
    address += bytes;
    sharedBytes += bytes;
    flattenStatic(builder, attribution, attribution.getLoc());
    roots.insert(attribution);
  }
  for (BlockArgument attribution : kernel.getPrivateAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return kernel.emitOpError()
             << "has a private attribution of type " << type
             << "; the vulkan target needs a static shape and the identity "
                "layout";
    flattenStatic(builder, attribution, attribution.getLoc());
    roots.insert(attribution);
  }
  record.header.staticSharedBytes = sharedBytes;
  dynamicSharedAddress = llvm::alignTo(
      address, gpumem::getDynamicSharedAlignment(
                   kernel->getParentOfType<gpu::GPUModuleOp>()));

  WalkResult walk = kernel.walk([&](memref::AllocaOp alloca) {
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
    flattenStatic(after, alloca.getResult(), alloca.getLoc());
    roots.insert(alloca.getResult());
    allocaRoots.push_back(alloca.getResult());
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult KernelPreparer::expandViews() {
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

LogicalResult KernelPreparer::linearizeAccesses() {
  SmallVector<Operation *> accesses;
  kernel.walk([&](Operation *op) {
    if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
            memref::GenericAtomicRMWOp>(op))
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    Value memref;
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef(), indices = load.getIndices();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef(), indices = store.getIndices();
    else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
      memref = atomic.getMemref(), indices = atomic.getIndices();
    else {
      auto generic = cast<memref::GenericAtomicRMWOp>(op);
      memref = generic.getMemref(), indices = generic.getIndices();
      Type element = generic.getMemref().getType().getElementType();
      unsigned width = element.getIntOrFloatBitWidth();
      if (!element.isSignlessInteger() && !element.isF32() && !element.isF64())
        return op->emitOpError()
               << "on " << element
               << " elements is not supported by the vulkan target (atomics "
                  "on 32- and 64-bit integers and floats)";
      if (width != 32 && width != 64)
        return op->emitOpError()
               << "on " << element
               << " elements is not supported by the vulkan target (atomics "
                  "on 32- and 64-bit integers and floats)";
    }
    OpBuilder builder(op);
    Value root, linear;
    if (roots.contains(memref)) {
      root = memref;
      linear = indices.front();
    } else {
      auto view = memref.getDefiningOp<memref::ReinterpretCastOp>();
      root = view ? rootOf(view.getSource(), roots) : Value();
      if (!root)
        return op->emitOpError()
               << "accesses a memref the vulkan target cannot trace to its "
                  "buffer or workgroup array (memrefs passed through control "
                  "flow or function calls are not supported)";
      linear = linearIndex(builder, op->getLoc(), view, indices);
    }
    if (Value base = bufferBase.lookup(root))
      linear = arith::AddIOp::create(builder, op->getLoc(), base, linear);
    op->setOperand(isa<memref::StoreOp, memref::AtomicRMWOp>(op) ? 1 : 0,
                   root);
    unsigned firstIndex =
        isa<memref::LoadOp, memref::GenericAtomicRMWOp>(op) ? 1 : 2;
    op->setOperands(firstIndex, op->getNumOperands() - firstIndex, linear);
  }
  return success();
}

LogicalResult KernelPreparer::makeDynamicSharedRoots() {
  FailureOr<DynamicSharedRoots> made = gpumem::vulkan::makeDynamicSharedRoots(
      kernel, GPUMEM_VULKAN_PUSH_DYNAMIC_SHARED_BYTES);
  if (failed(made))
    return failure();
  dynamicShared = std::move(*made);
  if (!dynamicShared.words)
    return success();
  record.header.flags |= GPUMEM_VULKAN_DYNAMIC_SHARED;
  roots.insert(dynamicShared.words);
  for (Value view : dynamicShared.views)
    roots.insert(view);
  return success();
}

LogicalResult KernelPreparer::lowerDynamicSharedAccesses() {
  if (!dynamicShared.words)
    return success();
  for (Value view : dynamicShared.views)
    roots.erase(view);
  return gpumem::vulkan::lowerDynamicSharedAccesses(dynamicShared,
                                                    dynamicSharedAddress);
}

LogicalResult KernelPreparer::resolveWorkgroupAddresses() {
  for (auto [root, address] : workgroupAddress)
    for (Operation *user : llvm::make_early_inc_range(root.getUsers()))
      if (auto pointer = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(user)) {
        OpBuilder builder(pointer);
        pointer.replaceAllUsesWith(
            arith::ConstantIndexOp::create(builder, pointer.getLoc(), address)
                .getResult());
        pointer.erase();
      }
  return success();
}

LogicalResult KernelPreparer::checkRootUses() {
  for (Value root : roots)
    for (Operation *user : root.getUsers()) {
      if (isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
              memref::GenericAtomicRMWOp>(user))
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

void KernelPreparer::retypeRoots() {
  MLIRContext *context = kernel.getContext();
  auto withSpace = [](Value value, Attribute space) {
    auto type = cast<MemRefType>(value.getType());
    if (!type.getMemorySpace())
      value.setType(MemRefType::get(type.getShape(), type.getElementType(),
                                    type.getLayout(), space));
  };
  for (BlockArgument buffer : bufferRoots)
    withSpace(buffer, globalSpace(context));
  for (Value alloca : allocaRoots)
    withSpace(alloca, privateSpace(context));
  SmallVector<Type> inputs;
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i)
    inputs.push_back(kernel.getArgument(i).getType());
  kernel.setFunctionTypeAttr(
      TypeAttr::get(FunctionType::get(context, inputs, {})));
}

struct PrepareVulkanKernelsPass
    : gpumem::impl::GPUMemPrepareVulkanKernelsPassBase<
          PrepareVulkanKernelsPass> {
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    FailureOr<DictionaryAttr> records =
        prepareVulkanKernels(module, checkLoopCompletion);
    if (failed(records))
      return signalPassFailure();
    module->setAttr(kKernelRecordsAttrName, *records);
  }
};

} // namespace

/// Workgroup memref.globals (device functions' workgroup memory, hoisted
/// there by gpumem) as workgroup attributions of each kernel that reads
/// them, once device functions are inlined; the globals nobody reads then
/// go. A kernel's own copy is what a block sees, as on a GPU.
static void workgroupGlobalsToAttributions(gpu::GPUModuleOp module) {
  SymbolTable symbols(module);
  for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
    if (!kernel.isKernel())
      continue;
    llvm::DenseMap<StringAttr, Value> attributions;
    SmallVector<memref::GetGlobalOp> reads;
    kernel.walk([&](memref::GetGlobalOp read) { reads.push_back(read); });
    for (memref::GetGlobalOp read : reads) {
      if (!gpumem::isWorkgroupMemorySpace(read.getType().getMemorySpace()))
        continue;
      Value &attribution = attributions[read.getNameAttr().getAttr()];
      if (!attribution) {
        attribution =
            kernel.addWorkgroupAttribution(read.getType(), read.getLoc());
        auto global = symbols.lookup<memref::GlobalOp>(read.getNameAttr().getAttr());
        if (global && global.getAlignment())
          gpumem::setRequestedAlignment(kernel,
                                        kernel.getNumWorkgroupAttributions() - 1,
                                        *global.getAlignment());
      }
      read.replaceAllUsesWith(attribution);
      read.erase();
    }
  }
  for (auto global :
       llvm::make_early_inc_range(module.getOps<memref::GlobalOp>()))
    if (gpumem::isWorkgroupMemorySpace(global.getType().getMemorySpace()) &&
        SymbolTable::symbolKnownUseEmpty(global, module))
      global.erase();
}

/// Ops the vulkan target has no lowering for yet, refused with gpumem's
/// message rather than the conversion's "failed to legalize".
static LogicalResult checkSupportedOps(gpu::GPUModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    StringRef what;
    if (auto global = dyn_cast<memref::GlobalOp>(op);
             global && gpumem::isWorkgroupMemorySpace(
                                   global.getType().getMemorySpace()))
      what = "workgroup memory of a device function that is not inlined "
             "into a kernel (a workgroup memref.global)";
    else
      return WalkResult::advance();
    op->emitOpError() << "is not supported by the vulkan target yet: " << what
                      << " has no Vulkan lowering (docs/vulkan.md)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

FailureOr<DictionaryAttr>
gpumem::vulkan::prepareVulkanKernels(gpu::GPUModuleOp module,
                                     bool checkLoopCompletion) {
  if (failed(liftGPUFuncControlFlow(module)))
    return failure();
  inlineDeviceFunctions(module);
  workgroupGlobalsToAttributions(module);
  if (failed(checkSupportedOps(module)))
    return failure();
  spirv::ResourceLimitsAttr limits =
      spirv::lookupTargetEnvOrDefault(module).getResourceLimits();
  if (failed(checkShuffleWidths(module, limits.getSubgroupSize())))
    return failure();
  for (auto kernel : module.getOps<gpu::GPUFuncOp>())
    if (kernel.isKernel() &&
        failed(lowerAllReduceThroughWorkgroupMemory(
            kernel, limits.getMaxComputeWorkgroupInvocations())))
      return failure();
  // Vectors of more than 4 elements, which SPIR-V does not have, unrolled
  // to ones it has (upstream's unrolling for SPIR-V); what is left of them
  // becomes scalars with the transfers below.
  bool wideVectors = module
                         ->walk([](Operation *op) {
                           auto wide = [](Type type) {
                             auto vector = dyn_cast<VectorType>(type);
                             return vector && vector.getNumElements() > 4;
                           };
                           return llvm::any_of(op->getResultTypes(), wide)
                                      ? WalkResult::interrupt()
                                      : WalkResult::advance();
                         })
                         .wasInterrupted();
  if (wideVectors && failed(spirv::unrollVectorsInFuncBodies(module)))
    return module.emitError() << "vectors did not settle while unrolling them "
                                 "to SPIR-V's widths";
  {
    RewritePatternSet patterns(module.getContext());
    populateStructuredControlFlowPatterns(patterns);
    // And allocas sized by constants get their static shape.
    memref::AllocaOp::getCanonicalizationPatterns(patterns, module.getContext());
    // Float atomics become generic ones (compare-and-swap loops later).
    populateFloatAtomicsToGenericPatterns(patterns);
    // Vector transfers become scalar accesses.
    populateScalarizeVectorTransferPatterns(patterns);
    // Shuffles of any width and mode keep gpu.shuffle's semantics.
    populateShuffleWidthPatterns(patterns, limits.getSubgroupSize());
    // Ceiling and floor divisions, which upstream's Arith conversion lacks
    // (gpu.num_subgroups is a ceildivui), in plain arithmetic.
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return module.emitError()
             << "control flow and vector transfers did not settle";
  }
  // Workgroup buffers chosen by control flow become indices, before loops
  // get their checks (which copy the loops' types).
  for (auto kernel : module.getOps<gpu::GPUFuncOp>())
    if (kernel.isKernel() && failed(chooseWorkgroupBuffersByIndex(kernel)))
      return failure();
  // Last, so that the loops the patterns made are checked too.
  if (checkLoopCompletion)
    checkLoopsComplete(module);
  SmallVector<NamedAttribute> records;
  // Device functions left after inlining are not traced per kernel: one
  // that uses subgroups, prints or asserts marks every kernel of the module.
  auto uses = [](Operation *root, bool (*matches)(Operation *)) {
    return root
        ->walk([&](Operation *op) {
          return matches(op) ? WalkResult::interrupt() : WalkResult::advance();
        })
        .wasInterrupted();
  };
  bool functionsUseSubgroups = false, functionsUseDiagnostics = false;
  for (Operation &op : module.getOps())
    if (!isa<gpu::GPUFuncOp>(op) || !cast<gpu::GPUFuncOp>(op).isKernel()) {
      functionsUseSubgroups |= uses(&op, isSubgroupOp);
      functionsUseDiagnostics |= uses(&op, isDiagnosticOp);
    }
  for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
    if (!kernel.isKernel())
      continue;
    uint32_t subgroupSize = 0;
    if (functionsUseSubgroups || uses(kernel, isSubgroupOp))
      subgroupSize = limits.getSubgroupSize();
    bool diagnostics = functionsUseDiagnostics || uses(kernel, isDiagnosticOp);
    FailureOr<KernelRecord> record =
        KernelPreparer(kernel, subgroupSize).run();
    if (failed(record))
      return failure();
    if (diagnostics)
      record->header.flags |= GPUMEM_VULKAN_DIAGNOSTICS;
    records.emplace_back(kernel.getNameAttr(),
                         record->toAttr(module.getContext()));
  }
  // Last: the greedy rewrites above merge forwarding blocks back.
  splitRepeatedEdges(module);
  return DictionaryAttr::get(module.getContext(), records);
}
