//===----------------------------------------------------------------------===//
// Memory of the mgpu* ABI on HIP: allocation, free, host registration and
// managed memory hints (copies and fills are in Copies.cpp, streams and
// events in Streams.cpp).
//
// Allocation: managed memory (hipMallocManaged, hipMemAttachGlobal) when the
// host shares it, else hipMalloc, also when a stream is given: HIP 5.2's
// stream-ordered allocator (hipMallocAsync) is new there and marked beta,
// so the runtime does not rely on it (decision 100). Free on a stream waits for
// the stream, then hipFree. Running out of memory reports the bytes asked and
// what hipMemGetInfo says is free. Host registration (hipHostRegister, mapped
// and portable) of a memref covers every byte the descriptor can address;
// kernels get the host's pointers, so a device that maps registered memory at
// other addresses (hipHostGetDevicePointer) is refused with a message rather
// than given pointers it cannot use (decision 101). Managed memory hints do
// nothing on a device without concurrent managed access, where HIP rejects
// them.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Driver.h"
#include "MemRefRegion.h"
#include "MemoryHintChecks.h"
#include "ROCmRuntime.h"
#include "Support.h"

#include <atomic>
#include <string>

using namespace gpumem::rocm;

namespace {

[[noreturn]] void allocationFailed(hipError_t result, const char *call,
                                   uint64_t bytes, const Device &device) {
  std::string available;
  size_t free = 0, total = 0;
  if (result == hipErrorOutOfMemory &&
      hip().hipMemGetInfo(&free, &total) == hipSuccess)
    available = " (device " + std::to_string(device.ordinal) + " has " +
                std::to_string(free) + " bytes free of " +
                std::to_string(total) + ")";
  fatal("%s failed for %llu bytes: %s%s", call, (unsigned long long)bytes,
        describe(result).c_str(), available.c_str());
}

} // namespace

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                              bool isHostShared) {
  (void)stream;
  if (sizeBytes == 0)
    return nullptr;
  const Device &device = enterDevice();
  const HIP &api = hip();
  void *ptr = nullptr;
  hipError_t result;
  const char *call;
  if (isHostShared) {
    call = "hipMallocManaged";
    result = api.hipMallocManaged(&ptr, sizeBytes, hipMemAttachGlobal);
  } else {
    call = "hipMalloc";
    result = api.hipMalloc(&ptr, sizeBytes);
  }
  if (result != hipSuccess)
    allocationFailed(result, call, sizeBytes, device);
  return ptr;
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr || !enterDeviceForRelease())
    return;
  if (stream)
    checkRelease(hip().hipStreamSynchronize(static_cast<hipStream_t>(stream)),
                 "hipStreamSynchronize");
  checkRelease(hip().hipFree(ptr), "hipFree");
}

extern "C" void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (sizeBytes == 0)
    return;
  const Device &device = enterDevice();
  const HIP &api = hip();
  hipError_t result = api.hipHostRegister(
      ptr, sizeBytes, hipHostRegisterMapped | hipHostRegisterPortable);
  if (result != hipSuccess)
    fatal("hipHostRegister failed for %llu bytes at %p: %s",
          (unsigned long long)sizeBytes, ptr, describe(result).c_str());
  void *devicePtr = nullptr;
  result = api.hipHostGetDevicePointer(&devicePtr, ptr, 0);
  if (result != hipSuccess)
    fatal("hipHostGetDevicePointer failed for %p after hipHostRegister: %s",
          ptr, describe(result).c_str());
  if (devicePtr != ptr)
    fatal("hipHostRegister: device %d (%s) maps the %llu bytes of host "
          "memory at %p to device address %p; kernels get host pointers, so "
          "registered host memory cannot be used on it (compile with "
          "--host-buffers=copy or managed instead)",
          device.ordinal, device.name, (unsigned long long)sizeBytes, ptr,
          devicePtr);
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  auto region = gpumem::runtime::memrefRegion("mgpuMemHostRegisterMemRef", rank,
                                              descriptor, elementSizeBytes);
  mgpuMemHostRegister(region.start, region.bytes);
}

extern "C" void mgpuMemHostUnregister(void *ptr) {
  if (!ptr || !enterDeviceForRelease())
    return;
  hipError_t result = hip().hipHostUnregister(ptr);
  if (result != hipSuccess && !shutDown(result))
    fatal("hipHostUnregister failed for %p: %s", ptr, describe(result).c_str());
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  auto region = gpumem::runtime::memrefRegion(
      "mgpuMemHostUnregisterMemRef", rank, descriptor, elementSizeBytes);
  if (region.bytes)
    mgpuMemHostUnregister(region.start);
}

namespace {

/// hipDeviceAttributeConcurrentManagedAccess of the runtime's device: -1
/// until read.
std::atomic<int> concurrentManagedAccess{-1};

/// Whether managed memory hints mean anything on `device`.
bool takesMemoryHints(const Device &device) {
  int known = concurrentManagedAccess.load(std::memory_order_relaxed);
  if (known < 0) {
    int value = 0;
    check(hip().hipDeviceGetAttribute(&value,
                                      hipDeviceAttributeConcurrentManagedAccess,
                                      device.ordinal),
          "hipDeviceGetAttribute(hipDeviceAttributeConcurrentManagedAccess)");
    known = value != 0;
    concurrentManagedAccess.store(known, std::memory_order_relaxed);
  }
  return known != 0;
}

/// What HIP says when a hint is given for memory it does not manage.
const char *managedMemoryHint(hipError_t result) {
  return result == hipErrorInvalidValue
             ? "; is it managed memory (gpumem.alloc_managed or gpu.alloc "
               "host_shared)?"
             : "";
}

/// gpumemMemAdvise's advice values (GPUMemMemoryAdvice), in order.
struct Advice {
  hipMemoryAdvise advice;
  bool onHost;      ///< the location is the host, not the device
  const char *name; ///< for messages: the advice and, where it matters,
                    ///< the location
};
constexpr Advice advices[] = {
    {hipMemAdviseSetReadMostly, false, "hipMemAdviseSetReadMostly"},
    {hipMemAdviseUnsetReadMostly, false, "hipMemAdviseUnsetReadMostly"},
    {hipMemAdviseSetPreferredLocation, false,
     "hipMemAdviseSetPreferredLocation, the device"},
    {hipMemAdviseSetPreferredLocation, true,
     "hipMemAdviseSetPreferredLocation, the host"},
    {hipMemAdviseUnsetPreferredLocation, false,
     "hipMemAdviseUnsetPreferredLocation"},
    {hipMemAdviseSetAccessedBy, false, "hipMemAdviseSetAccessedBy, the device"},
    {hipMemAdviseUnsetAccessedBy, false,
     "hipMemAdviseUnsetAccessedBy, the device"},
};
constexpr int32_t adviceCount = sizeof(advices) / sizeof(advices[0]);
static_assert(adviceCount == GPUMEM_ADVISE_COUNT &&
                  advices[GPUMEM_ADVISE_PREFERRED_LOCATION_HOST].onHost,
              "advices[] follows GPUMemMemoryAdvice");

} // namespace

extern "C" void gpumemMemPrefetch(void *ptr, uint64_t sizeBytes,
                                  int32_t destination, void *stream) {
  gpumem::runtime::checkPrefetchDestination(destination);
  if (sizeBytes == 0)
    return;
  const Device &device = enterDevice();
  if (!takesMemoryHints(device))
    return;
  const HIP &api = hip();
  bool toHost = destination == GPUMEM_PREFETCH_TO_HOST;
  hipError_t result = api.hipMemPrefetchAsync(
      ptr, sizeBytes, toHost ? hipCpuDeviceId : device.ordinal,
      static_cast<hipStream_t>(stream));
  if (result != hipSuccess) {
    std::string where = toHost ? std::string("the host")
                               : "device " + std::to_string(device.ordinal);
    fatal("hipMemPrefetchAsync failed for %llu bytes at %p to %s: %s%s",
          (unsigned long long)sizeBytes, ptr, where.c_str(),
          describe(result).c_str(), managedMemoryHint(result));
  }
  if (!stream)
    check(api.hipStreamSynchronize(nullptr), "hipStreamSynchronize");
}

extern "C" void gpumemMemAdvise(void *ptr, uint64_t sizeBytes, int32_t advice) {
  gpumem::runtime::checkMemoryAdvice(advice);
  if (sizeBytes == 0)
    return;
  const Device &device = enterDevice();
  if (!takesMemoryHints(device))
    return;
  const Advice &what = advices[advice];
  hipError_t result =
      hip().hipMemAdvise(ptr, sizeBytes, what.advice,
                         what.onHost ? hipCpuDeviceId : device.ordinal);
  if (result != hipSuccess)
    fatal("hipMemAdvise(%s) failed for %llu bytes at %p: %s%s", what.name,
          (unsigned long long)sizeBytes, ptr, describe(result).c_str(),
          managedMemoryHint(result));
}
