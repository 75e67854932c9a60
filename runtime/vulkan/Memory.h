//===----------------------------------------------------------------------===//
// Finding the VkBuffer behind a pointer, for kernel arguments: every
// allocation and host registration is one buffer, known by the host
// address range it covers.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_MEMORY_H
#define GPUMEM_RUNTIME_VULKAN_MEMORY_H

#include "Loader.h"

#include <cstdint>

namespace gpumem::vulkan {

/// Where a pointer lies in a buffer.
struct BufferAt {
  VkBuffer buffer;
  int64_t byteOffset;   ///< of the pointer from the buffer's first byte
  uint64_t bufferBytes; ///< the buffer's size
};

/// The buffer of the allocation or registered range holding `ptr`; false
/// when there is none. A null `ptr` (a memref of no elements) gets a
/// 4-byte buffer of its own at offset 0.
bool findBuffer(const void *ptr, BufferAt &found);

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_MEMORY_H
