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
};

/// A module: the handle mgpuModuleLoad returns.
struct Module {
  CUmodule module;
  std::mutex mutex; ///< guards kernels
  /// Keys view the kernels' own names.
  std::unordered_map<std::string_view, std::unique_ptr<Kernel>> kernels;
};

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_MODULE_H
