//===----------------------------------------------------------------------===//
// Address space classification shared by gpumem's passes.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

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
  constexpr uint64_t kMinAlignment = 16;
  return std::max<uint64_t>(kMinAlignment,
                            layout.getTypeABIAlignment(type.getElementType()));
}

/// The metadata key of the fused location that keeps buffer locations.
static constexpr llvm::StringLiteral kBufferLocations =
    "gpumem.workgroup_buffers";

/// The kept buffer locations in `loc`, or null.
static ArrayAttr getBufferLocations(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto metadata =
      fused ? dyn_cast_or_null<DictionaryAttr>(fused.getMetadata()) : nullptr;
  return metadata ? metadata.getAs<ArrayAttr>(kBufferLocations) : nullptr;
}

void gpumem::recordWorkgroupBufferLocations(gpu::LaunchOp launch) {
  if (launch.getWorkgroupAttributions().empty())
    return;
  MLIRContext *context = launch.getContext();
  Location own = launch.getLoc();
  if (getBufferLocations(own)) {
    ArrayRef<Location> locations = cast<FusedLoc>(own).getLocations();
    own = locations.empty() ? UnknownLoc::get(context) : locations.front();
  }
  SmallVector<Attribute> locations;
  for (BlockArgument buffer : launch.getWorkgroupAttributions())
    locations.push_back(buffer.getLoc());
  auto metadata = DictionaryAttr::get(
      context, {NamedAttribute(StringAttr::get(context, kBufferLocations),
                               ArrayAttr::get(context, locations))});
  launch->setLoc(FusedLoc::get(context, {own}, metadata));
}

Location gpumem::getWorkgroupBufferLocation(gpu::GPUFuncOp kernel,
                                            unsigned index) {
  BlockArgument buffer = kernel.getWorkgroupAttributions()[index];
  ArrayAttr kept = getBufferLocations(kernel.getLoc());
  if (buffer.getLoc() == kernel.getLoc() && kept && index < kept.size())
    if (auto location = dyn_cast<LocationAttr>(kept[index]))
      return location;
  return buffer.getLoc();
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
