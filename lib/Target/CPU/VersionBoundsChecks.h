//===----------------------------------------------------------------------===//
// memcheck's cost on the cpu target: a block whose accesses are all inside
// their memrefs runs a copy of its code without the bounds checks
// (VersionBoundsChecks.cpp has the algorithm).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CPU_VERSIONBOUNDSCHECKS_H
#define GPUMEM_LIB_TARGET_CPU_VERSIONBOUNDSCHECKS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem::cpu {

/// In each run_blocks launch wrapper of `module` (functions that take the
/// thread context, before the sanitizer's instrumentation): the code of
/// each block runs a copy of the kernel whose provably in-bounds accesses
/// carry hostkernel::kInBoundsMark when a condition computed once per block
/// holds, and the kernel itself otherwise. Returns the number of wrappers
/// versioned.
int versionBoundsChecks(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_VERSIONBOUNDSCHECKS_H
