//===----------------------------------------------------------------------===//
// What the lowerings of GPU device code (LLVM dialect with a GPU dialect's
// ops: NVVM for cuda-emu) to host code share: the shared memory layout
// their op patterns read, how a function's barriers and warp operations
// wait, and the coroutine form of kernels that synchronize (Coroutines.cpp).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEFUNCTIONS_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEFUNCTIONS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace gpumem::hostkernel {

/// What the op lowerings need to know of the module and its chip.
struct SharedLayout {
  /// Static shared bytes, rounded so that the extern array that follows
  /// them is aligned.
  int64_t staticBytes = 0;
  uint64_t maxSharedBytesPerBlock = 0;
  /// Warps (wavefronts) a multiprocessor (compute unit) of the chip holds.
  int64_t maxWarpsPerSM = 64;
  /// Lanes of a warp (wavefront) of the chip: 32, or 64 on AMD's wave64.
  int64_t warpSize = 32;
};

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
  /// --sanitize's checks (GPUMemSanitizerCheck flags), 0 without.
  int32_t sanitizerChecks = 0;
  /// Set by a pattern that reported, at its op, why the op has no lowering.
  bool failed = false;
};

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

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEFUNCTIONS_H
