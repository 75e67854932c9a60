//===----------------------------------------------------------------------===//
// What mgpuModuleLoad and mgpuModuleGetFunction return. Compiled host code
// looks a kernel up before every launch, so a module keeps its kernels in a
// map from name to Kernel: HIP is asked once per name, and the launch finds
// the kernel's name (for messages) and static LDS size there.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_ROCM_MODULE_H
#define GPUMEM_RUNTIME_ROCM_MODULE_H

#include "HIPTypes.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gpumem::rocm {

/// A kernel: the handle mgpuModuleGetFunction returns.
struct Kernel {
  hipFunction_t function;
  std::string name;
  /// HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: the kernel's static LDS; -1 when
  /// HIP could not say.
  int staticSharedBytes;
};

/// A module: the handle mgpuModuleLoad returns.
struct Module {
  hipModule_t module;
  std::mutex mutex; ///< guards kernels
  /// Keys view the kernels' own names.
  std::unordered_map<std::string_view, std::unique_ptr<Kernel>> kernels;
};

} // namespace gpumem::rocm

#endif // GPUMEM_RUNTIME_ROCM_MODULE_H
