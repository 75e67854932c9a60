//===----------------------------------------------------------------------===//
// The NVIDIA pipelines: gpumem-cuda-pipeline (checked #nvvm.target, then
// upstream's NVVM device lowering, PTX or cubins) and
// gpumem-cuda-emu-pipeline (the same device lowering, then
// gpumem-lower-nvvm-to-cpu and #gpumem.cpu, run by the cpu runtime).
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"
#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Target/CUDA/Passes.h"
#include "gpumem/Target/CUDAEmu/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace gpumem::pipelines;

/// The cuda target's lowering of each gpu.module to LLVM dialect with NVVM
/// ops, everything the NVPTX backend gets, after the module has its
/// #nvvm.target; `omit` names a pass to leave out (tests of the tests).
static void addNVVMDeviceLowering(OpPassManager &pm, StringRef omit,
                                  gpumem::SanitizerChecks sanitize = {},
                                  bool deviceLog = false) {
  // Tensor-core matrices: elementwise ops as register arithmetic, and scf
  // ops that carry them in NVVM's struct types, before convert-nvgpu-to-nvvm
  // (whose scf conversion does not know !gpu.mma_matrix) runs.
  pm.addNestedPass<gpu::GPUModuleOp>(
      gpumem::createGPUMemLowerMMAElementwiseForNVVMPass());
  pm.addNestedPass<gpu::GPUModuleOp>(
      gpumem::createGPUMemConvertSCFMMATypesForNVVMPass());
  pm.addPass(createConvertNVGPUToNVVMPass());
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // (Its memref.dim of dynamic shared memory read the launch's size too.)
  addMemRefSanitizer(device, sanitize);
  // On the GPU (and on cuda-emu when asked), the checks report through a
  // log in device memory.
  if (deviceLog && !sanitize.empty())
    device.addPass(gpumem::createGPUMemDefineNVVMSanitizerLogPass());
  if (omit != "gpumem-read-dynamic-shared-size-nvvm")
    device.addPass(gpumem::createGPUMemReadDynamicSharedSizeNVVMPass());
  if (omit != "gpumem-rewrite-shuffle-up-for-nvvm")
    device.addPass(gpumem::createGPUMemRewriteShuffleUpForNVVMPass());
  if (omit != "gpumem-promote-printf-args-for-nvvm")
    device.addPass(gpumem::createGPUMemPromotePrintfArgsForNVVMPass());
  addStructuredLowering(device);
  device.addPass(gpumem::createGPUMemLowerVectorTransfersPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  if (omit != "gpumem-finalize-nvvm-shared-memory")
    device.addPass(gpumem::createGPUMemFinalizeNVVMSharedMemoryPass());
  addDeviceCleanup(device);
}

/// The front both NVIDIA pipelines share: hoisting and outlining, the move
/// of large static shared memory for `chip`, and the checked #nvvm.target.
static void addNVIDIAFront(
    OpPassManager &pm, gpumem::HostBufferMode hostBuffers, bool boundsChecks,
    const gpumem::GPUMemPlanWorkgroupMemoryPassOptions &plan, StringRef chip,
    StringRef features, gpumem::BinaryFormat format, StringRef toolkit,
    unsigned optLevel, bool recordMemoryCalls = false) {
  addHostBuffersToDevice(pm, hostBuffers);
  addOutliningWithHoisting(pm, boundsChecks, plan, /*lowerAllReduce=*/true,
                           /*sinkConstants=*/false, recordMemoryCalls);
  gpumem::GPUMemMoveLargeSharedToDynamicPassOptions large;
  large.chip = chip.str();
  pm.addPass(gpumem::createGPUMemMoveLargeSharedToDynamicPass(large));
  gpumem::GPUMemAttachNVVMTargetPassOptions target;
  target.chip = chip.str();
  target.features = features.str();
  target.format = format;
  target.toolkit = toolkit.str();
  target.optLevel = optLevel;
  pm.addPass(gpumem::createGPUMemAttachNVVMTargetPass(target));
  // What the chip or PTX version lacks is an error here, not an LLVM ERROR
  // in NVPTX or a ptxas failure.
  pm.addNestedPass<gpu::GPUModuleOp>(
      gpumem::createGPUMemCheckNVIDIAOpRequirementsPass());
}

void gpumem::buildCudaPipeline(OpPassManager &pm,
                               const CudaPipelineOptions &options) {
  std::optional<CudaToolkit> toolkit = findCudaToolkit(options.toolkit);
  gpumem::BinaryFormat format = options.format;
  // A toolkit named but not found is reported by the target check (format
  // bin needs it), never a silent fall back to PTX.
  if (format == gpumem::BinaryFormat::Default)
    format = toolkit || !options.toolkit.empty() ? gpumem::BinaryFormat::Bin
                                                 : gpumem::BinaryFormat::ISA;

  // Several chips (chip=sm_80,sm_90): shared memory is planned and reported
  // for the oldest, every chip's limits are checked, and with ptxas their
  // cubins and the newest's PTX become one fatbin.
  gpumem::NVIDIAChipList chips = gpumem::parseNVIDIAChipList(options.chip);
  // (An unknown chip goes on alone, for the planner's error to name it.)
  std::string oldest =
      chips.chips.empty() ? chips.unknown : chips.chips.front()->name.str();
  // Under --sanitize the runtime names the line of the allocation a
  // report's memref views.
  addNVIDIAFront(pm, options.hostBuffers, options.dynamicSharedBoundsChecks,
                 getPlanOptions(options, "cuda", oldest), options.chip,
                 options.features, format, options.toolkit, options.optLevel,
                 /*recordMemoryCalls=*/!options.sanitize.getValue().empty());
  addNVVMDeviceLowering(pm, "", options.sanitize, /*deviceLog=*/true);
  addHostSanitizer(pm, options.sanitize);
  addHostLowering(pm, format, toolkit ? StringRef(toolkit->root) : "",
                  /*fatbinOfChips=*/chips.chips.size() > 1 &&
                      format == gpumem::BinaryFormat::Bin);
  // Registers are known once ptxas has made the cubins.
  if (options.smemReport != gpumem::ReportFormat::None &&
      format == gpumem::BinaryFormat::Bin) {
    gpumem::GPUMemReportNVIDIARegistersPassOptions registers;
    registers.report = options.smemReport;
    registers.reportFile = options.smemReportFile;
    pm.addPass(gpumem::createGPUMemReportNVIDIARegistersPass(registers));
  }
}

void gpumem::buildCudaEmuPipeline(OpPassManager &pm,
                                  const CudaEmuPipelineOptions &options) {
  // No PTX is made: the target attribute only carries the chip and the
  // features through the NVVM lowering, and no ptxas is needed.
  // The cpu runtime names the source line of a failing copy or free.
  addNVIDIAFront(pm, options.hostBuffers, options.dynamicSharedBoundsChecks,
                 getPlanOptions(options, "cuda-emu", options.chip),
                 options.chip, options.features, gpumem::BinaryFormat::ISA, "",
                 3,
                 /*recordMemoryCalls=*/true);
  addNVVMDeviceLowering(pm, options.omitPass, options.sanitize,
                        options.deviceSanitizerLog);
  GPUMemLowerNVVMToCPUPassOptions lowering;
  lowering.coroutines = options.coroutines;
  // With the device's log, the runtime knows nothing of the checks: it
  // reads the log as the cuda runtime does.
  if (!options.deviceSanitizerLog)
    lowering.sanitize = options.sanitize;
  pm.addNestedPass<gpu::GPUModuleOp>(createGPUMemLowerNVVMToCPUPass(lowering));
  if (!options.sanitize.getValue().empty() && !options.deviceSanitizerLog) {
    GPUMemSanitizeNVVMAccessesPassOptions sanitize;
    sanitize.checks = options.sanitize;
    pm.addNestedPass<gpu::GPUModuleOp>(
        createGPUMemSanitizeNVVMAccessesPass(sanitize));
  }
  GPUMemAttachCPUTargetPassOptions target;
  target.optLevel = options.optLevel;
  target.cpu = options.cpu;
  pm.addPass(createGPUMemAttachCPUTargetPass(target));
  addHostSanitizer(pm, options.sanitize);
  addHostLowering(pm, gpumem::BinaryFormat::Bin, "");
}
