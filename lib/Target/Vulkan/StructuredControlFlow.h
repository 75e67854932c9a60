//===----------------------------------------------------------------------===//
// Control flow shaped for upstream's SPIR-V conversion (the algorithm is in
// StructuredControlFlow.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_STRUCTUREDCONTROLFLOW_H
#define GPUMEM_LIB_TARGET_VULKAN_STRUCTUREDCONTROLFLOW_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace gpumem::vulkan {

/// Lifts the branches of every gpu.func of `module` (an early gpu.return) to
/// scf ops; fails after a located error where that is impossible.
mlir::LogicalResult liftGPUFuncControlFlow(mlir::gpu::GPUModuleOp module);

/// scf.index_switch as a chain of scf.if, and scf.if's canonicalizations
/// (yield-only regions become arith.select). Rewrite patterns.
void populateStructuredControlFlowPatterns(mlir::RewritePatternSet &patterns);

/// After every scf.for of `module` with results, selects its inits where
/// it runs no iteration: upstream's conversion keeps the results in
/// variables stored only by the body, so a loop that never ran gave
/// whatever the variable held.
void selectInitsOfZeroTripLoops(mlir::gpu::GPUModuleOp module);

/// Gives every branch edge of `module` its own predecessor block. Run it
/// after any greedy rewrite, which would merge the forwarding blocks back.
void splitRepeatedEdges(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_STRUCTUREDCONTROLFLOW_H
