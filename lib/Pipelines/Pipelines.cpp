//===----------------------------------------------------------------------===//
// gpumem's pipelines. Both share the front (workgroup hoisting before and
// after outlining) and the host side (structural lowering, gpu-to-llvm,
// gpu-module-to-binary); they differ in the target attached and in how
// gpu.module is lowered:
//   cuda: checked NVVM target, then upstream's NVVM device lowering;
//   cpu:  #gpumem.cpu, then gpumem's CPU kernel ABI lowering.
// Device and host are lowered by separate pass managers so that host passes
// never see device types.
//===----------------------------------------------------------------------===//

#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Conversion/Passes.h"
#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Synchronous memory ops given streams, launch sizes checked, then workgroup
/// allocations hoisted before and after kernel outlining, collectives
/// rewritten into shuffles, and dynamic-size workgroup allocations packed
/// into dynamic shared memory (after the checks of the user's views, at
/// compile time and, opted in, at run time). Math ops
/// without an LLVM lowering (math.ipowi) become calls to generated functions
/// first, so that outlining clones those into the gpu.module with the kernel.
static void addOutliningWithHoisting(OpPassManager &pm,
                                     bool dynamicSharedBoundsChecks) {
  pm.addPass(gpumem::createGPUMemLowerSyncMemoryOpsPass());
  pm.addPass(gpumem::createGPUMemCheckMemcpySizesPass());
  pm.addPass(gpumem::createGPUMemCheckLaunchBoundsPass());
  pm.addPass(gpumem::createGPUMemCheckDynamicSharedBoundsPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(gpumem::createGPUMemHoistWorkgroupAllocsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(gpumem::createGPUMemHoistWorkgroupAllocsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(
      gpumem::createGPUMemLowerGPUCollectivesPass());
  pm.addPass(gpumem::createGPUMemCheckDynamicSharedBoundsPass());
  if (dynamicSharedBoundsChecks)
    pm.addNestedPass<gpu::GPUModuleOp>(
        gpumem::createGPUMemInsertDynamicSharedBoundsChecksPass());
  pm.addPass(gpumem::createGPUMemPackDynamicWorkgroupAllocsPass());
}

/// Host buffers used by kernels made device-visible in `mode` (copy, managed,
/// register), first of all; nothing for "none".
static void addHostBuffersToDevice(OpPassManager &pm, StringRef mode) {
  if (mode == "none")
    return;
  gpumem::GPUMemHostBuffersToDevicePassOptions options;
  options.mode = mode.str();
  pm.addPass(gpumem::createGPUMemHostBuffersToDevicePass(options));
}

/// The lowering steps both sides share before their conversion to LLVM.
static void addStructuredLowering(OpPassManager &pm) {
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(arith::createArithExpandOpsPass());
}

/// Host lowering and serialization of the gpu.modules to `format`.
static void addHostLowering(OpPassManager &pm, StringRef format,
                            StringRef toolkit) {
  addStructuredLowering(pm);
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = format.str();
  binary.toolkitPath = toolkit.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void gpumem::buildCudaPipeline(OpPassManager &pm,
                               const CudaPipelineOptions &options) {
  std::optional<CudaToolkit> toolkit = findCudaToolkit(options.toolkit);
  std::string format = options.format;
  if (format.empty())
    format = toolkit ? "bin" : "isa";

  addHostBuffersToDevice(pm, options.hostBuffers);
  addOutliningWithHoisting(pm, options.dynamicSharedBoundsChecks);
  GPUMemMoveLargeSharedToDynamicPassOptions large;
  large.chip = options.chip;
  pm.addPass(createGPUMemMoveLargeSharedToDynamicPass(large));
  GPUMemAttachNVVMTargetPassOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.format = format;
  target.toolkit = options.toolkit;
  target.optLevel = options.optLevel;
  pm.addPass(createGPUMemAttachNVVMTargetPass(target));

  pm.addPass(createConvertNVGPUToNVVMPass());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createGPUMemReadDynamicSharedSizeNVVMPass());
  device.addPass(createGPUMemRewriteShuffleUpForNVVMPass());
  addStructuredLowering(device);
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createGPUMemFinalizeNVVMSharedMemoryPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  addHostLowering(pm, format, toolkit ? StringRef(toolkit->root) : "");
}

void gpumem::buildCpuPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options) {
  addHostBuffersToDevice(pm, options.hostBuffers);
  addOutliningWithHoisting(pm, options.dynamicSharedBoundsChecks);
  GPUMemAttachCPUTargetPassOptions target;
  target.optLevel = options.optLevel;
  target.cpu = options.cpu;
  pm.addPass(createGPUMemAttachCPUTargetPass(target));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createGPUMemLowerGPUToCPUABIPass());
  addStructuredLowering(device);
  device.addPass(createGPUMemFinalizeCPUModulePass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  addHostLowering(pm, "bin", "");
}

void gpumem::registerGPUMemPipelines() {
  PassPipelineRegistration<CudaPipelineOptions>(
      "gpumem-cuda-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "NVIDIA binary, with real shared memory for workgroup allocations",
      buildCudaPipeline);
  PassPipelineRegistration<CpuPipelineOptions>(
      "gpumem-cpu-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "host shared object that libgpumem_cpu_runtime.so runs on CPU cores",
      buildCpuPipeline);
}
