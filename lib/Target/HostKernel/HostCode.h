//===----------------------------------------------------------------------===//
// What the two targets whose kernels run on host cores (cpu and cuda-emu)
// share on the compiler side, in the spirit of upstream's GPUCommon: the
// type converter for device code on the host, string constants, source
// locations, and the thread context of include/gpumem/Runtime/CPUKernelABI.h
// with one typed call per runtime service. The kernel table both fill is
// KernelTable.h.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_HOSTCODE_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_HOSTCODE_H

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

#include "llvm/ADT/DenseSet.h"

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

namespace gpumem::hostkernel {

/// An LLVM type converter for code that runs on host cores: every memory
/// space (workgroup, private, global, 3, 5, ...) is address space 0.
std::unique_ptr<mlir::LLVMTypeConverter>
createHostTypeConverter(mlir::MLIRContext *context);

/// "file:line:col" of `loc`, or "unknown location".
std::string formatLocation(mlir::Location loc);

/// Makes a function the lowering generated private to the object: LLVM may
/// inline it into its callers without a PLT call and drop it after.
void makeInternal(mlir::Operation *func);

/// Applies the first matching pattern of `patterns` to each op nested in
/// `root`, once, in the order of a post-order walk made before any rewrite:
/// neither folding nor dead-code removal, and unreachable blocks too (unlike
/// upstream's walkAndApplyPatterns). The patterns may replace or erase the
/// op they match, not other ops.
void applyPatternsToEachOp(mlir::Operation *root,
                           const mlir::FrozenRewritePatternSet &patterns);

/// Loads kernel parameter `index` of type `type` from mgpuLaunchKernel's
/// `params` (an array of pointers, one per parameter).
mlir::Value loadKernelParam(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Value params, int32_t index, mlir::Type type);

/// A pointer to a private null-terminated global holding `text` in
/// `symbolTableOp`; one global per distinct text.
mlir::Value getStringPointer(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Operation *symbolTableOp,
                             llvm::StringRef text);

/// getStringPointer of `loc` as "file:line:col" (formatLocation): the place
/// a runtime service names in its reports.
mlir::Value getLocationString(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::Operation *symbolTableOp);

/// The functions of `module` that contain an op for which `synchronizes`
/// holds, or call (directly or not) one that does: those whose threads
/// must be able to wait for each other.
llvm::DenseSet<mlir::Operation *> findSynchronizingFunctions(
    mlir::gpu::GPUModuleOp module,
    llvm::function_ref<bool(mlir::Operation *)> synchronizes);

/// The LLVM dialect type of the C type `T` of the kernel ABI
/// (CPUKernelABI.h): void, pointers, integers and floats.
template <typename T> mlir::Type abiType(mlir::MLIRContext *context) {
  if constexpr (std::is_void_v<T>)
    return mlir::LLVM::LLVMVoidType::get(context);
  else if constexpr (std::is_pointer_v<T>)
    return mlir::LLVM::LLVMPointerType::get(context);
  else if constexpr (std::is_integral_v<T>)
    return mlir::IntegerType::get(context, 8 * sizeof(T));
  else if constexpr (std::is_same_v<T, float>)
    return mlir::Float32Type::get(context);
  else {
    static_assert(std::is_same_v<T, double>, "not a type of the kernel ABI");
    return mlir::Float64Type::get(context);
  }
}

/// The LLVM function type of the C function pointer type `F`.
template <typename F> struct ABIFunctionType;
template <typename R, typename... Args> struct ABIFunctionType<R (*)(Args...)> {
  static mlir::LLVM::LLVMFunctionType get(mlir::MLIRContext *context) {
    return mlir::LLVM::LLVMFunctionType::get(abiType<R>(context),
                                             {abiType<Args>(context)...});
  }
};

/// One field of GPUMemRuntimeServices: where the runtime keeps it and its
/// LLVM type, both read from the C declaration (GPUMEM_RUNTIME_SERVICE).
struct RuntimeService {
  int64_t offset;
  mlir::LLVM::LLVMFunctionType (*type)(mlir::MLIRContext *);
};

/// The service `field` of GPUMemRuntimeServices, e.g.
/// `access.call(GPUMEM_RUNTIME_SERVICE(barrier), {context, where})`: a call
/// whose operands do not match the C declaration fails to verify.
#define GPUMEM_RUNTIME_SERVICE(field)                                          \
  ::gpumem::hostkernel::RuntimeService {                                       \
    offsetof(GPUMemRuntimeServices, field),                                    \
        &::gpumem::hostkernel::ABIFunctionType<                                \
            decltype(GPUMemRuntimeServices::field)>::get                       \
  }

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
  /// Calls `service` (GPUMEM_RUNTIME_SERVICE) with `args`; returns its
  /// result, or null for a void service.
  mlir::Value call(RuntimeService service, mlir::ValueRange args);

protected:
  mlir::OpBuilder &builder;
  mlir::Location loc;
  mlir::Value context;
};

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_HOSTCODE_H
