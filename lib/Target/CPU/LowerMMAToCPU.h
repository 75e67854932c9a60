//===----------------------------------------------------------------------===//
// The cpu target's lowering of tensor-core fragments (gpu.subgroup_mma_*) and
// of nvgpu's asynchronous copies to vector, memref, arith and scf ops that
// every thread runs alone (LowerMMAToCPU.cpp says the fragment layout,
// LowerAsyncCopiesToCPU.cpp the copies).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CPU_LOWERMMATOCPU_H
#define GPUMEM_LIB_TARGET_CPU_LOWERMMATOCPU_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace gpumem::cpu {

/// Rewrites every gpu.subgroup_mma_* op, nvgpu.device_async_copy,
/// device_async_create_group and device_async_wait of `module`, and the
/// scf.for/if/while ops that carry their values. An op it cannot lower gets a
/// located error and the result is failure. With `wholeFragments` (for
/// --sanitize) every lane's A and B fragments are the whole matrices, so
/// that each lane's loads cover the warp's whole tile; else each lane holds
/// the row of A and the columns of B its share of C needs.
mlir::LogicalResult lowerFragmentsAndAsyncCopies(mlir::gpu::GPUModuleOp module,
                                                 bool wholeFragments = false);

/// Makes each lane meet its warp (a gpu.shuffle) right before and after a
/// gpu.subgroup_mma_store_matrix whose buffer the function also loads as a
/// fragment at other indices, so that lanes run alone keep the warp's
/// order of loads and stores (OrderWarpMatrixStores.cpp).
void orderWarpMatrixStores(mlir::gpu::GPUModuleOp module);

/// The patterns of nvgpu's device_async_copy, create_group and wait
/// (LowerAsyncCopiesToCPU.cpp), for a converter that makes tokens i32.
/// Marks the nvgpu.device_async_copy ops under `root` that can copy when
/// issued: a wait for every committed group follows in their block with
/// only copies, commits and ops without memory effects between
/// (LowerAsyncCopiesToCPU.cpp).
void markAsyncCopiesToPerformAtIssue(mlir::Operation *root);
void populateAsyncCopyToCPUPatterns(const mlir::TypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_LOWERMMATOCPU_H
