//===----------------------------------------------------------------------===//
// Declarations and registration of the rocm-emu target's passes (see
// Passes.td).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_ROCMEMU_PASSES_H
#define GPUMEM_TARGET_ROCMEMU_PASSES_H

#include "gpumem/Transforms/OptionTypes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "mlir/Pass/Pass.h"

namespace gpumem {

#define GEN_PASS_DECL
#include "gpumem/Target/ROCmEmu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpumem/Target/ROCmEmu/Passes.h.inc"

} // namespace gpumem

#endif // GPUMEM_TARGET_ROCMEMU_PASSES_H
