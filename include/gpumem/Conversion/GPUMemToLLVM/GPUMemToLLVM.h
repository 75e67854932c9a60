//===----------------------------------------------------------------------===//
// Lowering of the gpumem dialect's managed memory ops to LLVM: calls of the
// runtime ABI every gpumem runtime exports (mgpuMemAlloc, gpumemMemPrefetch,
// gpumemMemAdvise, and mgpuStream*/mgpuEvent* for ordering). A registry
// extension attaches these patterns as the dialect's
// ConvertToLLVMPatternInterface, so
// upstream's gpu-to-llvm (which both gpumem pipelines run on host code) and
// convert-to-llvm lower the ops without a pass of their own.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_CONVERSION_GPUMEMTOLLVM_GPUMEMTOLLVM_H
#define GPUMEM_CONVERSION_GPUMEMTOLLVM_GPUMEMTOLLVM_H

namespace mlir {
class ConversionTarget;
class DialectRegistry;
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace gpumem {

/// Patterns lowering gpumem.alloc_managed, gpumem.prefetch and
/// gpumem.advise to runtime calls. They expect gpu.async.token values to be
/// converted to streams (or events), as gpu-to-llvm does.
void populateGPUMemToLLVMConversionPatterns(
    const mlir::LLVMTypeConverter &converter,
    mlir::RewritePatternSet &patterns);

/// Marks the gpumem ops illegal and adds the patterns above.
void populateGPUMemToLLVMConversionTarget(mlir::ConversionTarget &target,
                                          mlir::LLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);

/// Attaches the ConvertToLLVMPatternInterface to the gpumem dialect in every
/// context `registry` is appended to (the dialect promises it).
void registerConvertGPUMemToLLVMInterface(mlir::DialectRegistry &registry);

} // namespace gpumem

#endif // GPUMEM_CONVERSION_GPUMEMTOLLVM_GPUMEMTOLLVM_H
