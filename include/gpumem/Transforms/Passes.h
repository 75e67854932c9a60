//===----------------------------------------------------------------------===//
// Declarations and registration of gpumem's passes (see Passes.td).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_PASSES_H
#define GPUMEM_TRANSFORMS_PASSES_H

#include "gpumem/Transforms/OptionTypes.h"
#include "mlir/IR/BuiltinOps.h"

#include "mlir/Pass/Pass.h"

namespace gpumem {

#define GEN_PASS_DECL
#include "gpumem/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpumem/Transforms/Passes.h.inc"

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_PASSES_H
