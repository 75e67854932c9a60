//===----------------------------------------------------------------------===//
// Workgroup memory helpers shared by gpumem's passes: address space
// classification, buffer sizes and alignments, the alignments attributions
// ask for (`llvm.align`, kept across outlining in the launch's location), and
// the alignment dynamic shared memory needs (a gpu.module attribute), and
// which planned buffer a memref views.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

/// Workgroup memory as a plain integer: the NVVM and ROCDL numbering.
static constexpr int64_t kWorkgroupAddressSpace = 3;

bool gpumem::isWorkgroupMemorySpace(Attribute memorySpace) {
  return getAddressSpaceNumber(memorySpace) == kWorkgroupAddressSpace;
}

bool gpumem::isWorkgroupMemRef(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && isWorkgroupMemorySpace(memref.getMemorySpace());
}

uint64_t gpumem::getWorkgroupBufferBytes(MemRefType type,
                                         const DataLayout &layout) {
  return type.getNumElements() * layout.getTypeSize(type.getElementType());
}

Value gpumem::createBufferBytes(OpBuilder &builder, Location loc,
                                MemRefType type, ValueRange dynamicSizes,
                                uint64_t elementBytes) {
  int64_t staticElements = 1;
  for (int64_t dim : type.getShape())
    if (!ShapedType::isDynamic(dim))
      staticElements *= dim;
  Value bytes = arith::ConstantIndexOp::create(
      builder, loc, staticElements * int64_t(elementBytes));
  for (Value size : dynamicSizes)
    bytes = arith::MulIOp::create(builder, loc, bytes, size);
  return bytes;
}

uint64_t gpumem::getWorkgroupBufferAlignment(MemRefType type,
                                             const DataLayout &layout) {
  return std::max<uint64_t>(kMinWorkgroupAlignment,
                            layout.getTypeABIAlignment(type.getElementType()));
}

LogicalResult gpumem::checkWorkgroupAlignment(Location loc,
                                              uint64_t alignment) {
  if (!llvm::isPowerOf2_64(alignment))
    return emitError(loc) << "workgroup memory asks for an alignment of "
                          << alignment << " bytes, which is not a power of two";
  if (alignment > kMaxWorkgroupAlignment)
    return emitError(loc) << "workgroup memory asks for an alignment of "
                          << alignment
                          << " bytes; every target guarantees at most "
                          << kMaxWorkgroupAlignment
                          << " (the base alignment of shared memory)";
  return success();
}

uint64_t gpumem::getRequestedAlignment(gpu::GPUFuncOp kernel, unsigned index) {
  auto align = dyn_cast_or_null<IntegerAttr>(kernel.getWorkgroupAttributionAttr(
      index, LLVM::LLVMDialect::getAlignAttrName()));
  if (!align || align.getValue().isZero() || align.getValue().isNegative())
    return 0;
  return align.getValue().getLimitedValue();
}

void gpumem::setRequestedAlignment(gpu::GPUFuncOp kernel, unsigned index,
                                   uint64_t alignment) {
  Builder builder(kernel);
  kernel.setWorkgroupAttributionAttr(index,
                                     LLVM::LLVMDialect::getAlignAttrName(),
                                     builder.getI64IntegerAttr(alignment));
}

uint64_t gpumem::getAttributionAlignment(gpu::GPUFuncOp kernel, unsigned index,
                                         MemRefType type,
                                         const DataLayout &layout) {
  return std::max(getWorkgroupBufferAlignment(type, layout),
                  getRequestedAlignment(kernel, index));
}

/// The attribute dictionaries of `kernel`'s workgroup attributions, one per
/// attribution (empty where it has none).
static SmallVector<DictionaryAttr> getAttributionDicts(gpu::GPUFuncOp kernel) {
  SmallVector<DictionaryAttr> dicts;
  for (unsigned i = 0, e = kernel.getNumWorkgroupAttributions(); i < e; ++i) {
    DictionaryAttr own = kernel.getworkgroupAttributionAttrs(i);
    dicts.push_back(own ? own : DictionaryAttr::get(kernel.getContext()));
  }
  return dicts;
}

/// Makes `dicts` the attribute dictionaries of `kernel`'s workgroup
/// attributions, whose number is theirs; no array when all are empty.
static void setAttributionDicts(gpu::GPUFuncOp kernel,
                                ArrayRef<DictionaryAttr> dicts) {
  Builder builder(kernel);
  kernel->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                  builder.getI64IntegerAttr(dicts.size()));
  if (llvm::all_of(dicts, [](DictionaryAttr dict) { return dict.empty(); }))
    kernel.removeWorkgroupAttribAttrsAttr();
  else
    kernel.setWorkgroupAttribAttrsAttr(builder.getArrayAttr(
        SmallVector<Attribute>(dicts.begin(), dicts.end())));
}

BlockArgument gpumem::prependWorkgroupAttribution(gpu::GPUFuncOp kernel,
                                                  Type type, Location loc,
                                                  uint64_t alignment) {
  SmallVector<DictionaryAttr> dicts = getAttributionDicts(kernel);
  dicts.insert(dicts.begin(), DictionaryAttr::get(kernel.getContext()));
  BlockArgument argument = kernel.getBody().front().insertArgument(
      kernel.getFirstWorkgroupAttributionIndex(), type, loc);
  setAttributionDicts(kernel, dicts);
  if (alignment)
    setRequestedAlignment(kernel, 0, alignment);
  return argument;
}

void gpumem::eraseWorkgroupAttributions(gpu::GPUFuncOp kernel,
                                        ArrayRef<unsigned> indices) {
  if (indices.empty())
    return;
  SmallVector<DictionaryAttr> kept;
  for (auto [i, dict] : llvm::enumerate(getAttributionDicts(kernel)))
    if (!llvm::is_contained(indices, i))
      kept.push_back(dict);
  unsigned first = kernel.getFirstWorkgroupAttributionIndex();
  for (unsigned index : llvm::reverse(indices))
    kernel.getBody().front().eraseArgument(first + index);
  setAttributionDicts(kernel, kept);
}

/// The gpu.module attribute that keeps getDynamicSharedAlignment.
static constexpr llvm::StringLiteral kDynamicSharedAlignment =
    "gpumem.dynamic_shared_alignment";

uint64_t gpumem::getDynamicSharedAlignment(gpu::GPUModuleOp module) {
  auto attr = module->getAttrOfType<IntegerAttr>(kDynamicSharedAlignment);
  return attr ? std::max<uint64_t>(kMinWorkgroupAlignment, attr.getInt())
              : kMinWorkgroupAlignment;
}

void gpumem::requireDynamicSharedAlignment(gpu::GPUModuleOp module,
                                           uint64_t alignment) {
  if (alignment <= getDynamicSharedAlignment(module))
    return;
  module->setAttr(kDynamicSharedAlignment,
                  Builder(module).getI64IntegerAttr(alignment));
}

uint64_t gpumem::getDynamicViewAlignment(Operation *view) {
  uint64_t alignment = getWorkgroupBufferAlignment(
      cast<MemRefType>(view->getResult(0).getType()),
      DataLayout::closest(view));
  if (auto own = view->getAttrOfType<IntegerAttr>(kViewAlignmentAttrName))
    alignment = std::max<uint64_t>(alignment, own.getInt());
  for (Operation *user : view->getUsers())
    if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(user))
      alignment = std::max<uint64_t>(alignment, assume.getAlignment());
  return alignment;
}

uint32_t gpumem::getSharedBytesBuffer(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (auto number =
            def->getAttrOfType<IntegerAttr>(kSharedBytesBufferAttrName))
      return uint32_t(number.getInt());
    auto view = dyn_cast<ViewLikeOpInterface>(def); // casts too
    if (!view)
      return 0;
    memref = view.getViewSource();
  }
  return 0;
}

/// The metadata keys of the fused location that keeps buffer locations and
/// the alignments they ask for.
static constexpr llvm::StringLiteral kBufferLocations =
    "gpumem.workgroup_buffers";
static constexpr llvm::StringLiteral kBufferAlignments =
    "gpumem.workgroup_alignments";

/// The kept metadata `key` in `loc`, or null.
static ArrayAttr getKeptBufferData(Location loc, StringRef key) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto metadata =
      fused ? dyn_cast_or_null<DictionaryAttr>(fused.getMetadata()) : nullptr;
  return metadata ? metadata.getAs<ArrayAttr>(key) : nullptr;
}

void gpumem::recordWorkgroupBufferLocations(gpu::LaunchOp launch,
                                            ArrayRef<uint64_t> alignments) {
  if (launch.getWorkgroupAttributions().empty())
    return;
  MLIRContext *context = launch.getContext();
  Builder builder(context);
  Location own = launch.getLoc();
  ArrayAttr keptAlignments = getKeptBufferData(own, kBufferAlignments);
  if (getKeptBufferData(own, kBufferLocations)) {
    ArrayRef<Location> locations = cast<FusedLoc>(own).getLocations();
    own = locations.empty() ? UnknownLoc::get(context) : locations.front();
  }
  SmallVector<Attribute> locations, wanted;
  bool anyAlignment = false;
  for (auto [index, buffer] :
       llvm::enumerate(launch.getWorkgroupAttributions())) {
    locations.push_back(buffer.getLoc());
    uint64_t alignment = 0;
    if (index < alignments.size())
      alignment = alignments[index];
    else if (keptAlignments && index < keptAlignments.size())
      alignment = cast<IntegerAttr>(keptAlignments[index]).getInt();
    anyAlignment |= alignment != 0;
    wanted.push_back(builder.getI64IntegerAttr(alignment));
  }
  SmallVector<NamedAttribute> metadata{
      builder.getNamedAttr(kBufferLocations, builder.getArrayAttr(locations))};
  if (anyAlignment)
    metadata.push_back(
        builder.getNamedAttr(kBufferAlignments, builder.getArrayAttr(wanted)));
  launch->setLoc(
      FusedLoc::get(context, {own}, builder.getDictionaryAttr(metadata)));
}

void gpumem::applyRecordedBufferData(gpu::GPUFuncOp kernel) {
  Location own = kernel.getLoc();
  ArrayAttr locations = getKeptBufferData(own, kBufferLocations);
  if (!locations)
    return;
  ArrayAttr alignments = getKeptBufferData(own, kBufferAlignments);
  SmallVector<BlockArgument> attributions(kernel.getWorkgroupAttributions());
  for (auto [index, buffer] : llvm::enumerate(attributions)) {
    if (buffer.getLoc() == own && index < locations.size())
      if (auto location = dyn_cast<LocationAttr>(locations[index]))
        buffer.setLoc(location);
    if (alignments && index < alignments.size()) {
      uint64_t alignment = cast<IntegerAttr>(alignments[index]).getInt();
      if (alignment > getRequestedAlignment(kernel, index))
        setRequestedAlignment(kernel, index, alignment);
    }
  }
  // Applied once: the attributions may change from here on.
  ArrayRef<Location> fused = cast<FusedLoc>(own).getLocations();
  kernel->setLoc(fused.empty() ? UnknownLoc::get(kernel.getContext())
                               : fused.front());
}

int64_t gpumem::getAddressSpaceNumber(Attribute memorySpace) {
  if (!memorySpace)
    return 0;
  if (auto integer = dyn_cast<IntegerAttr>(memorySpace))
    return integer.getInt();
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(memorySpace)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return 1;
    case gpu::AddressSpace::Workgroup:
      return 3;
    case gpu::AddressSpace::Private:
      return 5;
    }
  }
  return -1;
}

void gpumem::finalizeSharedGlobals(gpu::GPUModuleOp module,
                                   unsigned sharedSpace) {
  uint64_t dynamicAlignment = getDynamicSharedAlignment(module);
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (global.getAddrSpace() != sharedSpace)
      continue;
    uint64_t alignment = kMinWorkgroupAlignment;
    auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
    if (array && array.getNumElements() == 0) {
      global.setLinkage(LLVM::Linkage::External);
      alignment = dynamicAlignment;
    }
    if (global.getAlignment().value_or(0) < alignment)
      global.setAlignment(alignment);
  }
}

LogicalResult gpumem::checkMemorySpaces(ModuleOp module,
                                        const GPUMemorySpaces &spaces) {
  auto describe = [](int64_t space) {
    return space < 0 ? std::string("that is not a number")
                     : std::to_string(space);
  };
  WalkResult result = module.walk([&](gpu::GPUModuleOp gpuModule) {
    return gpuModule.walk([&](Operation *op) -> WalkResult {
      int64_t variable = -2;
      if (auto global = dyn_cast<memref::GlobalOp>(op))
        variable = getAddressSpaceNumber(global.getType().getMemorySpace());
      else if (auto global = dyn_cast<LLVM::GlobalOp>(op))
        variable = global.getAddrSpace();
      if (variable != -2 && !llvm::is_contained(spaces.variables, variable))
        return op->emitOpError()
               << "is a variable in memory space " << describe(variable)
               << ", which " << spaces.gpus << " do not have for variables ("
               << spaces.variablesText << ")";
      for (Type type : op->getResultTypes()) {
        int64_t space = -2;
        if (auto memref = dyn_cast<BaseMemRefType>(type))
          space = getAddressSpaceNumber(memref.getMemorySpace());
        else if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(type))
          space = ptr.getAddressSpace();
        if (space != -2 && !llvm::is_contained(spaces.values, space))
          return op->emitOpError()
                 << "uses memory space " << describe(space) << ", which "
                 << spaces.gpus << " do not have (" << spaces.valuesText << ")";
      }
      return WalkResult::advance();
    });
  });
  return failure(result.wasInterrupted());
}
