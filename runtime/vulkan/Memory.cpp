//===----------------------------------------------------------------------===//
// Memory of the mgpu* ABI on Vulkan.
//
// Every mgpuMemAlloc is its own VkBuffer (storage and transfer usage) bound
// to its own allocation. On most devices (integrated GPUs, lavapipe,
// discrete ones with resizable BAR) that is a HOST_VISIBLE | HOST_COHERENT
// memory type, DEVICE_LOCAL too where there is one, mapped for the
// buffer's whole life: the pointer returned is the mapping, so the host
// reads and writes it directly. On a discrete GPU without a mappable
// device-local heap (Device::stagedMemory) it is device-local memory, and
// the pointer is an address range reserved with no access, so copies go
// through staging buffers (Copies.cpp) and host accesses fault as on a GPU;
// `isHostShared` allocations stay mapped. mgpuMemHostRegister imports host
// memory (VK_EXT_external_memory_host) into a buffer over the pages that
// hold it. A sorted map from the first address of each range to its buffer
// finds the buffer of any pointer inside it (upper_bound, then one step
// back). Frees first wait for all submitted work (Queue.h). Releases do
// nothing once the process is exiting (Device.h).
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "Device.h"
#include "MemRefRegion.h"
#include "MemoryHintChecks.h"
#include "Queue.h"
#include "VulkanRuntime.h"

#include <atomic>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>

#include <sys/mman.h>

using namespace gpumem::vulkan;

namespace {

/// How a range's host addresses relate to its buffer.
enum class Kind {
  Mapped,      ///< mgpuMemAlloc: the buffer's mapping
  DeviceLocal, ///< mgpuMemAlloc, staged: a reservation with no access
  Imported,    ///< mgpuMemHostRegister: the host memory itself
};

struct Range {
  uint64_t bytes;       ///< of the range pointers are looked up in
  char *bufferStart;    ///< host address of the buffer's first byte
  uint64_t bufferBytes; ///< >= bytes
  VkBuffer buffer;
  VkDeviceMemory memory;
  Kind kind;
};

/// The ranges by first address. Never destroyed.
struct Ranges {
  std::mutex mutex;
  std::map<uintptr_t, Range> byStart;
};
Ranges &ranges() {
  static Ranges *all = new Ranges;
  return *all;
}

VkBuffer createBuffer(const Device &current, uint64_t bytes, bool imported) {
  VkExternalMemoryBufferCreateInfo external{
      VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.pNext = imported ? &external : nullptr;
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer;
  VkResult result = vk.vkCreateBuffer(current.device, &info, nullptr, &buffer);
  if (result != VK_SUCCESS)
    fatal("vkCreateBuffer failed for %llu bytes: %s", (unsigned long long)bytes,
          describe(result));
  return buffer;
}

/// A memory type in `allowed` with all of `required`, preferring one with
/// `preferred` too; -1 when none.
int memoryType(const Device &current, uint32_t allowed,
               VkMemoryPropertyFlags required,
               VkMemoryPropertyFlags preferred) {
  int found = -1;
  for (uint32_t i = 0; i < current.memory.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = current.memory.memoryTypes[i].propertyFlags;
    if (!(allowed & (1u << i)) || (flags & required) != required)
      continue;
    if ((flags & preferred) == preferred)
      return int(i);
    if (found < 0)
      found = int(i);
  }
  return found;
}

void insert(uintptr_t start, const Range &range) {
  std::lock_guard<std::mutex> lock(ranges().mutex);
  ranges().byStart.emplace(start, range);
}

/// Removes and returns the range starting at `ptr` that an import (or
/// else an allocation) made; false when there is none.
bool take(void *ptr, bool imported, Range &range) {
  std::lock_guard<std::mutex> lock(ranges().mutex);
  auto found = ranges().byStart.find(uintptr_t(ptr));
  if (found == ranges().byStart.end() ||
      (found->second.kind == Kind::Imported) != imported)
    return false;
  range = found->second;
  ranges().byStart.erase(found);
  return true;
}

void release(const Range &range) {
  destroyOwnBuffer({range.buffer, range.memory, nullptr});
  if (range.kind == Kind::DeviceLocal)
    munmap(range.bufferStart, range.bufferBytes);
}

} // namespace

bool gpumem::vulkan::findBuffer(const void *ptr, BufferAt &found) {
  if (!ptr) {
    static std::atomic<void *> empty{nullptr};
    void *buffer = empty.load(std::memory_order_acquire);
    if (!buffer) {
      // Racing threads may each make one; only one is kept.
      void *made = mgpuMemAlloc(4, nullptr, false);
      if (!empty.compare_exchange_strong(buffer, made))
        mgpuMemFree(made, nullptr);
      else
        buffer = made;
    }
    return findBuffer(buffer, found);
  }
  std::lock_guard<std::mutex> lock(ranges().mutex);
  auto &byStart = ranges().byStart;
  auto next = byStart.upper_bound(uintptr_t(ptr));
  if (next == byStart.begin())
    return false;
  auto &[start, range] = *std::prev(next);
  if (uintptr_t(ptr) - start >= range.bytes)
    return false;
  int64_t offset = static_cast<const char *>(ptr) - range.bufferStart;
  found = {range.buffer, offset, range.bufferBytes,
           range.bytes - (uintptr_t(ptr) - start),
           range.kind == Kind::DeviceLocal};
  return true;
}

OwnBuffer gpumem::vulkan::createOwnBuffer(uint64_t bytes, bool hostVisible) {
  const Device &current = device();
  OwnBuffer own;
  own.buffer = createBuffer(current, bytes, false);
  VkMemoryRequirements requirements;
  vk.vkGetBufferMemoryRequirements(current.device, own.buffer, &requirements);
  constexpr VkMemoryPropertyFlags mappable =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int type = hostVisible
                 ? memoryType(current, requirements.memoryTypeBits, mappable,
                              VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
                 : memoryType(current, requirements.memoryTypeBits, 0,
                              VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type < 0)
    fatal("Vulkan device %d (%s) has no %smemory type for storage buffers",
          current.index, current.properties.deviceName,
          hostVisible ? "host-visible, host-coherent " : "");
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.allocationSize = requirements.size;
  info.memoryTypeIndex = uint32_t(type);
  VkResult result =
      vk.vkAllocateMemory(current.device, &info, nullptr, &own.memory);
  if (result != VK_SUCCESS)
    fatal("vkAllocateMemory failed for %llu bytes (memory type %d): %s",
          (unsigned long long)bytes, type, describe(result));
  check(vk.vkBindBufferMemory(current.device, own.buffer, own.memory, 0),
        "vkBindBufferMemory");
  if (hostVisible)
    check(vk.vkMapMemory(current.device, own.memory, 0, VK_WHOLE_SIZE, 0,
                         &own.mapped),
          "vkMapMemory");
  return own;
}

void gpumem::vulkan::destroyOwnBuffer(const OwnBuffer &own) {
  VkDevice handle = device().device;
  vk.vkDestroyBuffer(handle, own.buffer, nullptr);
  vk.vkFreeMemory(handle, own.memory, nullptr);
}

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                              bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  const Device &current = device();
  // Storage buffers are read in 4-byte words; reservations are pages.
  if (sizeBytes > UINT64_MAX / 2)
    fatal("mgpuMemAlloc: %llu bytes is too large",
          (unsigned long long)sizeBytes);
  uint64_t bytes = (sizeBytes + 3) & ~uint64_t(3);
  bool deviceLocal = current.stagedMemory && !isHostShared;
  OwnBuffer own = createOwnBuffer(bytes, !deviceLocal);
  char *start = static_cast<char *>(own.mapped);
  if (deviceLocal) {
    void *reserved = mmap(nullptr, bytes, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED)
      fatal("mgpuMemAlloc: cannot reserve %llu bytes of addresses for "
            "device memory",
            (unsigned long long)bytes);
    start = static_cast<char *>(reserved);
  }
  insert(uintptr_t(start), {sizeBytes, start, bytes, own.buffer, own.memory,
                            deviceLocal ? Kind::DeviceLocal : Kind::Mapped});
  return start;
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr || exiting())
    return;
  waitAll();
  Range range;
  if (!take(ptr, /*imported=*/false, range))
    fatal("mgpuMemFree: %p is not the start of memory from mgpuMemAlloc", ptr);
  release(range);
}

extern "C" void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (sizeBytes == 0)
    return;
  const Device &current = device();
  if (!current.hostImport)
    fatal("mgpuMemHostRegister: Vulkan device %d (%s) lacks "
          "VK_EXT_external_memory_host, which gives kernels host memory",
          current.index, current.properties.deviceName);
  uint64_t alignment = current.importAlignment ? current.importAlignment : 1;
  uintptr_t start = uintptr_t(ptr) & ~uintptr_t(alignment - 1);
  uint64_t end = uintptr_t(ptr) + sizeBytes;
  if (end < sizeBytes || end + alignment - 1 < end)
    fatal("mgpuMemHostRegister: %llu bytes at %p wrap around",
          (unsigned long long)sizeBytes, ptr);
  end = (end + alignment - 1) & ~uint64_t(alignment - 1);
  {
    std::lock_guard<std::mutex> lock(ranges().mutex);
    auto &byStart = ranges().byStart;
    auto next = byStart.lower_bound(uintptr_t(ptr) + sizeBytes);
    if (next != byStart.begin()) {
      auto &[other, range] = *std::prev(next);
      if (other + range.bytes > uintptr_t(ptr))
        fatal("mgpuMemHostRegister: %llu bytes at %p overlap %llu bytes at %p "
              "that the runtime already has",
              (unsigned long long)sizeBytes, ptr,
              (unsigned long long)range.bytes, (void *)other);
    }
  }
  uint64_t bytes = end - start;
  VkMemoryHostPointerPropertiesEXT host{
      VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  VkResult result = vk.vkGetMemoryHostPointerPropertiesEXT(
      current.device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
      reinterpret_cast<void *>(start), &host);
  if (result != VK_SUCCESS)
    fatal("vkGetMemoryHostPointerPropertiesEXT failed for %p: %s", ptr,
          describe(result));
  VkBuffer buffer = createBuffer(current, bytes, true);
  VkMemoryRequirements requirements;
  vk.vkGetBufferMemoryRequirements(current.device, buffer, &requirements);
  int type =
      memoryType(current, requirements.memoryTypeBits & host.memoryTypeBits, 0,
                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (type < 0 || requirements.size > bytes)
    fatal("mgpuMemHostRegister: Vulkan device %d (%s) cannot import %llu "
          "bytes at %p as a storage buffer",
          current.index, current.properties.deviceName,
          (unsigned long long)sizeBytes, ptr);
  VkImportMemoryHostPointerInfoEXT import{
      VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  import.pHostPointer = reinterpret_cast<void *>(start);
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.pNext = &import;
  info.allocationSize = bytes;
  info.memoryTypeIndex = uint32_t(type);
  Range range{sizeBytes,      reinterpret_cast<char *>(start),
              bytes,          buffer,
              VK_NULL_HANDLE, Kind::Imported};
  result = vk.vkAllocateMemory(current.device, &info, nullptr, &range.memory);
  if (result != VK_SUCCESS)
    fatal("vkAllocateMemory failed importing %llu bytes of host memory at %p: "
          "%s",
          (unsigned long long)bytes, (void *)start, describe(result));
  check(vk.vkBindBufferMemory(current.device, buffer, range.memory, 0),
        "vkBindBufferMemory");
  insert(uintptr_t(ptr), range);
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  auto region = gpumem::runtime::memrefRegion("mgpuMemHostRegisterMemRef", rank,
                                              descriptor, elementSizeBytes);
  mgpuMemHostRegister(region.start, region.bytes);
}

extern "C" void mgpuMemHostUnregister(void *ptr) {
  if (!ptr || exiting())
    return;
  waitAll();
  Range range;
  if (!take(ptr, /*imported=*/true, range))
    fatal("mgpuMemHostUnregister: %p was not registered", ptr);
  release(range);
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  auto region = gpumem::runtime::memrefRegion(
      "mgpuMemHostUnregisterMemRef", rank, descriptor, elementSizeBytes);
  if (region.bytes)
    mgpuMemHostUnregister(region.start);
}

extern "C" void gpumemMemPrefetch(void *ptr, uint64_t sizeBytes,
                                  int32_t destination, void *stream) {
  gpumem::runtime::checkPrefetchDestination(destination);
}

extern "C" void gpumemMemAdvise(void *ptr, uint64_t sizeBytes, int32_t advice) {
  gpumem::runtime::checkMemoryAdvice(advice);
}
