//===----------------------------------------------------------------------===//
// --sanitize=memcheck on the GPU: the log instrumented device code writes
// (include/gpumem/Runtime/DeviceSanitizerLog.h), read after each launch.
//
// A module is asked for its log (cuModuleGetGlobal) only when its image
// holds the log's name, which a cubin's symbol table and PTX text do, or
// is a fatbin with a compressed entry, which hides it: an uninstrumented
// module otherwise costs no driver call. After a launch of a kernel of
// an instrumented module the runtime waits for the launch's stream (as
// compute-sanitizer serializes launches), copies the log's count, and only
// when the kernel erred the whole log; runtime/common/SanitizerReports.cpp
// reports it in the words of the CPU-executed targets, and the log is
// zeroed for the next launch. A base in shared memory is named by its
// offset; one in global memory by the allocation that holds it, when the
// host code named the line that made it (Allocations.h).
//===----------------------------------------------------------------------===//

#include "Allocations.h"
#include "Driver.h"
#include "Fatbin.h"
#include "Module.h"
#include "SanitizerReports.h"
#include "Support.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace gpumem::cuda;

namespace {
bool anyCompressed(const std::vector<FatbinEntry> &entries) {
  for (const FatbinEntry &entry : entries)
    if (entry.compressed)
      return true;
  return false;
}
} // namespace

CUdeviceptr gpumem::cuda::findSanitizerLog(CUmodule module, const void *image,
                                           size_t size) {
  static constexpr char name[] = GPUMEM_DEVICE_SANITIZER_LOG;
  if (!image)
    return 0;
  // A compressed fatbin entry hides the name: the driver is asked then.
  std::vector<FatbinEntry> entries;
  bool compressed =
      readFatbin(static_cast<const unsigned char *>(image), size, entries) &&
      anyCompressed(entries);
  if (!compressed && !memmem(image, size, name, sizeof(name) - 1))
    return 0;
  CUdeviceptr log = 0;
  size_t bytes = 0;
  CUresult result = driver().cuModuleGetGlobal(&log, &bytes, module, name);
  if (result == CUDA_ERROR_NOT_FOUND)
    return 0;
  if (result != CUDA_SUCCESS)
    fatal("cuModuleGetGlobal(%s) failed: %s", name, describe(result).c_str());
  if (bytes != sizeof(GPUMemDeviceSanitizerLog))
    fatal("the module's %s has %zu bytes, not the %zu of this runtime's "
          "sanitizer log: it was compiled by another version of gpumem",
          name, bytes, sizeof(GPUMemDeviceSanitizerLog));
  return log;
}

void gpumem::cuda::reportSanitizerLog(const Kernel &kernel, CUstream stream,
                                      const int64_t grid[3],
                                      const int64_t block[3]) {
  const char *name = kernel.name.c_str();
  CUresult result = driver().cuStreamSynchronize(stream);
  if (result != CUDA_SUCCESS)
    fatal("cuStreamSynchronize failed after kernel '%s': %s", name,
          describe(result).c_str());
  uint32_t header[2] = {0, 0};
  auto copy = [&](void *to, size_t bytes) {
    CUresult copied = driver().cuMemcpy(CUdeviceptr(uintptr_t(to)),
                                        kernel.sanitizerLog, bytes);
    if (copied != CUDA_SUCCESS)
      fatal("cuMemcpy of the sanitizer's log of kernel '%s' failed: %s", name,
            describe(copied).c_str());
  };
  copy(header, sizeof(header));
  if (header[0] == 0 && header[1] == 0)
    return;
  auto log = std::make_unique<GPUMemDeviceSanitizerLog>();
  copy(log.get(), sizeof(*log));
  gpumem::runtime::reportDeviceSanitizerLog(
      *log, name, grid, block,
      [](uint64_t address) { return describeAllocation(uintptr_t(address)); });
  result = driver().cuMemsetD32(kernel.sanitizerLog, 0,
                                sizeof(GPUMemDeviceSanitizerLog) / 4);
  if (result != CUDA_SUCCESS)
    fatal("cuMemsetD32 of the sanitizer's log of kernel '%s' failed: %s", name,
          describe(result).c_str());
}
