//===----------------------------------------------------------------------===//
// initcheck of managed memory: the host's writes, as host code compiled with
// gpumem-track-host-writes reports them (CPURuntime.h).
//
// The host reads and writes managed memory directly, so by default its
// shadow counts every byte as written. When the host code can see every
// write to an allocation (its memref goes only to loads, stores, views,
// launches and copies), it says so right after the allocation
// (gpumemMemHostWritesTracked: the shadow forgets its writes) and reports
// each store (gpumemMemHostWrote: the bytes are written). A kernel's read
// of bytes neither the host, a copy, a fill nor a kernel wrote is then an
// uninitialized read, as on device memory. Host memory the host code
// registers (gpu.host_register) is followed the same way from its
// allocation (gpumemMemHostBufferTracked, gpumemMemHostBufferFreed): its
// writes before the registration are kept as ranges, and its shadow starts
// with those bytes written. Without shadows (no module with initcheck or
// racecheck loaded) all of these do nothing.
//===----------------------------------------------------------------------===//

#include "CPURuntime.h"
#include "DeviceMemoryShadow.h"

using namespace gpumem::cpu;

extern "C" void gpumemMemHostWritesTracked(uintptr_t allocation) {
  ShadowedRange range =
      findShadowedRange(reinterpret_cast<const void *>(allocation));
  if (range.shadow && range.allocation == allocation &&
      range.memory.is(DeviceMemoryShadow::kManaged))
    range.shadow->forgetWrites();
}

extern "C" void gpumemMemHostWrote(uintptr_t address, int64_t bytes) {
  if (bytes <= 0)
    return;
  ShadowedRange range =
      findShadowedRange(reinterpret_cast<const void *>(address));
  if (range.shadow && range.kind == ShadowedRange::Allocation)
    range.shadow->markWritten(address - range.allocation, uint64_t(bytes));
  else
    noteTrackedHostWrite(address, uint64_t(bytes));
}

extern "C" void gpumemMemHostBufferTracked(uintptr_t buffer, int64_t bytes) {
  if (bytes > 0)
    trackHostBuffer(buffer, uint64_t(bytes));
}

extern "C" void gpumemMemHostBufferFreed(uintptr_t buffer) {
  forgetTrackedHostBuffer(buffer);
}
