//===----------------------------------------------------------------------===//
// Helpers shared by the passes that reason about GPU address spaces.
// Workgroup memory is spelled `#gpu.address_space<workgroup>` or the integer
// 3 (NVVM numbering); private memory `#gpu.address_space<private>`, 5, or
// no memory space at all. Every spelling is treated alike.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H
#define GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>

namespace mlir {
class DataLayout;
} // namespace mlir

namespace gpumem {

/// True when `memorySpace` names GPU workgroup (shared) memory.
bool isWorkgroupMemorySpace(mlir::Attribute memorySpace);

/// True when `type` is a memref in workgroup memory.
bool isWorkgroupMemRef(mlir::Type type);

/// The bytes of a static workgroup buffer of `type`.
uint64_t getWorkgroupBufferBytes(mlir::MemRefType type,
                                 const mlir::DataLayout &layout);

/// The alignment of a workgroup buffer of `type`: 16 bytes, or its element's
/// when that is larger (docs/workgroup-memory.md).
uint64_t getWorkgroupBufferAlignment(mlir::MemRefType type,
                                     const mlir::DataLayout &layout);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_WORKGROUPMEMORY_H
