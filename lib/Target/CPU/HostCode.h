//===----------------------------------------------------------------------===//
// Helpers the GPU-to-CPU conversion passes share: the type converter for
// device code that runs on the host, string constants, source locations.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_CONVERSION_GPUTOCPU_HOSTCODE_H
#define GPUMEM_LIB_CONVERSION_GPUTOCPU_HOSTCODE_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <string>

namespace gpumem::cpu {

/// The attribute on a CPU gpu.module listing its kernels for the module
/// descriptor: an array of dictionaries {name, run_thread, run_blocks,
/// shared_bytes, needs_fibers, num_params, param_bytes, known_block_size}
/// and, on the cuda-emu target, {chip, max_shared_bytes, start_coroutine,
/// resume_coroutine, barriers_only, max_threads}; `checks` (GPUMemCheck
/// flags) with --sanitize. Absent entries are null or 0.
constexpr llvm::StringLiteral kKernelTableAttr = "gpumem.cpu_kernels";

/// An LLVM type converter for code that runs on host cores: every memory
/// space (workgroup, private, global, 3, 5, ...) is address space 0.
std::unique_ptr<mlir::LLVMTypeConverter>
createHostTypeConverter(mlir::MLIRContext *context);

/// "file:line:col" of `loc`, or "unknown location".
std::string formatLocation(mlir::Location loc);

/// Makes a function the lowering generated private to the object: LLVM may
/// inline it into its callers without a PLT call and drop it after.
void makeInternal(mlir::Operation *func);

/// A pointer to a private null-terminated global holding `text` in
/// `symbolTableOp`; one global per distinct text.
mlir::Value getStringPointer(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Operation *symbolTableOp,
                             llvm::StringRef text);

/// The functions of `module` that contain an op for which `synchronizes`
/// holds, or call (directly or not) one that does: those whose threads
/// must be able to wait for each other.
llvm::DenseSet<mlir::Operation *>
findSynchronizingFunctions(mlir::gpu::GPUModuleOp module,
                           llvm::function_ref<bool(mlir::Operation *)>
                               synchronizes);

/// LLVM dialect accesses to a GPUMemThreadContext (CPUKernelABI.h) and calls
/// of its runtime services, built at a builder's insertion point.
class ContextAccess {
public:
  ContextAccess(mlir::OpBuilder &builder, mlir::Location loc,
                mlir::Value context)
      : builder(builder), loc(loc), context(context) {}

  /// `base` + `offset` bytes.
  mlir::Value address(mlir::Value base, int64_t offset);
  mlir::Value load(mlir::Value base, int64_t offset, mlir::Type type);
  /// The context's pointer field at `offset`.
  mlir::Value loadPointer(int64_t offset);
  /// Calls the service at `offset` in GPUMemRuntimeServices; returns its
  /// result, or null for a void service.
  mlir::Value callService(int64_t offset, mlir::LLVM::LLVMFunctionType type,
                          mlir::ValueRange args);
  /// The same, with the service's type made from `result` and `args`.
  mlir::Value callService(int64_t offset, mlir::Type result,
                          mlir::ValueRange args);

protected:
  mlir::OpBuilder &builder;
  mlir::Location loc;
  mlir::Value context;
};

/// Turns the kernel table on `module` (kKernelTableAttr) into the exported
/// GPUMEM_CPU_MODULE_SYMBOL descriptor (CPUKernelABI.h) and drops the
/// attribute.
mlir::LogicalResult emitCPUModuleDescriptor(mlir::gpu::GPUModuleOp module);

/// --sanitize's comma-separated `checks` (memcheck, racecheck, initcheck,
/// synccheck) as GPUMemCheck flags; an error on `module` for another name.
mlir::FailureOr<int32_t> parseSanitizerChecks(mlir::gpu::GPUModuleOp module,
                                              llvm::StringRef checks);

/// Notes `checks` (GPUMemCheck flags) in each entry of the module's kernel
/// table, for the runtime (GPUMemCPUKernel::checks).
void recordSanitizerChecks(mlir::gpu::GPUModuleOp module, int32_t checks);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_CONVERSION_GPUTOCPU_HOSTCODE_H
