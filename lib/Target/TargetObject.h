//===----------------------------------------------------------------------===//
// The #gpu.object gpumem's own targets (cpu, vulkan) make of their
// serialized bytes.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_TARGETOBJECT_H
#define GPUMEM_LIB_TARGET_TARGETOBJECT_H

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem {

/// `object` as a #gpu.object of `target`. These targets have no fat binary:
/// `format=fatbin` gives the binary itself.
inline mlir::Attribute
makeTargetObject(mlir::Attribute target, llvm::ArrayRef<char> object,
                 const mlir::gpu::TargetOptions &options) {
  mlir::gpu::CompilationTarget format = options.getCompilationTarget();
  if (format == mlir::gpu::CompilationTarget::Fatbin)
    format = mlir::gpu::CompilationTarget::Binary;
  mlir::MLIRContext *context = target.getContext();
  return mlir::gpu::ObjectAttr::get(
      context, target, format,
      mlir::StringAttr::get(context,
                            llvm::StringRef(object.data(), object.size())),
      nullptr, nullptr);
}

} // namespace gpumem

#endif // GPUMEM_LIB_TARGET_TARGETOBJECT_H
