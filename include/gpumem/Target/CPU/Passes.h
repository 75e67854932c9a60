//===----------------------------------------------------------------------===//
// Declarations and registration of the cpu target's passes (see Passes.td).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TARGET_CPU_PASSES_H
#define GPUMEM_TARGET_CPU_PASSES_H

#include "gpumem/Transforms/OptionTypes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "mlir/Pass/Pass.h"

namespace gpumem {

#define GEN_PASS_DECL
#include "gpumem/Target/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gpumem/Target/CPU/Passes.h.inc"

/// nvgpu.ldmatrix and nvgpu.mma.sync as per-lane loads and arithmetic with
/// gpu.shuffle idx (lib/Target/CPU/LowerWarpMatrixOpsToShuffles.cpp,
/// decision 148): a C++ pass, registered by registerAllGPUMemPasses.
std::unique_ptr<mlir::Pass> createGPUMemLowerWarpMatrixOpsToShufflesPass();
void registerGPUMemLowerWarpMatrixOpsToShufflesPass();

} // namespace gpumem

#endif // GPUMEM_TARGET_CPU_PASSES_H
