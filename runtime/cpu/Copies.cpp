//===----------------------------------------------------------------------===//
// Copies and fills of the mgpu* ABI on the CPU.
//
// Both are checked when they are called (no freed memory, no overlap) and
// run in their stream's order (Streams.h); with a null stream they wait for
// every stream and run at once. Copies and fills into device memory that
// has a shadow (--sanitize's initcheck, racecheck) mark the bytes written
// (shadowCopy, Memory.cpp).
//===----------------------------------------------------------------------===//

#include "CPURuntime.h"
#include "DeviceMemoryShadow.h"
#include "LaunchLocation.h"
#include "Sanitizer.h"
#include "Streams.h"
#include "Support.h"

#include <cstring>

using namespace gpumem::cpu;
using gpumem::runtime::MemoryCallScope;

namespace {

/// Stops the program when `address` lies in freed device memory.
void checkNotFreed(const char *call, const char *role, const void *address) {
  uint64_t start, bytes;
  if (gpumem::cpu::findFreedDeviceMemory(address, start, bytes))
    fatal("%s: the %s %p is %llu bytes into device memory of %llu bytes "
          "that was freed (use after free)",
          call, role, address, (unsigned long long)(uintptr_t(address) - start),
          (unsigned long long)bytes);
}

/// Runs `work` in `stream`'s order, or now after every stream when
/// `stream` is null.
void inStreamOrder(void *stream, Stream::Work work) {
  if (stream)
    return static_cast<Stream *>(stream)->enqueue(std::move(work));
  Stream::synchronizeAll();
  work();
}

/// mgpuMemset32/16: writes `count` elements of `value` at `dst` in
/// `stream`'s order and marks them written.
template <typename T>
void fill(void *dst, T value, size_t count, void *stream) {
  inStreamOrder(stream, [=] {
    auto *elements = static_cast<T *>(dst);
    for (size_t i = 0; i < count; ++i)
      elements[i] = value;
    shadowCopy(dst, nullptr, count * sizeof(T));
  });
}

} // namespace

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream) {
  MemoryCallScope scope;
  if (!sizeBytes)
    return;
  checkNotFreed("mgpuMemcpy", "source", src);
  checkNotFreed("mgpuMemcpy", "destination", dst);
  uintptr_t to = uintptr_t(dst), from = uintptr_t(src);
  if (to < from + sizeBytes && from < to + sizeBytes)
    fatal("mgpuMemcpy: the %zu bytes copied from %p to %p overlap (a copy "
          "within one buffer needs a buffer in between)",
          sizeBytes, src, dst);
  inStreamOrder(stream, [=] {
    std::memcpy(dst, src, sizeBytes);
    shadowCopy(dst, src, sizeBytes);
  });
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  MemoryCallScope scope;
  fill<uint32_t>(dst, value, count, stream);
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  MemoryCallScope scope;
  fill<uint16_t>(dst, value, count, stream);
}
