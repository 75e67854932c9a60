//===----------------------------------------------------------------------===//
// What mgpuModuleLoad and mgpuModuleGetFunction return. Compiled host code
// looks a kernel up before every launch, so a module keeps its kernels in a
// map from name to Kernel: the driver is asked once per name, and the
// launch finds the kernel's name (for messages) and shared memory sizes
// there.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_MODULE_H
#define GPUMEM_RUNTIME_CUDA_MODULE_H

#include "DriverTypes.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gpumem::cuda {

/// A kernel: the handle mgpuModuleGetFunction returns.
struct Kernel {
  CUfunction function;
  std::string name;
  /// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES.
  int staticSharedBytes;
  /// The kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as last
  /// read or set; only grows.
  std::atomic<int> dynamicSharedLimit;
  /// Its module's log of --sanitize=memcheck (DeviceSanitizerLog.h); 0
  /// when the module has none.
  CUdeviceptr sanitizerLog = 0;
};

/// A module: the handle mgpuModuleLoad returns.
struct Module {
  CUmodule module;
  /// The module's GPUMEM_DEVICE_SANITIZER_LOG, or 0.
  CUdeviceptr sanitizerLog = 0;
  std::mutex mutex; ///< guards kernels
  /// Keys view the kernels' own names.
  std::unordered_map<std::string_view, std::unique_ptr<Kernel>> kernels;
};

/// The log of --sanitize=memcheck in `module` (just loaded from `size`
/// bytes at `image`), or 0 when its code is not instrumented: only an image
/// that names the log is asked for it (SanitizerLog.cpp).
CUdeviceptr findSanitizerLog(CUmodule module, const void *image, size_t size);

/// After a launch of `kernel` on `stream` with `grid` and `block`: when its
/// module has a log, waits for the stream, reports what the log holds with
/// the words of the other targets, and clears it.
void reportSanitizerLog(const Kernel &kernel, CUstream stream,
                        const int64_t grid[3], const int64_t block[3]);

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_MODULE_H
