//===----------------------------------------------------------------------===//
// The launch wrappers of a kernel that runs on host cores (KernelWrappers.h).
// A wrapper's entry block walks the kernel's argument types; the target's
// unpacker turns each into a value, loading params[0], params[1], ... in
// turn (each param points to the value mgpuLaunchKernel was given), and the
// size of each loaded type under the module's data layout is the kernel
// table's param_bytes. run_thread then calls the kernel with those values
// and the context. The same code builds func.func wrappers (cpu, before its
// LLVM conversion) and llvm.func ones (cuda-emu); only the ops that make a
// function, a call and a return differ.
//===----------------------------------------------------------------------===//

#include "KernelWrappers.h"

#include "HostCode.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <type_traits>

using namespace mlir;

namespace {

/// The function op of the wrapper, by dialect.
template <typename FuncOpT>
FuncOpT createFunction(OpBuilder &builder, Location loc, StringRef name,
                       TypeRange inputs, Type result) {
  if constexpr (std::is_same_v<FuncOpT, func::FuncOp>) {
    SmallVector<Type> results;
    if (result)
      results.push_back(result);
    return func::FuncOp::create(
        builder, loc, name,
        FunctionType::get(builder.getContext(), inputs, results));
  } else {
    static_assert(std::is_same_v<FuncOpT, LLVM::LLVMFuncOp>,
                  "wrappers are func.func or llvm.func");
    Type returned =
        result ? result : LLVM::LLVMVoidType::get(builder.getContext());
    return LLVM::LLVMFuncOp::create(
        builder, loc, name,
        LLVM::LLVMFunctionType::get(returned, SmallVector<Type>(inputs)),
        LLVM::Linkage::Internal);
  }
}

} // namespace

template <typename FuncOpT>
gpumem::hostkernel::KernelWrapper<FuncOpT>
gpumem::hostkernel::createKernelWrapper(OpBuilder &builder, Location loc,
                                        StringRef name, TypeRange argumentTypes,
                                        const DataLayout &layout,
                                        ArgumentUnpacker unpack, Type result,
                                        TypeRange extra) {
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  SmallVector<Type> inputs{ptr, ptr};
  llvm::append_range(inputs, extra);
  KernelWrapper<FuncOpT> wrapper{
      createFunction<FuncOpT>(builder, loc, name, inputs, result),
      OpBuilder(builder.getContext()),
      {},
      {}};
  Block *entry;
  if constexpr (std::is_same_v<FuncOpT, func::FuncOp>) {
    makeInternal(wrapper.function);
    entry = wrapper.function.addEntryBlock();
  } else {
    entry = wrapper.function.addEntryBlock(builder);
  }
  wrapper.body.setInsertionPointToStart(entry);
  Value params = entry->getArgument(0);
  auto nextParam = [&](Type type) -> Value {
    int32_t index = int32_t(wrapper.paramBytes.size());
    wrapper.paramBytes.push_back(
        int32_t(layout.getTypeSize(type).getFixedValue()));
    return loadKernelParam(wrapper.body, loc, params, index, type);
  };
  for (Type type : argumentTypes)
    wrapper.arguments.push_back(unpack(wrapper.body, loc, type, nextParam));
  wrapper.arguments.push_back(entry->getArgument(1));
  return wrapper;
}

template <typename FuncOpT>
gpumem::hostkernel::KernelWrapper<FuncOpT> gpumem::hostkernel::createRunThread(
    OpBuilder &builder, Location loc, StringRef name, FuncOpT kernel,
    TypeRange argumentTypes, const DataLayout &layout,
    ArgumentUnpacker unpack) {
  Type result;
  if constexpr (std::is_same_v<FuncOpT, func::FuncOp>) {
    if (kernel.getNumResults() == 1)
      result = kernel.getResultTypes().front();
  } else {
    Type returned = kernel.getFunctionType().getReturnType();
    if (!isa<LLVM::LLVMVoidType>(returned))
      result = returned;
  }
  KernelWrapper<FuncOpT> wrapper = createKernelWrapper<FuncOpT>(
      builder, loc, name, argumentTypes, layout, unpack, result);
  if constexpr (std::is_same_v<FuncOpT, func::FuncOp>) {
    auto call =
        func::CallOp::create(wrapper.body, loc, kernel, wrapper.arguments);
    func::ReturnOp::create(wrapper.body, loc, call.getResults());
  } else {
    auto call =
        LLVM::CallOp::create(wrapper.body, loc, kernel, wrapper.arguments);
    LLVM::ReturnOp::create(wrapper.body, loc, call.getResults());
  }
  return wrapper;
}

namespace gpumem::hostkernel {
template KernelWrapper<func::FuncOp>
createKernelWrapper(OpBuilder &, Location, StringRef, TypeRange,
                    const DataLayout &, ArgumentUnpacker, Type, TypeRange);
template KernelWrapper<LLVM::LLVMFuncOp>
createKernelWrapper(OpBuilder &, Location, StringRef, TypeRange,
                    const DataLayout &, ArgumentUnpacker, Type, TypeRange);
template KernelWrapper<func::FuncOp>
createRunThread(OpBuilder &, Location, StringRef, func::FuncOp, TypeRange,
                const DataLayout &, ArgumentUnpacker);
template KernelWrapper<LLVM::LLVMFuncOp>
createRunThread(OpBuilder &, Location, StringRef, LLVM::LLVMFuncOp, TypeRange,
                const DataLayout &, ArgumentUnpacker);
} // namespace gpumem::hostkernel
