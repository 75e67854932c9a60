//===----------------------------------------------------------------------===//
// The diagnostics buffer of a launch whose kernel prints or asserts
// (GPUMEM_VULKAN_DIAGNOSTICS in gpumem/Runtime/VulkanKernelABI.h): taken
// before the launch, read once it has finished.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_DIAGNOSTICS_H
#define GPUMEM_RUNTIME_VULKAN_DIAGNOSTICS_H

#include "Loader.h"

#include <memory>

namespace gpumem::vulkan {

struct Kernel;

/// One launch's buffer and what its report needs.
struct Diagnostics {
  uint32_t *words; ///< the mapped buffer
  VkDescriptorBufferInfo binding;
  const Kernel *kernel; ///< must outlive the launch
  const char *launch;   ///< the launch's source location, or null
};

/// A buffer for a launch of `kernel`, header zeroed and capacity set;
/// buffers are reused once reported.
std::unique_ptr<Diagnostics> takeDiagnostics(const Kernel &kernel,
                                             const char *launch);

/// After the launch finished: writes its printf records to stdout with
/// their sites' formats, warns on stderr about dropped ones, and on a
/// failed assert exits with gpumem's error naming the kernel, the assert's
/// location and message, the failing block and thread, and the launch.
/// The buffer goes back for reuse.
void reportDiagnostics(std::unique_ptr<Diagnostics> diagnostics);

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_DIAGNOSTICS_H
