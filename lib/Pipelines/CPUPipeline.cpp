//===----------------------------------------------------------------------===//
// gpumem-cpu-pipeline: #gpumem.cpu, then gpumem's CPU kernel ABI lowering
// of each gpu.module, run by the cpu runtime.
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"
#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Target/CPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace gpumem::pipelines;

void gpumem::buildCpuPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options) {
  addHostBuffersToDevice(pm, options.hostBuffers);
  // The cpu runtime names the source line of a failing copy or free, and
  // of an allocation in --sanitize's reports.
  // Static workgroup memory over what the cpu runtime gives a block is an
  // error at compile time.
  addOutliningWithHoisting(
      pm, options.dynamicSharedBoundsChecks,
      getPlanOptions(options, "cpu", "", GPUMEM_CPU_MAX_SHARED_BYTES_PER_BLOCK),
      /*lowerAllReduce=*/true, /*sinkConstants=*/false,
      /*recordMemoryCalls=*/true);
  GPUMemAttachCPUTargetPassOptions target;
  target.optLevel = options.optLevel;
  target.cpu = options.cpu;
  pm.addPass(createGPUMemAttachCPUTargetPass(target));

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // racecheck counts barrier phases: fissioned kernels tell the runtime
  // where their barriers were.
  GPUMemLowerGPUToCPUABIPassOptions abi;
  abi.phaseMarkers = options.sanitize.getValue().has(GPUMEM_CHECK_RACECHECK);
  // The sanitizer checks each lane's fragment loads against the warp's
  // whole tile (decision 147).
  abi.wholeFragments = !options.sanitize.getValue().empty();
  // nvgpu.ldmatrix and nvgpu.mma.sync become shuffles and per-lane
  // arithmetic in PTX's fragment layouts (decision 148).
  device.addPass(createGPUMemLowerWarpMatrixOpsToShufflesPass());
  device.addPass(createGPUMemLowerGPUToCPUABIPass(abi));
  if (!options.sanitize.getValue().empty()) {
    // The sanitizer sees loads and stores, not transfers.
    device.addPass(gpumem::createGPUMemLowerVectorTransfersPass());
    GPUMemSanitizeMemoryAccessesPassOptions sanitize;
    sanitize.checks = options.sanitize;
    device.addPass(createGPUMemSanitizeMemoryAccessesPass(sanitize));
  }
  addStructuredLowering(device);
  device.addPass(createGPUMemFinalizeCPUModulePass());
  addDeviceCleanup(device);

  addHostSanitizer(pm, options.sanitize);
  addHostLowering(pm, gpumem::BinaryFormat::Bin, "");
}
