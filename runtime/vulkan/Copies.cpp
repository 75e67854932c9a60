//===----------------------------------------------------------------------===//
// Copies and fills of the mgpu* ABI on Vulkan.
//
// Between memory the host can reach (mapped allocations, registered and
// plain host memory) a copy or fill waits for all submitted work, then
// acts on the host. When a side is a device-local allocation (staged
// memory, Memory.cpp) the device copies, in stream order, with
// vkCmdCopyBuffer: from or to the other side's buffer when it has one, else
// through a staging buffer of host-visible memory. Into device memory the
// host fills the staging buffer first (the copy's source bytes are taken
// at the call, as CUDA does for pageable memory) and the submission frees
// it when done; out of it, the call waits for the copy and then reads the
// staging buffer. Fills of device-local memory are staged copies of the
// pattern. A device-local side that the bytes run past is an error.
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "Queue.h"
#include "VulkanRuntime.h"

#include <cstring>

using namespace gpumem::vulkan;

namespace {

/// One side of a copy.
struct Side {
  bool inBuffer; ///< `at` is its buffer (else plain host memory)
  BufferAt at;
};

Side locate(const void *ptr, size_t bytes, const char *call, const char *role) {
  Side side;
  side.inBuffer = findBuffer(ptr, side.at);
  if (side.inBuffer && side.at.bytesAfter < bytes) {
    if (side.at.deviceLocal)
      fatal("%s: the %s %p has %llu bytes of device memory from there, not "
            "the %zu it needs",
            call, role, ptr, (unsigned long long)side.at.bytesAfter, bytes);
    side.inBuffer = false; // host memory beyond a registration
  }
  return side;
}

/// Copies `bytes` on the device from `from` to `to`, on `stream`; an
/// OwnBuffer to free when done may come along. Returns where the copy is
/// done.
Point deviceCopy(VkBuffer from, uint64_t fromOffset, VkBuffer to,
                 uint64_t toOffset, size_t bytes, void *stream,
                 const OwnBuffer *freeWhenDone) {
  Recording recording;
  VkBufferCopy region{fromOffset, toOffset, bytes};
  vk.vkCmdCopyBuffer(recording.commands(), from, to, 1, &region);
  if (freeWhenDone) {
    OwnBuffer staging = *freeWhenDone;
    recording.whenDone([staging] { destroyOwnBuffer(staging); });
  }
  return recording.submit(static_cast<Stream *>(stream), "a copy");
}

/// Writes `bytes` that `fill` puts in host memory into the device-local
/// side `to`, through a staging buffer.
template <typename Fill>
void writeStaged(const BufferAt &to, size_t bytes, void *stream, Fill fill) {
  OwnBuffer staging = createOwnBuffer(bytes, /*hostVisible=*/true);
  fill(staging.mapped);
  deviceCopy(staging.buffer, 0, to.buffer, uint64_t(to.byteOffset), bytes,
             stream, &staging);
}

} // namespace

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream) {
  if (sizeBytes == 0)
    return;
  Side to = locate(dst, sizeBytes, "mgpuMemcpy", "destination");
  Side from = locate(src, sizeBytes, "mgpuMemcpy", "source");
  bool toDevice = to.inBuffer && to.at.deviceLocal;
  bool fromDevice = from.inBuffer && from.at.deviceLocal;
  if (!toDevice && !fromDevice) {
    waitAll();
    std::memmove(dst, src, sizeBytes);
    return;
  }
  if (to.inBuffer && from.inBuffer) {
    deviceCopy(from.at.buffer, uint64_t(from.at.byteOffset), to.at.buffer,
               uint64_t(to.at.byteOffset), sizeBytes, stream, nullptr);
    return;
  }
  if (toDevice) {
    writeStaged(to.at, sizeBytes, stream,
                [&](void *staging) { std::memcpy(staging, src, sizeBytes); });
    return;
  }
  // From device memory to plain host memory.
  OwnBuffer staging = createOwnBuffer(sizeBytes, /*hostVisible=*/true);
  waitFor(deviceCopy(from.at.buffer, uint64_t(from.at.byteOffset),
                     staging.buffer, 0, sizeBytes, stream, nullptr));
  std::memcpy(dst, staging.mapped, sizeBytes);
  destroyOwnBuffer(staging);
}

namespace {

/// Fills `count` elements of type T at `dst` with `value`.
template <typename T>
void fill(void *dst, T value, size_t count, void *stream, const char *call) {
  if (count == 0)
    return;
  size_t bytes = count * sizeof(T);
  Side to = locate(dst, bytes, call, "destination");
  auto pattern = [&](void *target) {
    auto *elements = static_cast<T *>(target);
    for (size_t i = 0; i < count; ++i)
      elements[i] = value;
  };
  if (to.inBuffer && to.at.deviceLocal)
    return writeStaged(to.at, bytes, stream, pattern);
  waitAll();
  pattern(dst);
}

} // namespace

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  fill<uint32_t>(dst, value, count, stream, "mgpuMemset32");
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  fill<uint16_t>(dst, value, count, stream, "mgpuMemset16");
}
