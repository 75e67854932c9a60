//===----------------------------------------------------------------------===//
// How the vulkan target's passes hand each kernel's launch ABI to its
// serializer: gpumem-prepare-vulkan-kernels decides, for every parameter of
// the launch, what the kernel wants of it (GPUMemVulkanParam of
// include/gpumem/Runtime/VulkanKernelABI.h), and stores the records on the
// gpu.module as `gpumem.vulkan_kernels`, a dictionary from kernel name to an
// i32 array: bindingCount, pushConstantBytes, flags, staticSharedBytes, then
// six values per parameter (kind, binding, elementBytes, pushOffset,
// hostBytes, pushBytes). The serializer writes them after the SPIR-V, and
// the diagnostics site table (`gpumem.vulkan_sites`) after them.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_VULKANKERNELRECORDS_H
#define GPUMEM_LIB_TARGET_VULKAN_VULKANKERNELRECORDS_H

#include "gpumem/Runtime/VulkanKernelABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace gpumem::vulkan {

/// The gpu.module attribute holding the records.
constexpr llvm::StringLiteral kKernelRecordsAttrName = "gpumem.vulkan_kernels";
/// Arguments of a prepared kernel: the push-constant offset of a scalar,
/// the binding of a buffer.
constexpr llvm::StringLiteral kPushOffsetAttrName = "gpumem.push_offset";
constexpr llvm::StringLiteral kBindingAttrName = "gpumem.binding";

/// One kernel's records.
struct KernelRecord {
  GPUMemVulkanKernel header = {};
  llvm::SmallVector<GPUMemVulkanParam> params;

  mlir::DenseI32ArrayAttr toAttr(mlir::MLIRContext *context) const;
  /// Fails on a malformed array.
  static mlir::FailureOr<KernelRecord> fromAttr(mlir::DenseI32ArrayAttr attr);
};

/// The gpu.module attribute holding the diagnostics site table
/// (VulkanDiagnostics.h): an array of [kind, text, location, argument
/// kinds] arrays, in site order.
constexpr llvm::StringLiteral kSitesAttrName = "gpumem.vulkan_sites";

/// One gpu.printf or cf.assert.
struct DiagnosticSite {
  uint32_t kind; ///< GPUMemVulkanSiteKind
  std::string text;
  std::string location;
  llvm::SmallVector<int32_t> argKinds; ///< GPUMemVulkanArgKind
};

/// The site table as kSitesAttrName's value, and back (fails on a
/// malformed attribute).
mlir::ArrayAttr sitesToAttr(mlir::MLIRContext *context,
                            llvm::ArrayRef<DiagnosticSite> sites);
mlir::FailureOr<llvm::SmallVector<DiagnosticSite>>
sitesFromAttr(mlir::ArrayAttr attr);

/// Prepares every kernel of `module` for the vulkan target (the algorithm
/// of PrepareVulkanKernels.cpp) and returns the records, a dictionary from
/// kernel name to KernelRecord::toAttr; fails after a located diagnostic.
/// Kernel signatures change: gpumem-convert-gpu-to-vulkan-spirv runs this on
/// its copy of the module, which launches do not reference. With
/// `checkLoopCompletion`, every loop is followed by a check that it ran to
/// its end (LoopCompletionChecks.h).
mlir::FailureOr<mlir::DictionaryAttr>
prepareVulkanKernels(mlir::gpu::GPUModuleOp module, bool checkLoopCompletion);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_VULKANKERNELRECORDS_H
