//===----------------------------------------------------------------------===//
// The steps gpumem's pipelines share (PipelineSteps.h): the front every
// target runs before and after outlining, and the host side every target
// runs after its device lowering.
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"

#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace gpumem::pipelines {

void addOutliningWithHoisting(
    OpPassManager &pm, bool dynamicSharedBoundsChecks,
    const gpumem::GPUMemPlanWorkgroupMemoryPassOptions &plan,
    bool lowerAllReduce, bool sinkConstants, bool recordMemoryCalls,
    unsigned subgroupSize) {
  pm.addPass(gpumem::createGPUMemLowerSyncMemoryOpsPass());
  pm.addPass(gpumem::createGPUMemJoinAsyncDependenciesPass());
  pm.addPass(gpumem::createGPUMemCheckMemcpySizesPass());
  pm.addPass(gpumem::createGPUMemCheckLaunchBoundsPass());
  pm.addPass(gpumem::createGPUMemCheckDynamicSharedBoundsPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(gpumem::createGPUMemHoistWorkgroupAllocsPass());
  if (sinkConstants)
    pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(gpumem::createGPUMemHoistWorkgroupAllocsPass());
  gpumem::GPUMemLowerGPUCollectivesPassOptions collectives;
  collectives.allReduce = lowerAllReduce;
  collectives.subgroupSize = subgroupSize;
  pm.addNestedPass<gpu::GPUModuleOp>(
      gpumem::createGPUMemLowerGPUCollectivesPass(collectives));
  pm.addPass(gpumem::createGPUMemCheckDynamicSharedBoundsPass());
  if (dynamicSharedBoundsChecks)
    pm.addNestedPass<gpu::GPUModuleOp>(
        gpumem::createGPUMemInsertDynamicSharedBoundsChecksPass());
  gpumem::GPUMemPackDynamicWorkgroupAllocsPassOptions pack;
  pack.reuse = plan.reuse;
  pm.addPass(gpumem::createGPUMemPackDynamicWorkgroupAllocsPass(pack));
  pm.addPass(gpumem::createGPUMemPlanWorkgroupMemoryPass(plan));
  gpumem::GPUMemRecordLaunchLocationsPassOptions locations;
  locations.memoryCalls = recordMemoryCalls;
  pm.addPass(gpumem::createGPUMemRecordLaunchLocationsPass(locations));
}

void addHostBuffersToDevice(OpPassManager &pm, gpumem::HostBufferMode mode) {
  pm.addPass(gpumem::createGPUMemCheckDeviceCodePass());
  if (mode == gpumem::HostBufferMode::None)
    return;
  gpumem::GPUMemHostBuffersToDevicePassOptions options;
  options.mode = mode;
  pm.addPass(gpumem::createGPUMemHostBuffersToDevicePass(options));
}

void addStructuredLowering(OpPassManager &pm) {
  pm.addPass(gpumem::createGPUMemIntegerFloatAtomicsPass());
  pm.addPass(createConvertVectorToSCFPass());
  // affine.for becomes scf.for, which the next pass lowers; the second
  // lower-affine takes the affine.apply that expand-strided-metadata makes.
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(arith::createArithExpandOpsPass());
}

void addHostLowering(OpPassManager &pm, gpumem::BinaryFormat format,
                     StringRef toolkit, bool fatbinOfChips) {
  addStructuredLowering(pm);
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (fatbinOfChips) {
    gpumem::GPUMemPackNVIDIAFatbinPassOptions fatbin;
    fatbin.toolkit = toolkit.str();
    pm.addPass(gpumem::createGPUMemPackNVIDIAFatbinPass(fatbin));
  }
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = gpumem::stringifyBinaryFormat(format).str();
  binary.toolkitPath = toolkit.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void addHostSanitizer(OpPassManager &pm, gpumem::SanitizerChecks checks) {
  if (checks.has(GPUMEM_CHECK_MEMCHECK))
    pm.addPass(gpumem::createGPUMemCheckHostMemRefAccessesPass());
  if (checks.has(GPUMEM_CHECK_INITCHECK))
    pm.addPass(gpumem::createGPUMemTrackHostWritesPass());
}

void addMemRefSanitizer(OpPassManager &device, gpumem::SanitizerChecks checks) {
  if (checks.empty())
    return;
  device.addPass(gpumem::createGPUMemLowerVectorTransfersPass());
  gpumem::GPUMemSanitizeMemoryAccessesPassOptions sanitize;
  sanitize.checks = checks;
  sanitize.beforeDeviceLowering = true;
  device.addPass(gpumem::createGPUMemSanitizeMemoryAccessesPass(sanitize));
}

void addDeviceCleanup(OpPassManager &device) {
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

} // namespace gpumem::pipelines
