//===----------------------------------------------------------------------===//
// What the parts of the cuda-emu device lowering (gpumem-lower-nvvm-to-cpu)
// share: the module's shared memory layout, LLVM-level access to the thread
// context, and the per-op and libdevice lowerings.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_CUDAEMU_NVVMTOCPU_H
#define GPUMEM_LIB_TARGET_CUDAEMU_NVVMTOCPU_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include "../HostKernel/HostCode.h"

#include <cstdint>

namespace gpumem::cudaemu {

/// NVPTX's address spaces.
constexpr unsigned kSharedAddressSpace = 3;
constexpr unsigned kLocalAddressSpace = 5;

/// What the op lowerings need to know of the module and its chip.
struct SharedLayout {
  /// Static shared bytes, rounded so that the extern array that follows
  /// them is aligned.
  int64_t staticBytes = 0;
  uint64_t maxSharedBytesPerBlock = 0;
  /// %nwarpid: warps an SM of the chip holds.
  int64_t maxWarpsPerSM = 64;
};

/// %nwarpid of `chip` (sm_XY): its resident threads per SM / 32.
int64_t maxWarpsPerSM(llvm::StringRef chip);

/// Whether `name` is an NVVM special-register op this lowering reads
/// ("nvvm.read.ptx.sreg.tid.x", ...).
bool isSpecialRegister(llvm::StringRef opName);
/// Whether `name` is an llvm.nvvm intrinsic reading one of them.
bool isSpecialRegisterIntrinsic(llvm::StringRef intrinsic);

/// The thread context accesses the GPU-to-CPU lowering uses too.
using ContextAccess = gpumem::hostkernel::ContextAccess;

/// How a function's barriers and warp operations wait for other threads.
enum class Waiting {
  /// The runtime service switches fibers.
  Fibers,
  /// The function is a coroutine kernel: the service call is marked
  /// kSuspendAfterAttr, and a warp operation's result is read after it with
  /// warpSyncResult.
  Coroutine,
  /// A coroutine kernel with block-wide barriers only: a barrier stores its
  /// location in ctx->barrierAt (marked kSuspendAfterAttr), no service call.
  BarrierCoroutine,
};

/// What the op lowerings of one function need to know of it.
struct DeviceFunctionState {
  /// Its GPUMemThreadContext argument.
  mlir::Value context;
  SharedLayout layout;
  Waiting waiting = Waiting::Fibers;
  /// Set by a pattern that reported, at its op, why the op has no lowering.
  bool failed = false;
};

/// Patterns that lower, in the function `state` describes, NVVM ops,
/// special-register intrinsics, and calls to vprintf and __assertfail, one
/// pattern per op (NVVMOps.cpp). They build their lowering in front of the
/// op, replace or erase it, and touch no other op of the function; they
/// leave the ops they do not know alone. `state` must outlive them.
void populateNVVMToCPUPatterns(mlir::RewritePatternSet &patterns,
                               DeviceFunctionState &state);

/// Marks the runtime calls after which a coroutine kernel suspends.
constexpr llvm::StringLiteral kSuspendAfterAttr = "gpumem.suspend_after";

/// Prepares `kernel` to become a coroutine: inlines, transitively, every
/// call of a function for which `synchronizes` holds, so that all its
/// barriers and warp operations are in the kernel itself, and moves its
/// constant-size allocas to the entry block. Fails (leaving the kernel
/// correct for fibers) on recursion, dynamic allocas or stack save/restore.
mlir::LogicalResult inlineSynchronizingCalls(
    mlir::LLVM::LLVMFuncOp kernel,
    llvm::function_ref<bool(mlir::Operation *)> synchronizes);

/// Makes `kernel` (lowered, its last argument the context) an LLVM
/// switch-resumed coroutine: its frame comes from services->coroutineFrame,
/// it suspends after every call marked kSuspendAfterAttr, and instead of
/// returning it calls services->coroutineReturned and suspends for good.
/// It then returns its handle.
void makeCoroutine(mlir::LLVM::LLVMFuncOp kernel);

/// Renames libdevice's __nv_* declarations to the libm functions with the
/// same results, and checks that every other declared function is one the
/// host provides; errors name the calls.
mlir::LogicalResult mapLibdeviceCalls(mlir::gpu::GPUModuleOp module);
/// Gives bodies to the __nv_* functions libm has no counterpart of
/// (rsqrt, powi); called once the context arguments are in place.
mlir::LogicalResult defineLibdeviceHelpers(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::cudaemu

#endif // GPUMEM_LIB_TARGET_CUDAEMU_NVVMTOCPU_H
