//===----------------------------------------------------------------------===//
// Memory of the mgpu* ABI on the CUDA driver: allocation, free, host
// registration and managed memory hints (copies and fills are in
// Copies.cpp, streams and events in Streams.cpp).
//
// Allocation: managed memory (cuMemAllocManaged, CU_MEM_ATTACH_GLOBAL) when
// the host shares it, else stream-ordered (cuMemAllocAsync) on a stream,
// else cuMemAlloc; running out of memory reports the bytes asked and what
// cuMemGetInfo says is free. Free is
// stream-ordered (cuMemFreeAsync) only for memory that cuMemAllocAsync
// returned, which the runtime remembers; other memory freed on a stream
// waits for the stream, then cuMemFree (decision: cuMemFreeAsync of managed
// memory is not something to rely on). Host
// registration of a memref covers every byte the descriptor can address:
// from the lowest to the highest element its sizes and strides reach,
// which for a dense layout is upstream's sizes[0] * strides[0] elements.
// Managed memory hints (gpumemMemPrefetch, gpumemMemAdvise) use the CUDA
// 12.2 entry points that take a CUmemLocation when the driver has them, else
// the CUDA 8 ones that take a CUdevice; they do nothing on a device without
// concurrent managed access, where the driver rejects them.
//===----------------------------------------------------------------------===//

#include "Allocations.h"
#include "CUDARuntime.h"
#include "Device.h"
#include "Driver.h"
#include "LaunchLocation.h"
#include "MemRefRegion.h"
#include "MemoryHintChecks.h"
#include "Support.h"

#include <atomic>
#include <mutex>
#include <string>
#include <unordered_set>

using namespace gpumem::cuda;

namespace {

[[noreturn]] void allocationFailed(CUresult result, const char *call,
                                   uint64_t bytes, const Device &device) {
  std::string available;
  size_t free = 0, total = 0;
  if (result == CUDA_ERROR_OUT_OF_MEMORY &&
      driver().cuMemGetInfo(&free, &total) == CUDA_SUCCESS)
    available = " (device " + std::to_string(device.ordinal) + " has " +
                std::to_string(free) + " bytes free of " +
                std::to_string(total) + ")";
  fatal("%s failed for %llu bytes: %s%s", call, (unsigned long long)bytes,
        describe(result).c_str(), available.c_str());
}

} // namespace

/// Pointers cuMemAllocAsync returned and that are not freed yet. A
/// function-local static: allocations can come from global constructors.
struct StreamOrderedAllocations {
  std::mutex mutex;
  std::unordered_set<CUdeviceptr> pointers;
};
StreamOrderedAllocations &streamOrdered() {
  static StreamOrderedAllocations *allocations = new StreamOrderedAllocations;
  return *allocations;
}

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                              bool isHostShared) {
  gpumem::runtime::MemoryCallScope scope;
  if (sizeBytes == 0)
    return nullptr;
  const Device &device = enterContext();
  const Driver &api = driver();
  CUdeviceptr ptr = 0;
  CUresult result;
  const char *call;
  if (isHostShared) {
    call = "cuMemAllocManaged";
    result = api.cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL);
  } else if (stream) {
    call = "cuMemAllocAsync";
    result =
        api.cuMemAllocAsync(&ptr, sizeBytes, static_cast<CUstream>(stream));
  } else {
    call = "cuMemAlloc";
    result = api.cuMemAlloc(&ptr, sizeBytes);
  }
  if (result != CUDA_SUCCESS)
    allocationFailed(result, call, sizeBytes, device);
  if (!isHostShared && stream) {
    std::lock_guard<std::mutex> lock(streamOrdered().mutex);
    streamOrdered().pointers.insert(ptr);
  }
  recordAllocation(uintptr_t(ptr), sizeBytes,
                   isHostShared ? AllocationKind::Managed
                                : AllocationKind::Device);
  return reinterpret_cast<void *>(uintptr_t(ptr));
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  gpumem::runtime::MemoryCallScope scope;
  if (!ptr)
    return;
  forgetAllocation(uintptr_t(ptr));
  if (!enterContextForRelease())
    return;
  bool allocatedAsync;
  {
    std::lock_guard<std::mutex> lock(streamOrdered().mutex);
    allocatedAsync = streamOrdered().pointers.erase(devicePointer(ptr)) != 0;
  }
  if (stream && allocatedAsync) {
    checkRelease(driver().cuMemFreeAsync(devicePointer(ptr),
                                         static_cast<CUstream>(stream)),
                 "cuMemFreeAsync");
    return;
  }
  if (stream)
    checkRelease(driver().cuStreamSynchronize(static_cast<CUstream>(stream)),
                 "cuStreamSynchronize");
  checkRelease(driver().cuMemFree(devicePointer(ptr)), "cuMemFree");
}

extern "C" void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (sizeBytes == 0)
    return;
  enterContext();
  CUresult result =
      driver().cuMemHostRegister(ptr, sizeBytes, CU_MEMHOSTREGISTER_PORTABLE);
  if (result != CUDA_SUCCESS)
    fatal("cuMemHostRegister failed for %llu bytes at %p: %s",
          (unsigned long long)sizeBytes, ptr, describe(result).c_str());
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  auto region = gpumem::runtime::memrefRegion("mgpuMemHostRegisterMemRef", rank,
                                              descriptor, elementSizeBytes);
  mgpuMemHostRegister(region.start, region.bytes);
}

extern "C" void mgpuMemHostUnregister(void *ptr) {
  if (!ptr || !enterContextForRelease())
    return;
  CUresult result = driver().cuMemHostUnregister(ptr);
  if (result != CUDA_SUCCESS && result != CUDA_ERROR_DEINITIALIZED)
    fatal("cuMemHostUnregister failed for %p: %s", ptr,
          describe(result).c_str());
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  auto region = gpumem::runtime::memrefRegion(
      "mgpuMemHostUnregisterMemRef", rank, descriptor, elementSizeBytes);
  if (region.bytes)
    mgpuMemHostUnregister(region.start);
}

namespace {

/// CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS of the runtime's device:
/// -1 until read.
std::atomic<int> concurrentManagedAccess{-1};

/// Whether managed memory hints mean anything on `device`.
bool takesMemoryHints(const Device &device) {
  int known = concurrentManagedAccess.load(std::memory_order_relaxed);
  if (known < 0) {
    int value = 0;
    check(
        driver().cuDeviceGetAttribute(
            &value, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
            device.device),
        "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS)");
    known = value != 0;
    concurrentManagedAccess.store(known, std::memory_order_relaxed);
  }
  return known != 0;
}

CUmemLocation deviceLocation(const Device &device) {
  return {CU_MEM_LOCATION_TYPE_DEVICE, device.ordinal};
}
constexpr CUmemLocation hostLocation = {CU_MEM_LOCATION_TYPE_HOST, 0};

/// What the driver says when a hint is given for memory it does not manage.
const char *managedMemoryHint(CUresult result) {
  return result == CUDA_ERROR_INVALID_VALUE
             ? "; is it managed memory (gpumem.alloc_managed or gpu.alloc "
               "host_shared)?"
             : "";
}

/// gpumemMemAdvise's advice values (GPUMemMemoryAdvice), in order.
struct Advice {
  CUmem_advise advice;
  bool onHost;      ///< the location is the host, not the device
  const char *name; ///< for messages: the advice and, where it matters,
                    ///< the location
};
constexpr Advice advices[] = {
    {CU_MEM_ADVISE_SET_READ_MOSTLY, false, "CU_MEM_ADVISE_SET_READ_MOSTLY"},
    {CU_MEM_ADVISE_UNSET_READ_MOSTLY, false, "CU_MEM_ADVISE_UNSET_READ_MOSTLY"},
    {CU_MEM_ADVISE_SET_PREFERRED_LOCATION, false,
     "CU_MEM_ADVISE_SET_PREFERRED_LOCATION, the device"},
    {CU_MEM_ADVISE_SET_PREFERRED_LOCATION, true,
     "CU_MEM_ADVISE_SET_PREFERRED_LOCATION, the host"},
    {CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, false,
     "CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION"},
    {CU_MEM_ADVISE_SET_ACCESSED_BY, false,
     "CU_MEM_ADVISE_SET_ACCESSED_BY, the device"},
    {CU_MEM_ADVISE_UNSET_ACCESSED_BY, false,
     "CU_MEM_ADVISE_UNSET_ACCESSED_BY, the device"},
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
  const Device &device = enterContext();
  if (!takesMemoryHints(device))
    return;
  const Driver &api = driver();
  bool toHost = destination == GPUMEM_PREFETCH_TO_HOST;
  auto cuStream = static_cast<CUstream>(stream);
  CUresult result =
      api.cuMemPrefetchAsync
          ? api.cuMemPrefetchAsync(
                devicePointer(ptr), sizeBytes,
                toHost ? hostLocation : deviceLocation(device), 0, cuStream)
          : api.cuMemPrefetchAsyncToDevice(
                devicePointer(ptr), sizeBytes,
                toHost ? CU_DEVICE_CPU : device.device, cuStream);
  if (result != CUDA_SUCCESS) {
    std::string where = toHost ? std::string("the host")
                               : "device " + std::to_string(device.ordinal);
    fatal("cuMemPrefetchAsync failed for %llu bytes at %p to %s: %s%s",
          (unsigned long long)sizeBytes, ptr, where.c_str(),
          describe(result).c_str(), managedMemoryHint(result));
  }
  if (!stream)
    check(api.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
}

extern "C" void gpumemMemAdvise(void *ptr, uint64_t sizeBytes, int32_t advice) {
  gpumem::runtime::checkMemoryAdvice(advice);
  if (sizeBytes == 0)
    return;
  const Device &device = enterContext();
  if (!takesMemoryHints(device))
    return;
  const Driver &api = driver();
  const Advice &what = advices[advice];
  CUresult result =
      api.cuMemAdvise
          ? api.cuMemAdvise(devicePointer(ptr), sizeBytes, what.advice,
                            what.onHost ? hostLocation : deviceLocation(device))
          : api.cuMemAdviseForDevice(devicePointer(ptr), sizeBytes, what.advice,
                                     what.onHost ? CU_DEVICE_CPU
                                                 : device.device);
  if (result != CUDA_SUCCESS)
    fatal("cuMemAdvise(%s) failed for %llu bytes at %p: %s%s", what.name,
          (unsigned long long)sizeBytes, ptr, describe(result).c_str(),
          managedMemoryHint(result));
}
