//===----------------------------------------------------------------------===//
// CUDA's device-side printf (cuda-emu) and assert messages (cpu, cuda-emu).
//
// vprintf(format, buffer): the NVVM lowering of gpu.printf packs the
// arguments into a buffer, each at its natural alignment, floats widened to
// double, which DevicePrintf.h reads as CUDA's host side does. The
// formatted text is written to stdout with one call, so lines of different
// threads never interleave.
//
// __assertfail: CUDA prints "file:line: function: block: [x,y,z], thread:
// [x,y,z] Assertion `message` failed." and the kernel traps; the host sees
// CUDA_ERROR_ASSERT at its next synchronizing call, which the cuda runtime
// reports and exits on. Both messages are reproduced here (CUDA's line by
// runtime/common/DeviceAssert.h, which the vulkan runtime uses too); the
// cpu target's cf.assert prints the same line, then the runtimes' common
// error. Stopping the failing thread is the BlockRunner's.
//===----------------------------------------------------------------------===//

#include "CUDAEmulation.h"
#include "DeviceAssert.h"
#include "DevicePrintf.h"
#include "Support.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace gpumem::cpu;

int32_t gpumem::cpu::cudaVprintf(GPUMemThreadContext *ctx, const char *format,
                                 const void *arguments) {
  if (!format)
    return -1;
  std::string out;
  int32_t count =
      gpumem::runtime::formatDevicePrintf(format, arguments, SIZE_MAX,
                                          /*hostStrings=*/true, out);
  if (count < 0)
    fatal("kernel '%s': printf format \"%s\" needs arguments the kernel "
          "did not pass",
          ctx->kernelName, format);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return count;
}

void gpumem::cpu::printAssertFailure(const GPUMemThreadContext *ctx,
                                     const char *message, const char *file,
                                     uint32_t line, const char *function) {
  std::string where = std::string(file ? file : "") + ":" +
                      std::to_string(line) + ": " + (function ? function : "");
  gpumem::runtime::printAssertFailure(where.c_str(), ctx->blockId,
                                      ctx->threadId, message);
}

void gpumem::cpu::reportFailedAssertions(const GPUMemCPUKernel *kernel) {
  if (kernel->emulatedChip)
    fatal("cuStreamSynchronize failed: CUDA_ERROR_ASSERT: device-side assert "
          "triggered");
  gpumem::runtime::failAfterAssertions(nameOf(kernel));
}
