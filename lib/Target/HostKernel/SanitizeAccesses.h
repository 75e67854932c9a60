//===----------------------------------------------------------------------===//
// --sanitize on a device module lowered to host code by address (the
// algorithm is in SanitizeAccesses.cpp): what cuda-emu and rocm-emu share.
// Each target's pass (gpumem-sanitize-nvvm-accesses,
// gpumem-sanitize-rocdl-accesses) runs it after its device lowering.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_SANITIZEACCESSES_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_SANITIZEACCESSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <cstdint>

namespace gpumem::hostkernel {

/// Calls the runtime's addressAccess service before every load, store and
/// atomic of the kernel code of `module` (lowerDeviceModuleToHost's
/// output) for the GPUMemCheck flags `checks`; nothing when `checks` has
/// none of memcheck, racecheck and initcheck.
void instrumentAccessesByAddress(mlir::gpu::GPUModuleOp module, int32_t checks);

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_SANITIZEACCESSES_H
