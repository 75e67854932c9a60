//===----------------------------------------------------------------------===//
// The lowering of a gpu.module of GPU device code (LLVM dialect with a GPU
// dialect's ops, as a GPU backend gets it) to host code for the cpu runtime
// (the algorithm is in DeviceModuleToHost.cpp). A target that runs another
// GPU's device code on host cores (cuda-emu: NVVM) describes its dialect in
// a DeviceDialect: its ops' patterns, which ops wait for other threads, its
// refusals, its library calls and its kernels' launch limits.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEMODULETOHOST_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEMODULETOHOST_H

#include "DeviceFunctions.h"
#include "KernelTable.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>
#include <string>

namespace gpumem::hostkernel {

/// What a GPU dialect's device code tells lowerDeviceModuleToHost.
struct DeviceDialect {
  /// The target diagnostics name ("cuda-emu").
  std::string targetName;
  /// The dialect's kernel marker ("nvvm.kernel"); gpu.kernel marks kernels
  /// too. Function and argument attributes with `attributePrefix` ("nvvm.")
  /// or "gpu." go: the host has no use for them.
  std::string kernelAttrName, attributePrefix;
  /// Address space of shared memory (workgroup memory, LDS).
  unsigned sharedAddressSpace = 3;
  /// Whether an integer made of a shared pointer (llvm.ptrtoint) is its
  /// offset in the block's shared memory, and a shared pointer made of an
  /// integer (llvm.inttoptr) that offset's address, as on an AMD GPU, whose
  /// LDS addresses are offsets; otherwise they are host addresses.
  bool sharedPointersAreOffsets = false;
  /// Whether a warp operation runs over the lanes of the warp that reach it
  /// (AMD's EXEC mask) rather than over a member mask every lane of which
  /// must reach it (PTX): each kernel's entry gets exec_mask.
  bool warpOpsOverActiveLanes = false;
  /// The chip the code was compiled for, and what the patterns read of it.
  std::string chip;
  SharedLayout limits;
  /// Ops where a thread waits for other threads; of them, the block-wide
  /// barriers (a coroutine kernel that waits only at these suspends without
  /// a service call).
  std::function<bool(mlir::Operation *)> isSynchronizing, isBlockBarrier;
  /// The dialect's refusals, called on every op before the shared ones: an
  /// op with no lowering, inline assembly, intrinsics. Emits and fails.
  std::function<mlir::LogicalResult(mlir::Operation *)> checkOp;
  /// Maps calls of the GPU's device library to the host's before the
  /// lowering, and defines what the host lacks once functions take the
  /// context; each emits and fails on what it cannot provide.
  std::function<mlir::LogicalResult(mlir::gpu::GPUModuleOp)> mapLibraryCalls,
      defineLibraryHelpers;
  /// The patterns of one function's ops (DeviceFunctionState).
  std::function<void(mlir::RewritePatternSet &, DeviceFunctionState &)>
      populatePatterns;
  /// Reads the launch limits a kernel's attributes state into its entry
  /// (max_threads, known_block_size), before the attributes go.
  std::function<void(mlir::LLVM::LLVMFuncOp, KernelTableEntry &)>
      readLaunchLimits;
};

/// Lowers `module` to host code for the cpu runtime, its kernels in the
/// kernel table with `sanitizerChecks` recorded; kernels that synchronize
/// become coroutines when `coroutines` and their calls allow. Fails, with
/// diagnostics, on what cannot run.
mlir::LogicalResult lowerDeviceModuleToHost(mlir::gpu::GPUModuleOp module,
                                            const DeviceDialect &dialect,
                                            bool coroutines,
                                            int32_t sanitizerChecks);

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICEMODULETOHOST_H
