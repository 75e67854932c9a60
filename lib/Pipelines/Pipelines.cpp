//===----------------------------------------------------------------------===//
// gpumem's pipelines. All share the front (workgroup hoisting before and
// after outlining) and the host side (structural lowering, gpu-to-llvm,
// gpu-module-to-binary); they differ in the target attached and in how
// gpu.module is lowered:
//   cuda:     checked NVVM target, then upstream's NVVM device lowering;
//   cuda-emu: the cuda target's device lowering unchanged, then
//             gpumem-lower-nvvm-to-cpu and #gpumem.cpu;
//   rocm:     checked ROCDL target, then upstream's ROCDL device lowering
//             around gpumem's AMD passes, HSA code objects linked by ld.lld;
//   rocm-emu: the rocm target's device lowering unchanged, then
//             gpumem-lower-rocdl-to-cpu and #gpumem.cpu;
//   cpu:      #gpumem.cpu, then gpumem's CPU kernel ABI lowering;
//   vulkan:   #gpumem.vulkan, then gpumem's SPIR-V conversion with its
//             Vulkan kernel ABI, nested in the gpu.module, serialized and
//             validated before any host pass runs.
// Device and host are lowered by separate pass managers so that host passes
// never see device types.
//===----------------------------------------------------------------------===//

#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Target/CUDA/Passes.h"
#include "gpumem/Target/CUDAEmu/Passes.h"
#include "gpumem/Target/ROCm/Passes.h"
#include "gpumem/Target/ROCmEmu/Passes.h"
#include "gpumem/Target/Vulkan/Passes.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Synchronous memory ops given streams, asynchronous ops one dependency
/// each, launch sizes checked, then workgroup
/// allocations hoisted before and after kernel outlining, collectives
/// rewritten into shuffles, and dynamic-size workgroup allocations packed
/// into dynamic shared memory (after the checks of the user's views, at
/// compile time and, opted in, at run time). Math ops
/// without an LLVM lowering (math.ipowi) become calls to generated functions
/// first, so that outlining clones those into the gpu.module with the kernel.
static void addOutliningWithHoisting(
    OpPassManager &pm, bool dynamicSharedBoundsChecks,
    const gpumem::GPUMemPlanWorkgroupMemoryPassOptions &plan,
    bool lowerAllReduce = true, bool sinkConstants = false,
    bool recordMemoryCalls = false, unsigned subgroupSize = 32) {
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

/// The planner's options from a pipeline's: the report names `target`, and
/// `chip` or else `limit` for the limits.
template <typename Options>
static gpumem::GPUMemPlanWorkgroupMemoryPassOptions
getPlanOptions(const Options &options, StringRef target, StringRef chip = "",
               uint64_t limit = 0) {
  gpumem::GPUMemPlanWorkgroupMemoryPassOptions plan;
  plan.reuse = options.workgroupReuse;
  plan.report = options.smemReport;
  plan.reportFile = options.smemReportFile;
  plan.svgFile = options.smemSvg;
  plan.targetName = target.str();
  plan.chip = chip.str();
  plan.limit = limit;
  return plan;
}

/// Device code no target can lower rejected, then host buffers used by
/// kernels made device-visible in `mode` (nothing for None): the first
/// passes of every pipeline.
static void addHostBuffersToDevice(OpPassManager &pm,
                                   gpumem::HostBufferMode mode) {
  pm.addPass(gpumem::createGPUMemCheckDeviceCodePass());
  if (mode == gpumem::HostBufferMode::None)
    return;
  gpumem::GPUMemHostBuffersToDevicePassOptions options;
  options.mode = mode;
  pm.addPass(gpumem::createGPUMemHostBuffersToDevicePass(options));
}

/// The lowering steps both sides share before their conversion to LLVM.
static void addStructuredLowering(OpPassManager &pm) {
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

/// Host lowering and serialization of the gpu.modules to `format`; with
/// `fatbinOfChips`, modules compiled for several NVIDIA chips become one
/// fatbin each first (gpumem-pack-nvidia-fatbin, with `toolkit`).
static void addHostLowering(OpPassManager &pm, gpumem::BinaryFormat format,
                            StringRef toolkit, bool fatbinOfChips = false) {
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

/// initcheck of managed memory: host code reports the host's writes to
/// the runtime.
static void addHostWriteTracking(OpPassManager &pm,
                                 gpumem::SanitizerChecks checks) {
  if (checks.has(GPUMEM_CHECK_INITCHECK))
    pm.addPass(gpumem::createGPUMemTrackHostWritesPass());
}

/// --sanitize's memref checks, before a GPU dialect's lowering (cuda-emu,
/// rocm-emu): the sanitizer sees loads and stores, not transfers, and
/// structured control flow.
static void addMemRefSanitizer(OpPassManager &device,
                               gpumem::SanitizerChecks checks) {
  if (checks.empty())
    return;
  device.addPass(gpumem::createGPUMemLowerVectorTransfersPass());
  gpumem::GPUMemSanitizeMemoryAccessesPassOptions sanitize;
  sanitize.checks = checks;
  sanitize.beforeDeviceLowering = true;
  device.addPass(gpumem::createGPUMemSanitizeMemoryAccessesPass(sanitize));
}

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
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
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
  addHostWriteTracking(pm, options.sanitize);
  addHostLowering(pm, gpumem::BinaryFormat::Bin, "");
}

/// The front both AMD pipelines share: hoisting and outlining with
/// collectives as wide as the wavefront, LDS planned for the chip, and the
/// checked #rocdl.target.
template <typename Options>
static void addAMDGPUFront(OpPassManager &pm, const Options &options,
                           StringRef target, unsigned optLevel,
                           bool recordMemoryCalls, StringRef omit = "") {
  // An unknown chip, or chips of different wavefront sizes, are
  // gpumem-attach-rocdl-target's errors; until then any width will do.
  unsigned common =
      gpumem::parseAMDGPUChipList(options.chip).commonWavefrontSize();
  unsigned wavefront = options.wavefrontSize ? unsigned(options.wavefrontSize)
                       : common              ? common
                                             : 64;
  if (omit == "wavefront-subgroup-size")
    wavefront = 32;
  addHostBuffersToDevice(pm, options.hostBuffers);
  addOutliningWithHoisting(pm, options.dynamicSharedBoundsChecks,
                           getPlanOptions(options, target, options.chip),
                           /*lowerAllReduce=*/true, /*sinkConstants=*/false,
                           recordMemoryCalls, wavefront);
  gpumem::GPUMemAttachROCDLTargetPassOptions attach;
  attach.chip = options.chip;
  attach.wavefrontSize = options.wavefrontSize;
  attach.features = options.features;
  attach.optLevel = optLevel;
  pm.addPass(gpumem::createGPUMemAttachROCDLTargetPass(attach));
}

/// The rocm target's lowering of each gpu.module to LLVM dialect with ROCDL
/// ops, everything the AMDGPU backend gets, after the module has its
/// #rocdl.target for each chip of `chips`; `omit` names a pass to leave
/// out (tests of the tests).
static void addROCDLDeviceLowering(OpPassManager &pm, StringRef chips,
                                   StringRef omit = "",
                                   gpumem::SanitizerChecks sanitize = {}) {
  // Several chips share one lowering, for the oldest (what all of them
  // have); each chip's backend then compiles it (decision 137).
  gpumem::AMDGPUChipList list = gpumem::parseAMDGPUChipList(chips);
  std::string chip =
      list.chips.empty() ? chips.str() : list.chips.front()->name.str();
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  addMemRefSanitizer(device, sanitize);
  if (omit != "gpumem-read-dynamic-shared-size-rocdl")
    device.addPass(gpumem::createGPUMemReadDynamicSharedSizeROCDLPass());
  if (omit != "gpumem-private-allocas-for-rocdl")
    device.addPass(gpumem::createGPUMemPrivateAllocasForROCDLPass());
  if (omit != "gpumem-rewrite-shuffles-for-rocdl")
    device.addPass(gpumem::createGPUMemRewriteShufflesForROCDLPass());
  // Upstream's HIP printf zero-extends every integer to 64 bits: an i8 -7
  // would print as 249. C's promotions (what the NVVM fix-up does) first.
  if (omit != "gpumem-promote-printf-args-for-nvvm")
    device.addPass(gpumem::createGPUMemPromotePrintfArgsForNVVMPass());
  addStructuredLowering(device);
  device.addPass(gpumem::createGPUMemLowerVectorTransfersPass());
  ConvertGpuOpsToROCDLOpsOptions rocdl;
  rocdl.chipset = chip;
  rocdl.runtime = gpu::amd::Runtime::HIP;
  // Upstream's lowering adds the ConvertToLLVM patterns of every loaded
  // dialect ahead of its own math-to-ocml ones: in a tool that has loaded
  // all dialects, math.tanh then became llvm.intr.tanh, which the AMDGPU
  // backend cannot select (an unlocated "no libcall available" and exit).
  // A fixed list without math makes the device code the same whatever is
  // loaded: ocml for what it has, then LLVM's intrinsics for the rest.
  rocdl.allowedDialects = {"arith", "cf",     "complex", "func",
                           "index", "memref", "ub",      "vector"};
  device.addPass(createConvertGpuOpsToROCDLOps(rocdl));
  device.addPass(createConvertMathToLLVMPass());
  if (omit != "gpumem-finalize-rocdl-kernels")
    device.addPass(gpumem::createGPUMemFinalizeROCDLKernelsPass());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

void gpumem::buildROCmPipeline(OpPassManager &pm,
                               const ROCmPipelineOptions &options) {
  addAMDGPUFront(pm, options, "rocm", options.optLevel,
                 /*recordMemoryCalls=*/false);
  addROCDLDeviceLowering(pm, options.chip);
  // The device libraries a module calls must be there and know the chip;
  // upstream's serializer links them into the AMDGPU assembly, which
  // ld.lld then links into the HSA code object (decision 121).
  gpumem::GPUMemCheckROCmDeviceLibsPassOptions libraries;
  libraries.toolkit = options.toolkit;
  pm.addNestedPass<gpu::GPUModuleOp>(
      gpumem::createGPUMemCheckROCmDeviceLibsPass(libraries));
  std::optional<std::string> toolkit =
      gpumem::findROCmDeviceLibs(options.toolkit);
  addHostLowering(pm, gpumem::BinaryFormat::ISA, toolkit.value_or(""));
  if (options.format == gpumem::BinaryFormat::ISA)
    return;
  gpumem::GPUMemLinkHSACodeObjectsPassOptions link;
  link.toolkit = options.toolkit;
  pm.addPass(gpumem::createGPUMemLinkHSACodeObjectsPass(link));
  // Several chips' code objects become one offload bundle (decision 137).
  pm.addPass(gpumem::createGPUMemPackAMDGPUBundlePass());
  // Registers are known once the code objects are linked.
  if (options.smemReport != gpumem::ReportFormat::None) {
    gpumem::GPUMemReportAMDGPURegistersPassOptions registers;
    registers.report = options.smemReport;
    registers.reportFile = options.smemReportFile;
    pm.addPass(gpumem::createGPUMemReportAMDGPURegistersPass(registers));
  }
}

void gpumem::buildROCmEmuPipeline(OpPassManager &pm,
                                  const ROCmEmuPipelineOptions &options) {
  // No AMDGPU code is made: the target attribute only carries the chip,
  // wavefront size and features through the ROCDL lowering.
  addAMDGPUFront(pm, options, "rocm-emu", 3, /*recordMemoryCalls=*/true,
                 options.omitPass);
  addROCDLDeviceLowering(pm, options.chip, options.omitPass, options.sanitize);
  GPUMemLowerROCDLToCPUPassOptions lowering;
  lowering.coroutines = options.coroutines;
  lowering.sanitize = options.sanitize;
  pm.addNestedPass<gpu::GPUModuleOp>(createGPUMemLowerROCDLToCPUPass(lowering));
  // As on cuda-emu: every load, store and atomic is checked by address.
  if (!options.sanitize.getValue().empty()) {
    GPUMemSanitizeROCDLAccessesPassOptions sanitize;
    sanitize.checks = options.sanitize;
    pm.addNestedPass<gpu::GPUModuleOp>(
        createGPUMemSanitizeROCDLAccessesPass(sanitize));
  }
  GPUMemAttachCPUTargetPassOptions target;
  target.optLevel = options.optLevel;
  target.cpu = options.cpu;
  pm.addPass(createGPUMemAttachCPUTargetPass(target));
  addHostWriteTracking(pm, options.sanitize);
  addHostLowering(pm, gpumem::BinaryFormat::Bin, "");
}

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
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());

  addHostWriteTracking(pm, options.sanitize);
  addHostLowering(pm, gpumem::BinaryFormat::Bin, "");
}

void gpumem::buildVulkanPipeline(OpPassManager &pm,
                                 const VulkanPipelineOptions &options) {
  addHostBuffersToDevice(pm, options.hostBuffers);
  // gpu.all_reduce stays for the vulkan target's own lowering, which does
  // not depend on the subgroup size.
  // Constants are sunk into the kernels, so that sizes the host wrote as
  // constants (a private alloca's, say) are static in the shader, where
  // SPIR-V needs them.
  // Logical SPIR-V cannot view one workgroup array as another type: only
  // buffers of one type share bytes there.
  gpumem::GPUMemPlanWorkgroupMemoryPassOptions plan =
      getPlanOptions(options, "vulkan", "", options.maxSharedMemory);
  plan.byteViews = false;
  addOutliningWithHoisting(pm, options.dynamicSharedBoundsChecks, plan,
                           /*lowerAllReduce=*/false, /*sinkConstants=*/true);
  GPUMemAttachVulkanTargetPassOptions target;
  target.spirvVersion = options.spirvVersion;
  target.subgroupSize = options.subgroupSize;
  target.maxSharedMemory = options.maxSharedMemory;
  pm.addPass(createGPUMemAttachVulkanTargetPass(target));
  // Shaders need structured control flow: branches (from math-to-funcs'
  // helpers, say) become scf loops and ifs first.
  pm.addNestedPass<gpu::GPUModuleOp>(createLiftControlFlowToSCFPass());
  GPUMemConvertGPUToVulkanSPIRVPassOptions conversion;
  conversion.checkLoopCompletion = options.checkLoopCompletion;
  pm.addPass(createGPUMemConvertGPUToVulkanSPIRVPass(conversion));
  OpPassManager &spirvModule =
      pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  // Serialized (and validated) before the host lowering: its rewrites run
  // over the whole module, and a greedy driver that reached into
  // spirv.module would fold and merge blocks there by rules written for
  // other dialects (it once merged the two targets of a conditional
  // branch, which made an scf.if take one branch in every thread).
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget =
      gpumem::stringifyBinaryFormat(gpumem::BinaryFormat::Bin).str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  addHostLowering(pm, gpumem::BinaryFormat::Bin, "");
}

void gpumem::registerGPUMemPipelines() {
  PassPipelineRegistration<CudaPipelineOptions>(
      "gpumem-cuda-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "NVIDIA binary, with real shared memory for workgroup allocations",
      buildCudaPipeline);
  PassPipelineRegistration<CudaEmuPipelineOptions>(
      "gpumem-cuda-emu-pipeline",
      "Lower a module with gpu.launch or gpu.module as gpumem-cuda-pipeline "
      "does, then run the NVVM form of the kernels on CPU cores with PTX "
      "semantics (libgpumem_cpu_runtime.so)",
      buildCudaEmuPipeline);
  PassPipelineRegistration<ROCmPipelineOptions>(
      "gpumem-rocm-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with embedded "
      "AMDGPU assembly, workgroup memory in LDS",
      buildROCmPipeline);
  PassPipelineRegistration<ROCmEmuPipelineOptions>(
      "gpumem-rocm-emu-pipeline",
      "Lower a module with gpu.launch or gpu.module as gpumem-rocm-pipeline "
      "does, then run the ROCDL form of the kernels on CPU cores with AMDGPU "
      "semantics (libgpumem_cpu_runtime.so)",
      buildROCmEmuPipeline);
  PassPipelineRegistration<CpuPipelineOptions>(
      "gpumem-cpu-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "host shared object that libgpumem_cpu_runtime.so runs on CPU cores",
      buildCpuPipeline);
  PassPipelineRegistration<VulkanPipelineOptions>(
      "gpumem-vulkan-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "SPIR-V image that libgpumem_vulkan_runtime.so runs on any Vulkan "
      "device",
      buildVulkanPipeline);
}
