//===----------------------------------------------------------------------===//
// Helpers the GPU-to-CPU conversion passes share: the type converter for
// device code that runs on the host, string constants, source locations.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_CONVERSION_GPUTOCPU_HOSTCODE_H
#define GPUMEM_LIB_CONVERSION_GPUTOCPU_HOSTCODE_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <memory>
#include <string>

namespace gpumem::cpu {

/// The attribute on a CPU gpu.module listing its kernels for the module
/// descriptor: an array of dictionaries {name, run_thread, run_block,
/// shared_bytes, needs_fibers, num_params} and, on the cuda-emu target,
/// {chip, max_shared_bytes, start_coroutine, resume_coroutine,
/// barriers_only}.
constexpr llvm::StringLiteral kKernelTableAttr = "gpumem.cpu_kernels";

/// An LLVM type converter for code that runs on host cores: every memory
/// space (workgroup, private, global, 3, 5, ...) is address space 0.
std::unique_ptr<mlir::LLVMTypeConverter>
createHostTypeConverter(mlir::MLIRContext *context);

/// "file:line:col" of `loc`, or "unknown location".
std::string formatLocation(mlir::Location loc);

/// A pointer to a private null-terminated global holding `text` in
/// `symbolTableOp`; one global per distinct text.
mlir::Value getStringPointer(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Operation *symbolTableOp,
                             llvm::StringRef text);

/// Turns the kernel table on `module` (kKernelTableAttr) into the exported
/// GPUMEM_CPU_MODULE_SYMBOL descriptor (CPUKernelABI.h) and drops the
/// attribute.
mlir::LogicalResult emitCPUModuleDescriptor(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::cpu

#endif // GPUMEM_LIB_CONVERSION_GPUTOCPU_HOSTCODE_H
