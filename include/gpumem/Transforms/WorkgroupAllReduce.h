//===----------------------------------------------------------------------===//
// gpu.all_reduce through workgroup memory, for targets whose subgroups are
// not 32 lanes wide (the algorithm is in
// lib/Transforms/WorkgroupAllReduce.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_WORKGROUPALLREDUCE_H
#define GPUMEM_TRANSFORMS_WORKGROUPALLREDUCE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem {

/// Rewrites every gpu.all_reduce of `kernel` as a tree reduction in a
/// workgroup attribution of its own, with barriers; independent of the
/// device's subgroup size. Fails after a located diagnostic.
mlir::LogicalResult
lowerAllReduceThroughWorkgroupMemory(mlir::gpu::GPUFuncOp kernel,
                                     int64_t maxBlockThreads);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_WORKGROUPALLREDUCE_H
