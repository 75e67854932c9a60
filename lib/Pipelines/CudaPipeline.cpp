//===----------------------------------------------------------------------===//
// gpumem-cuda-pipeline: workgroup hoisting before and after outlining, a
// checked NVVM target, then upstream's NVVM device lowering, host lowering
// and serialization (the same stages as upstream gpu-lower-to-nvvm-pipeline,
// with device and host lowered separately so host passes never see device
// types).
//===----------------------------------------------------------------------===//

#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// The lowering steps both sides share before their conversion to LLVM.
static void addStructuredLowering(OpPassManager &pm) {
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
}

void gpumem::buildCudaPipeline(OpPassManager &pm,
                               const CudaPipelineOptions &options) {
  std::string format = options.format;
  if (format.empty())
    format = findCudaToolkit(options.toolkit) ? "bin" : "isa";

  pm.addPass(createGPUMemHoistWorkgroupAllocsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGPUMemHoistWorkgroupAllocsPass());

  GPUMemAttachNVVMTargetPassOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.format = format;
  target.toolkit = options.toolkit;
  target.optLevel = options.optLevel;
  pm.addPass(createGPUMemAttachNVVMTargetPass(target));

  // Device side.
  pm.addPass(createConvertNVGPUToNVVMPass());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  addStructuredLowering(device);
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  // Host side.
  addStructuredLowering(pm);
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format;
  if (std::optional<CudaToolkit> found = findCudaToolkit(options.toolkit))
    binary.toolkitPath = found->root;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void gpumem::registerGPUMemPipelines() {
  PassPipelineRegistration<CudaPipelineOptions>(
      "gpumem-cuda-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "NVIDIA binary, with real shared memory for workgroup allocations",
      buildCudaPipeline);
}
