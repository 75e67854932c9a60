//===----------------------------------------------------------------------===//
// Copies and fills of the mgpu* ABI on HIP: stream-ordered (hipMemcpyAsync,
// hipMemsetD32Async, ...) on a stream, the synchronous calls on the null
// stream. Copies let HIP find the direction from the pointers
// (hipMemcpyDefault), as unified addressing allows.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Driver.h"
#include "ROCmRuntime.h"
#include "Support.h"

using namespace gpumem::rocm;

extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void *stream) {
  if (sizeBytes == 0)
    return;
  enterDevice();
  hipError_t result =
      stream ? hip().hipMemcpyAsync(dst, src, sizeBytes, hipMemcpyDefault,
                                    static_cast<hipStream_t>(stream))
             : hip().hipMemcpy(dst, src, sizeBytes, hipMemcpyDefault);
  if (result != hipSuccess)
    fatal("%s failed copying %zu bytes from %p to %p: %s",
          stream ? "hipMemcpyAsync" : "hipMemcpy", sizeBytes, src, dst,
          describe(result).c_str());
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *stream) {
  if (count == 0)
    return;
  enterDevice();
  // hipMemsetD32 takes the pattern as an int: the same 32 bits.
  if (stream)
    check(hip().hipMemsetD32Async(dst, int(value), count,
                                  static_cast<hipStream_t>(stream)),
          "hipMemsetD32Async");
  else
    check(hip().hipMemsetD32(dst, int(value), count), "hipMemsetD32");
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *stream) {
  if (count == 0)
    return;
  enterDevice();
  if (stream)
    check(hip().hipMemsetD16Async(dst, value, count,
                                  static_cast<hipStream_t>(stream)),
          "hipMemsetD16Async");
  else
    check(hip().hipMemsetD16(dst, value, count), "hipMemsetD16");
}
