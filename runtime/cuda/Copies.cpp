//===----------------------------------------------------------------------===//
// Copies and fills of the mgpu* ABI on the CUDA driver: stream-ordered
// (cuMemcpyAsync, cuMemsetD32Async, ...) on a stream, the synchronous driver
// calls on the null stream.
//===----------------------------------------------------------------------===//

#include "CUDARuntime.h"
#include "Device.h"
#include "Driver.h"
#include "Support.h"

using namespace gpumem::cuda;

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
