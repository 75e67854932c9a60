//===----------------------------------------------------------------------===//
// The entry points the cpu runtime calls for a kernel
// (include/gpumem/Runtime/CPUKernelABI.h): `__gpumem_run_thread_K(params,
// ctx)` runs one thread, and, for a kernel that needs neither fibers nor
// asserts, `__gpumem_run_blocks_K(params, ctx, first, last)` runs whole
// blocks in a loop. Both unpack mgpuLaunchKernel's params (memrefs as their
// descriptors' fields) into the kernel's arguments.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CPU_LAUNCHWRAPPERS_H
#define GPUMEM_LIB_TARGET_CPU_LAUNCHWRAPPERS_H

#include "../HostKernel/HostCode.h"
#include "../HostKernel/KernelTable.h"
#include "GPUToCPUServices.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/DenseSet.h"

namespace gpumem::cpu {

/// Builds the wrappers of kernel `stub` (whose body moved to `impl`;
/// `blockImpl` is its barrier-free block-wide copy, or null) next to it,
/// adds them to `wrappers`, and returns the kernel's table entry.
/// `sharedBytes` is the block's static arena; `fibers` and `asserts` say
/// whether a thread may wait for another or stop alone (then there is no
/// run_blocks unless a block-wide copy exists).
hostkernel::KernelTableEntry
createLaunchWrappers(mlir::gpu::GPUFuncOp stub, mlir::func::FuncOp impl,
                     mlir::func::FuncOp blockImpl, int64_t sharedBytes,
                     bool fibers, bool asserts,
                     const mlir::LLVMTypeConverter &converter,
                     llvm::DenseSet<mlir::Operation *> &wrappers);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_LAUNCHWRAPPERS_H
