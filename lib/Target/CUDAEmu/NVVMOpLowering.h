//===----------------------------------------------------------------------===//
// What the cuda-emu per-op lowerings share (populateNVVMToCPUPatterns): the
// builder each pattern uses in front of its op, with NVVM's special
// registers and `return ... and is valid` pairs added to the host-kernel
// layer's (../HostKernel/DeviceOpLowering.h, which also has the pattern
// base), and the populate function of each file. NVVMOps.cpp lowers special
// registers, barriers, fences, printf and assert and is the entry point;
// NVVMWarpOps.cpp lowers the warp-level ops.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CUDAEMU_NVVMOPLOWERING_H
#define GPUMEM_LIB_TARGET_CUDAEMU_NVVMOPLOWERING_H

#include "NVVMToCPU.h"

#include "../HostKernel/DeviceOpLowering.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace gpumem::cudaemu::nvvmops {

using hostkernel::BlockBarrierPattern;
using hostkernel::DevicePattern;

/// Builds the lowering of one NVVM op in front of it, in the function
/// `state` describes.
class Emitter : public hostkernel::DeviceOpEmitter {
public:
  using DeviceOpEmitter::DeviceOpEmitter;

  /// (NVVMOps.cpp) The register as an i64.
  mlir::Value specialRegister(llvm::StringRef name);
  /// The struct {value, predicate} of ops with a `return ... and is valid`
  /// form.
  mlir::Value pair(mlir::Type structType, mlir::Value value,
                   mlir::Value predicate) {
    mlir::Value result = mlir::LLVM::PoisonOp::create(builder, loc, structType);
    result = mlir::LLVM::InsertValueOp::create(builder, loc, result, value,
                                               llvm::ArrayRef<int64_t>{0});
    return mlir::LLVM::InsertValueOp::create(builder, loc, result, predicate,
                                             llvm::ArrayRef<int64_t>{1});
  }
};

/// The patterns of the warp-level ops (shfl, vote, redux, match and
/// bar.warp.sync), in NVVMWarpOps.cpp.
void populateWarpOpPatterns(mlir::RewritePatternSet &patterns,
                            DeviceFunctionState &state);

/// The patterns of the warp-level matrix ops (wmma, mma.sync, ldmatrix),
/// in NVVMMatrixOps.cpp.
void populateMatrixOpPatterns(mlir::RewritePatternSet &patterns,
                              DeviceFunctionState &state);

/// The patterns of cp.async, its commit and its wait, in
/// NVVMAsyncCopyOps.cpp.
void populateAsyncCopyPatterns(mlir::RewritePatternSet &patterns,
                               DeviceFunctionState &state);

} // namespace gpumem::cudaemu::nvvmops

#endif // GPUMEM_LIB_TARGET_CUDAEMU_NVVMOPLOWERING_H
