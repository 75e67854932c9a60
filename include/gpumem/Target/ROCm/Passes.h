//===----------------------------------------------------------------------===//
// Declarations and registration of the rocm target's passes (see
// Passes.td).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_ROCM_PASSES_H
#define GPUMEM_TARGET_ROCM_PASSES_H

#include "gpumem/Transforms/OptionTypes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "mlir/Pass/Pass.h"

namespace gpumem {

#define GEN_PASS_DECL
#include "gpumem/Target/ROCm/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpumem/Target/ROCm/Passes.h.inc"

} // namespace gpumem

#endif // GPUMEM_TARGET_ROCM_PASSES_H
