//===----------------------------------------------------------------------===//
// Declarations and registration of gpumem's conversion passes.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_CONVERSION_PASSES_H
#define GPUMEM_CONVERSION_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

namespace gpumem {

#define GEN_PASS_DECL
#include "gpumem/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpumem/Conversion/Passes.h.inc"

} // namespace gpumem

#endif // GPUMEM_CONVERSION_PASSES_H
