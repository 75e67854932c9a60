//===----------------------------------------------------------------------===//
// What the parts of the cuda-emu device lowering (gpumem-lower-nvvm-to-cpu)
// share: NVPTX's address spaces, the per-op and libdevice lowerings; the
// state of a device function and the coroutine form of kernels are the
// host-kernel layer's (../HostKernel/DeviceFunctions.h).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CUDAEMU_NVVMTOCPU_H
#define GPUMEM_LIB_TARGET_CUDAEMU_NVVMTOCPU_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include "../HostKernel/DeviceFunctions.h"
#include "../HostKernel/HostCode.h"

#include <cstdint>

namespace gpumem::cudaemu {

/// NVPTX's address spaces.
constexpr unsigned kSharedAddressSpace = 3;
constexpr unsigned kLocalAddressSpace = 5;

using hostkernel::DeviceFunctionState;
using hostkernel::SharedLayout;
using hostkernel::Waiting;

/// %nwarpid of `chip` (sm_XY): its resident threads per SM / 32.
int64_t maxWarpsPerSM(llvm::StringRef chip);

/// Whether `name` is an NVVM special-register op this lowering reads
/// ("nvvm.read.ptx.sreg.tid.x", ...).
bool isSpecialRegister(llvm::StringRef opName);
/// Whether `name` is an llvm.nvvm intrinsic reading one of them.
bool isSpecialRegisterIntrinsic(llvm::StringRef intrinsic);

/// The thread context accesses the GPU-to-CPU lowering uses too.
using ContextAccess = gpumem::hostkernel::ContextAccess;

/// Patterns that lower, in the function `state` describes, NVVM ops,
/// special-register intrinsics, and calls to vprintf and __assertfail, one
/// pattern per op (NVVMOps.cpp). They build their lowering in front of the
/// op, replace or erase it, and touch no other op of the function; they
/// leave the ops they do not know alone. `state` must outlive them.
void populateNVVMToCPUPatterns(mlir::RewritePatternSet &patterns,
                               DeviceFunctionState &state);

/// Whether `op` is a warp-level matrix op (wmma, mma.sync, ldmatrix;
/// NVVMMatrixOps.cpp), and the located error for one whose shape or type
/// the runtime does not implement.
bool isMatrixOp(mlir::Operation *op);
mlir::LogicalResult checkMatrixOp(mlir::Operation *op);
/// Whether `op` is cp.async, its commit or its wait (NVVMAsyncCopyOps.cpp).
bool isAsyncCopyOp(mlir::Operation *op);

using hostkernel::inlineSynchronizingCalls;
using hostkernel::kSuspendAfterAttr;
using hostkernel::makeCoroutine;

/// Renames libdevice's __nv_* declarations to the libm functions with the
/// same results, and checks that every other declared function is one the
/// host provides; errors name the calls.
mlir::LogicalResult mapLibdeviceCalls(mlir::gpu::GPUModuleOp module);
/// Gives bodies to the __nv_* functions libm has no counterpart of
/// (rsqrt, powi); called once the context arguments are in place.
mlir::LogicalResult defineLibdeviceHelpers(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::cudaemu

#endif // GPUMEM_LIB_TARGET_CUDAEMU_NVVMTOCPU_H
