//===----------------------------------------------------------------------===//
// The AMD pipelines: gpumem-rocm-pipeline (checked #rocdl.target, then
// upstream's ROCDL device lowering around gpumem's AMD passes, HSA code
// objects linked by ld.lld) and gpumem-rocm-emu-pipeline (the same device
// lowering, then gpumem-lower-rocdl-to-cpu and #gpumem.cpu).
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"
#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Target/CUDA/Passes.h"
#include "gpumem/Target/ROCm/Passes.h"
#include "gpumem/Target/ROCmEmu/Passes.h"

#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace gpumem::pipelines;

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
  addDeviceCleanup(device);
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
  addHostSanitizer(pm, options.sanitize);
  addHostLowering(pm, gpumem::BinaryFormat::Bin, "");
}
