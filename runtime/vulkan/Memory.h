//===----------------------------------------------------------------------===//
// The runtime's buffers. Every allocation and host registration is one
// VkBuffer, known by the host address range it covers: the mapping of a
// host-visible allocation, the host memory a registration imports, or, for
// a device-local allocation on a device with staged memory (Device.h), an
// address range reserved with no access, so that its pointers are unique
// and fault on the host as device pointers do on a GPU.
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
  uint64_t bytesAfter;  ///< of the allocation from the pointer on
  bool deviceLocal;     ///< the host cannot read or write it (staged)
};

/// The buffer of the allocation or registered range holding `ptr`; false
/// when there is none. A null `ptr` (a memref of no elements) gets a
/// 4-byte buffer of its own at offset 0.
bool findBuffer(const void *ptr, BufferAt &found);

/// A buffer of its own for the runtime, bound to memory of its own.
struct OwnBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr; ///< when host-visible
};

/// A storage and transfer buffer of `bytes`, host-visible, coherent and
/// mapped when `hostVisible`, else in device-local memory; exits on
/// failure.
OwnBuffer createOwnBuffer(uint64_t bytes, bool hostVisible);
void destroyOwnBuffer(const OwnBuffer &buffer);

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_MEMORY_H
