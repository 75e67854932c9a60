//===----------------------------------------------------------------------===//
// The kernel table of a gpu.module whose kernels run on host cores: one
// typed entry per kernel, which the cpu and cuda-emu lowerings fill, keep on
// the module as an attribute between passes (kKernelTableAttr, an array of
// dictionaries, so the IR shows it), and gpumem-finalize-cpu-module turns
// into the GPUMemCPUModule descriptor the runtime reads
// (include/gpumem/Runtime/CPUKernelABI.h). Reading an entry checks it.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_KERNELTABLE_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_KERNELTABLE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <array>
#include <optional>
#include <string>

namespace gpumem::hostkernel {

/// The attribute on a gpu.module that holds its kernel table.
constexpr llvm::StringLiteral kKernelTableAttr = "gpumem.cpu_kernels";

/// One kernel of the table: the compiler's side of GPUMemCPUKernel. Entry
/// points are symbols of the gpu.module; what a target does not use stays
/// empty and is left out of the attribute.
struct KernelTableEntry {
  std::string name;
  mlir::FlatSymbolRefAttr runThread;       // run_thread
  mlir::FlatSymbolRefAttr runBlocks;       // run_blocks
  mlir::FlatSymbolRefAttr startCoroutine;  // start_coroutine (cuda-emu)
  mlir::FlatSymbolRefAttr resumeCoroutine; // resume_coroutine (cuda-emu)
  int64_t sharedBytes = 0;                 // shared_bytes
  bool needsFibers = false;                // needs_fibers
  int32_t numParams = 0;                   // num_params
  llvm::SmallVector<int32_t> paramBytes;   // param_bytes
  std::optional<std::array<int32_t, 3>> knownBlockSize; // known_block_size
  std::string chip;                                     // chip (cuda-emu)
  std::optional<int64_t> maxSharedBytes; // max_shared_bytes (cuda-emu)
  bool barriersOnly = false;             // barriers_only (cuda-emu)
  int32_t maxThreads = 0;                // max_threads (cuda-emu)
  int32_t checks = 0;                    // checks: GPUMemCheck flags
  /// Lanes of the kernel's warps, 32 or 64; 0 is the default, 32.
  int32_t warpSize = 0; // warp_size
  /// Warp operations run over the lanes that reach them, AMD's EXEC mask
  /// (GPUMemCPUKernel::warpOpsOverArrivedLanes).
  bool execMask = false; // exec_mask

  mlir::DictionaryAttr toAttr(mlir::MLIRContext *context) const;
  /// The entry `attr` holds; an error on `module` when it is malformed.
  static mlir::FailureOr<KernelTableEntry> fromAttr(mlir::Attribute attr,
                                                    mlir::Operation *module);
};

/// The kernel table on `module`; an error when there is none or an entry is
/// malformed.
mlir::FailureOr<llvm::SmallVector<KernelTableEntry>>
getKernelTable(mlir::gpu::GPUModuleOp module);

/// Replaces the kernel table on `module` with `entries`.
void setKernelTable(mlir::gpu::GPUModuleOp module,
                    llvm::ArrayRef<KernelTableEntry> entries);

/// Turns the kernel table on `module` into the exported
/// GPUMEM_CPU_MODULE_SYMBOL descriptor (CPUKernelABI.h) and drops the
/// attribute.
mlir::LogicalResult emitCPUModuleDescriptor(mlir::gpu::GPUModuleOp module);

/// Notes `checks` (GPUMemCheck flags) in each entry of the module's kernel
/// table, for the runtime (GPUMemCPUKernel::checks).
void recordSanitizerChecks(mlir::gpu::GPUModuleOp module, int32_t checks);

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_KERNELTABLE_H
