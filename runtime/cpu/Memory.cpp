//===----------------------------------------------------------------------===//
// Memory, streams, events and devices of the mgpu* ABI on the CPU.
//
// "Device" memory is host memory, aligned to 64 bytes (a cache line, more
// than any vector type needs). Copies and fills run at once. Kernels run to
// completion inside mgpuLaunchKernel, so every ordering a stream or event
// expresses already holds when the call returns: streams and events are
// plain tokens, and synchronizing or waiting on them does nothing. Managed
// memory is host memory too, so prefetch and advice only check their
// arguments.
//===----------------------------------------------------------------------===//

#include "CPURuntime.h"
#include "MemoryHintChecks.h"
#include "Support.h"

#include <cstdlib>
#include <cstring>

using namespace gpumem::cpu;

namespace {

constexpr uint64_t memoryAlignment = 64;

/// A stream or an event. Both are the same type so that a handle passed to
/// the other kind's functions is still destroyed correctly.
struct Token {
  enum Kind : uint32_t { Stream, Event } kind;
};

} // namespace

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                              bool isHostShared) {
  // aligned_alloc wants a multiple of the alignment; a zero-byte allocation
  // still gets a unique pointer.
  uint64_t rounded = alignTo(sizeBytes ? sizeBytes : 1, memoryAlignment);
  if (rounded < sizeBytes)
    fatal("mgpuMemAlloc: cannot allocate %llu bytes",
          (unsigned long long)sizeBytes);
  void *ptr = std::aligned_alloc(memoryAlignment, rounded);
  if (!ptr)
    fatal("mgpuMemAlloc: out of memory allocating %llu bytes",
          (unsigned long long)sizeBytes);
  return ptr;
}

extern "C" void mgpuMemFree(void *ptr, void *stream) { std::free(ptr); }

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream) {
  if (sizeBytes)
    std::memmove(dst, src, sizeBytes);
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  auto *elements = static_cast<uint32_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    elements[i] = value;
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  auto *elements = static_cast<uint16_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    elements[i] = value;
}

extern "C" void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {}
extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {}
extern "C" void mgpuMemHostUnregister(void *ptr) {}
extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {}

extern "C" void mgpuSetDefaultDevice(int32_t device) {}

extern "C" void gpumemMemPrefetch(void *ptr, uint64_t sizeBytes,
                                  int32_t destination, void *stream) {
  gpumem::runtime::checkPrefetchDestination(destination);
}

extern "C" void gpumemMemAdvise(void *ptr, uint64_t sizeBytes,
                                int32_t advice) {
  gpumem::runtime::checkMemoryAdvice(advice);
}

extern "C" void *mgpuStreamCreate(void) { return new Token{Token::Stream}; }
extern "C" void mgpuStreamDestroy(void *stream) {
  delete static_cast<Token *>(stream);
}
extern "C" void mgpuStreamSynchronize(void *stream) {}
extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {}

extern "C" void *mgpuEventCreate(void) { return new Token{Token::Event}; }
extern "C" void mgpuEventDestroy(void *event) {
  delete static_cast<Token *>(event);
}
extern "C" void mgpuEventSynchronize(void *event) {}
extern "C" void mgpuEventRecord(void *event, void *stream) {}
