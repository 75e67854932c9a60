//===----------------------------------------------------------------------===//
// The last check before a SPIR-V module is embedded: SPIRV-Tools' validator
// (the library spirv-val is built on), run in process for the Vulkan
// environment that matches the module's SPIR-V version. A module the
// validator rejects is gpumem's bug, never the user's; reporting it at
// compile time is what keeps it from reaching a driver, where an invalid
// module is undefined behaviour (lavapipe runs it with wrong results).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_VALIDATESPIRV_H
#define GPUMEM_LIB_TARGET_VULKAN_VALIDATESPIRV_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace gpumem::vulkan {

/// Validates the SPIR-V module `words` for the Vulkan version that
/// introduced its SPIR-V version (1.0-1.3: Vulkan 1.1, 1.4: Vulkan 1.1 with
/// SPIR-V 1.4, 1.5: Vulkan 1.2, 1.6: Vulkan 1.3). Returns an empty string
/// when it is valid, else the validator's messages.
std::string validateForVulkan(llvm::ArrayRef<uint32_t> words);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_VALIDATESPIRV_H
