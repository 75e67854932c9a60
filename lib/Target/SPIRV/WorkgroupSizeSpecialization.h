//===----------------------------------------------------------------------===//
// The block size as specialization constants, patched into serialized
// SPIR-V: MLIR's SPIR-V dialect cannot decorate a specialization-constant
// composite as the WorkgroupSize built-in, which is how a Vulkan shader
// takes its workgroup size at pipeline creation.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_SPIRV_WORKGROUPSIZESPECIALIZATION_H
#define GPUMEM_LIB_TARGET_SPIRV_WORKGROUPSIZESPECIALIZATION_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace gpumem::vulkan {

/// Adds to the SPIR-V module `words` three OpSpecConstants of a 32-bit
/// unsigned integer (SpecIds GPUMEM_VULKAN_SPEC_BLOCK_X/Y/Z, default 1)
/// and an OpSpecConstantComposite of them decorated BuiltIn WorkgroupSize,
/// which takes precedence over every entry point's LocalSize. The integer
/// and vector types are reused or added. Returns false when `words` is not
/// a SPIR-V module it can patch.
bool specializeWorkgroupSize(llvm::SmallVectorImpl<uint32_t> &words);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_SPIRV_WORKGROUPSIZESPECIALIZATION_H
