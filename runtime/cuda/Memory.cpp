//===----------------------------------------------------------------------===//
// Memory, streams and events of the mgpu* ABI on the CUDA driver.
//
// Allocation: managed memory (cuMemAllocManaged, CU_MEM_ATTACH_GLOBAL) when
// the host shares it, else stream-ordered (cuMemAllocAsync) on a stream,
// else cuMemAlloc; running out of memory reports the bytes asked and what
// cuMemGetInfo says is free. Copy and fill are stream-ordered on a stream
// and use the synchronous driver calls on the null stream. Free is
// stream-ordered (cuMemFreeAsync) only for memory that cuMemAllocAsync
// returned, which the runtime remembers; other memory freed on a stream
// waits for the stream, then cuMemFree (decision: cuMemFreeAsync of managed
// memory is not something to rely on). Host
// registration of a memref covers every byte the descriptor can address:
// from the lowest to the highest element its sizes and strides reach,
// which for a dense layout is upstream's sizes[0] * strides[0] elements.
//===----------------------------------------------------------------------===//

#include "CUDARuntime.h"
#include "Device.h"
#include "Driver.h"
#include "Support.h"

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

/// The bytes a ranked memref descriptor addresses.
struct Region {
  char *start;
  uint64_t bytes; ///< 0 when the memref has no elements
};

/// `descriptor` is {T *allocated, T *aligned, int64_t offset,
/// int64_t sizes[rank], int64_t strides[rank]}.
Region memrefRegion(const char *call, int64_t rank, void *descriptor,
                    int64_t elementSizeBytes) {
  if (!descriptor)
    fatal("%s: null memref descriptor", call);
  if (rank < 0 || elementSizeBytes <= 0)
    fatal("%s: invalid memref (rank %lld, %lld-byte elements)", call,
          (long long)rank, (long long)elementSizeBytes);
  auto *pointers = static_cast<char **>(descriptor);
  char *aligned = pointers[1];
  auto *fields = reinterpret_cast<const int64_t *>(pointers + 2);
  int64_t offset = fields[0];
  const int64_t *sizes = fields + 1, *strides = fields + 1 + rank;
  // Lowest and highest element index reachable from the offset.
  int64_t low = 0, high = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] < 0)
      fatal("%s: negative size %lld in dimension %lld", call,
            (long long)sizes[i], (long long)i);
    if (sizes[i] == 0)
      return {aligned, 0};
    int64_t reach = 0;
    bool overflow = __builtin_mul_overflow(sizes[i] - 1, strides[i], &reach);
    int64_t &bound = reach < 0 ? low : high;
    if (overflow || __builtin_add_overflow(bound, reach, &bound))
      fatal("%s: the memref's extent overflows 64 bits", call);
  }
  int64_t first, elements, bytes, startByte;
  if (__builtin_add_overflow(offset, low, &first) ||
      __builtin_sub_overflow(high, low, &elements) ||
      __builtin_add_overflow(elements, 1, &elements) ||
      __builtin_mul_overflow(elements, elementSizeBytes, &bytes) ||
      __builtin_mul_overflow(first, elementSizeBytes, &startByte))
    fatal("%s: the memref's extent overflows 64 bits", call);
  return {aligned + startByte, uint64_t(bytes)};
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
  return reinterpret_cast<void *>(uintptr_t(ptr));
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr || !enterContextForRelease())
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

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream) {
  if (sizeBytes == 0)
    return;
  enterContext();
  CUresult result =
      stream ? driver().cuMemcpyAsync(devicePointer(dst), devicePointer(src),
                                      sizeBytes, static_cast<CUstream>(stream))
             : driver().cuMemcpy(devicePointer(dst), devicePointer(src),
                                 sizeBytes);
  if (result != CUDA_SUCCESS)
    fatal("%s failed copying %zu bytes from %p to %p: %s",
          stream ? "cuMemcpyAsync" : "cuMemcpy", sizeBytes, src, dst,
          describe(result).c_str());
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  if (count == 0)
    return;
  enterContext();
  if (stream)
    check(driver().cuMemsetD32Async(devicePointer(dst), value, count,
                                    static_cast<CUstream>(stream)),
          "cuMemsetD32Async");
  else
    check(driver().cuMemsetD32(devicePointer(dst), value, count),
          "cuMemsetD32");
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  if (count == 0)
    return;
  enterContext();
  if (stream)
    check(driver().cuMemsetD16Async(devicePointer(dst), value, count,
                                    static_cast<CUstream>(stream)),
          "cuMemsetD16Async");
  else
    check(driver().cuMemsetD16(devicePointer(dst), value, count),
          "cuMemsetD16");
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
  Region region = memrefRegion("mgpuMemHostRegisterMemRef", rank, descriptor,
                               elementSizeBytes);
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
  Region region = memrefRegion("mgpuMemHostUnregisterMemRef", rank, descriptor,
                               elementSizeBytes);
  if (region.bytes)
    mgpuMemHostUnregister(region.start);
}

extern "C" void *mgpuStreamCreate(void) {
  enterContext();
  CUstream stream = nullptr;
  check(driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
        "cuStreamCreate");
  return stream;
}

extern "C" void mgpuStreamDestroy(void *stream) {
  if (stream && enterContextForRelease())
    checkRelease(driver().cuStreamDestroy(static_cast<CUstream>(stream)),
                 "cuStreamDestroy");
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  enterContext();
  check(driver().cuStreamSynchronize(static_cast<CUstream>(stream)),
        "cuStreamSynchronize");
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  enterContext();
  check(driver().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                   static_cast<CUevent>(event), 0),
        "cuStreamWaitEvent");
}

extern "C" void *mgpuEventCreate(void) {
  enterContext();
  CUevent event = nullptr;
  check(driver().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
        "cuEventCreate");
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  if (event && enterContextForRelease())
    checkRelease(driver().cuEventDestroy(static_cast<CUevent>(event)),
                 "cuEventDestroy");
}

extern "C" void mgpuEventSynchronize(void *event) {
  enterContext();
  check(driver().cuEventSynchronize(static_cast<CUevent>(event)),
        "cuEventSynchronize");
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  enterContext();
  check(driver().cuEventRecord(static_cast<CUevent>(event),
                               static_cast<CUstream>(stream)),
        "cuEventRecord");
}
