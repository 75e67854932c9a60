//===----------------------------------------------------------------------===//
// The cpu target's lowering of single GPU ops inside a kernel that already
// takes its GPUMemThreadContext (gpumem-lower-gpu-to-cpu-abi did that), as
// one rewrite pattern per op: ids and dims become context loads, barrier,
// shuffle and cf.assert calls of the runtime's services, gpu.printf libc's
// printf, dynamic shared memory and workgroup globals views of the block's
// arena. Module-level work (the arena layout, the wrappers, the kernel
// table) stays in the pass.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CPU_GPUTOCPUSERVICES_H
#define GPUMEM_LIB_TARGET_CPU_GPUTOCPUSERVICES_H

#include "../HostKernel/HostCode.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/DenseMap.h"

namespace gpumem::cpu {

/// Accesses to a thread context, with the ids and sizes as indices.
class ContextAccess : public hostkernel::ContextAccess {
public:
  using hostkernel::ContextAccess::ContextAccess;

  /// An i64 field of the context as an index.
  mlir::Value loadIndex(int64_t offset);
  /// Dimension `dim` of the 3-vector field at `fieldOffset`, as an index.
  mlir::Value dimension(int64_t fieldOffset, mlir::gpu::Dimension dim);
  /// x + y * dimX + z * dimX * dimY of the thread within its block.
  mlir::Value linearThreadId();
  mlir::Value threadsPerBlock();
};

/// A memref of static `type` viewing the block's arena at `offset`.
mlir::Value arenaView(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value context, mlir::MemRefType type,
                      int64_t offset, const mlir::LLVMTypeConverter &converter);

/// What the patterns need from the module-level rewrite.
struct ServicesLoweringState {
  mlir::gpu::GPUModuleOp module;
  const mlir::LLVMTypeConverter &converter;
  /// A function's known block size (gpu.block_dim becomes a constant).
  const llvm::DenseMap<mlir::Operation *, llvm::SmallVector<int64_t, 3>>
      &knownBlockSizes;
  /// Workgroup memref.globals and their offsets in the arena.
  const llvm::DenseMap<mlir::StringAttr, int64_t> &globalOffsets;
  /// Set when a pattern reported an op it cannot lower.
  bool &reportedError;
};

/// The patterns above. Each finds the context as the last argument of its
/// function. A gpu.shuffle wider than 64 bits is a located error: the
/// pattern reports it and sets `reportedError`.
void populateGPUToCPUServicesPatterns(mlir::RewritePatternSet &patterns,
                                      const ServicesLoweringState &state);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_TARGET_CPU_GPUTOCPUSERVICES_H
