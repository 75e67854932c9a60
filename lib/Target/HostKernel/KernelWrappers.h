//===----------------------------------------------------------------------===//
// The launch wrappers of a kernel that runs on host cores (the algorithm is
// in KernelWrappers.cpp): the entry points the kernel table names, which
// take mgpuLaunchKernel's params and the thread context
// (include/gpumem/Runtime/CPUKernelABI.h). The cpu target builds them as
// func.func before its LLVM conversion, cuda-emu as llvm.func after NVVM's;
// a target says how it rebuilds one kernel argument from its params.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_KERNELWRAPPERS_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_KERNELWRAPPERS_H

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace gpumem::hostkernel {

/// A target's rule for one kernel argument of type `argumentType`: the
/// value that stands for it, built from the params it takes, in order,
/// through `nextParam(type the param points to)`.
using ArgumentUnpacker = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &builder, mlir::Location loc, mlir::Type argumentType,
    llvm::function_ref<mlir::Value(mlir::Type)> nextParam)>;

/// A wrapper `name(params, ctx, extra...)` with its entry block begun.
template <typename FuncOpT> struct KernelWrapper {
  FuncOpT function;
  /// At the end of the entry block.
  mlir::OpBuilder body;
  /// The kernel's arguments unpacked from the params, then the context.
  llvm::SmallVector<mlir::Value> arguments;
  /// The bytes each param points to: the kernel table's param_bytes.
  llvm::SmallVector<int32_t> paramBytes;
};

/// Creates an internal `FuncOpT` (func::FuncOp or LLVM::LLVMFuncOp) at
/// `builder`'s insertion point, named `name`, taking (params, ctx, extra...)
/// and returning `result` (none when null), whose entry block unpacks one
/// argument of each of `argumentTypes` with `unpack`.
template <typename FuncOpT>
KernelWrapper<FuncOpT>
createKernelWrapper(mlir::OpBuilder &builder, mlir::Location loc,
                    llvm::StringRef name, mlir::TypeRange argumentTypes,
                    const mlir::DataLayout &layout, ArgumentUnpacker unpack,
                    mlir::Type result = {}, mlir::TypeRange extra = {});

/// run_thread(params, ctx): calls `kernel` (a FuncOpT taking the kernel's
/// arguments and then the context) with the unpacked arguments and returns
/// what it returns (the coroutine handle of a start_coroutine).
template <typename FuncOpT>
KernelWrapper<FuncOpT>
createRunThread(mlir::OpBuilder &builder, mlir::Location loc,
                llvm::StringRef name, FuncOpT kernel,
                mlir::TypeRange argumentTypes, const mlir::DataLayout &layout,
                ArgumentUnpacker unpack);

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_KERNELWRAPPERS_H
