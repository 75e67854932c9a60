//===----------------------------------------------------------------------===//
// Specialization constants patched into serialized SPIR-V: MLIR's SPIR-V
// dialect cannot decorate a specialization-constant composite as the
// WorkgroupSize built-in, which is how a Vulkan shader takes its workgroup
// size at pipeline creation, nor size an array by a specialization
// constant, which is how it takes the size of dynamic workgroup memory.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_SPECIALIZATIONPATCHES_H
#define GPUMEM_LIB_TARGET_VULKAN_SPECIALIZATIONPATCHES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace gpumem::vulkan {

/// The name of each kernel's dynamic workgroup array variable, followed by
/// the kernel's name.
constexpr llvm::StringLiteral kDynamicSharedVariablePrefix =
    "__gpumem_dynamic_shared_";

/// Gives every variable named kDynamicSharedVariablePrefix... (a pointer to
/// a struct of one array, as MLIR serializes a workgroup memref) an array
/// whose length is an OpSpecConstant with SpecId
/// GPUMEM_VULKAN_SPEC_DYNAMIC_SHARED_WORDS (default 1). Run it before
/// specializeWorkgroupSize. Returns false when `words` is not a SPIR-V module
/// it can patch; true, unchanged, when it has no such variable.
bool specializeDynamicSharedArrays(llvm::SmallVectorImpl<uint32_t> &words);

/// Adds to the SPIR-V module `words` three OpSpecConstants of a 32-bit
/// unsigned integer (SpecIds GPUMEM_VULKAN_SPEC_BLOCK_X/Y/Z, default 1)
/// and an OpSpecConstantComposite of them decorated BuiltIn WorkgroupSize,
/// which takes precedence over every entry point's LocalSize. The integer
/// and vector types are reused or added. Returns false when `words` is not
/// a SPIR-V module it can patch.
bool specializeWorkgroupSize(llvm::SmallVectorImpl<uint32_t> &words);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_SPECIALIZATIONPATCHES_H
