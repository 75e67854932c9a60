//===----------------------------------------------------------------------===//
// Everything gpumem adds to a tool, as mlir/InitAllPasses.h and
// mlir/InitAllExtensions.h do upstream: the shared front's and every
// target's passes, the pipelines, and the dialect with what registry
// extensions attach to it (its lowering to LLVM, the target attributes'
// serializers).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_INITALL_H
#define GPUMEM_INITALL_H

#include "gpumem/Conversion/GPUMemToLLVM/GPUMemToLLVM.h"
#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Target/CPU/Target.h"
#include "gpumem/Target/CUDA/Passes.h"
#include "gpumem/Target/CUDAEmu/Passes.h"
#include "gpumem/Target/ROCm/Passes.h"
#include "gpumem/Target/ROCmEmu/Passes.h"
#include "gpumem/Target/Vulkan/Passes.h"
#include "gpumem/Target/Vulkan/Target.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

namespace gpumem {

/// Registers gpumem's passes, the shared front's and each target's, with the
/// global pass registry (the pipelines: registerGPUMemPipelines).
inline void registerAllGPUMemPasses() {
  registerGPUMemPasses();
  registerGPUMemCPUPasses();
  registerGPUMemLowerWarpMatrixOpsToShufflesPass();
  registerGPUMemCUDAPasses();
  registerGPUMemCUDAEmuPasses();
  registerGPUMemROCmPasses();
  registerGPUMemROCmEmuPasses();
  registerGPUMemVulkanPasses();
}

/// Adds the gpumem dialect to `registry` with its lowering to LLVM and the
/// serializers of #gpumem.cpu and #gpumem.vulkan.
inline void registerAllGPUMemExtensions(mlir::DialectRegistry &registry) {
  registry.insert<GPUMemDialect>();
  registerConvertGPUMemToLLVMInterface(registry);
  registerCPUTargetInterfaceExternalModels(registry);
  registerVulkanTargetInterfaceExternalModels(registry);
}

} // namespace gpumem

#endif // GPUMEM_INITALL_H
