//===----------------------------------------------------------------------===//
// Helpers shared by the passes that reason about GPU address spaces.
// Workgroup memory is spelled `#gpu.address_space<workgroup>` or the integer
// 3 (NVVM numbering); private memory `#gpu.address_space<private>`, 5, or
// no memory space at all. Every spelling is treated alike.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H
#define GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ValueRange.h"

#include <cstdint>

namespace mlir {
class DataLayout;
class OpBuilder;
namespace gpu {
class GPUFuncOp;
class LaunchOp;
} // namespace gpu
} // namespace mlir

namespace gpumem {

/// True when `memorySpace` names GPU workgroup (shared) memory.
bool isWorkgroupMemorySpace(mlir::Attribute memorySpace);

/// The number of the address space `memorySpace` names, in NVVM's numbering:
/// an integer as written, #gpu.address_space<global/workgroup/private> as
/// 1, 3, 5, no memory space as 0; -1 for anything else.
int64_t getAddressSpaceNumber(mlir::Attribute memorySpace);

/// True when `type` is a memref in workgroup memory.
bool isWorkgroupMemRef(mlir::Type type);

/// The bytes of a static workgroup buffer of `type`.
uint64_t getWorkgroupBufferBytes(mlir::MemRefType type,
                                 const mlir::DataLayout &layout);

/// Emits the bytes of a buffer of `type` whose dynamic dimensions are
/// `dynamicSizes` (in order) and whose elements take `elementBytes`: the
/// static part as one constant, times each dynamic size.
mlir::Value createBufferBytes(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::MemRefType type,
                              mlir::ValueRange dynamicSizes,
                              uint64_t elementBytes);

/// The alignment of a workgroup buffer of `type`: 16 bytes, or its element's
/// when that is larger (docs/workgroup-memory.md).
uint64_t getWorkgroupBufferAlignment(mlir::MemRefType type,
                                     const mlir::DataLayout &layout);

/// Keeps the locations of `launch`'s workgroup attributions (the
/// allocations they were hoisted from) in the launch's own location, as
/// metadata of a fused location, which outlining gives the kernel.
void recordWorkgroupBufferLocations(mlir::gpu::LaunchOp launch);

/// The location of `kernel`'s workgroup attribution `index`: what
/// recordWorkgroupBufferLocations kept for it before outlining, else the
/// attribution's own.
mlir::Location getWorkgroupBufferLocation(mlir::gpu::GPUFuncOp kernel,
                                          unsigned index);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H
