//===----------------------------------------------------------------------===//
// The tools' table of targets (ToolSupport.h, TargetInfo): for each, the
// pipeline it compiles with from the tools' options, its runtime library,
// what its options may be, and the probe that says whether its programs
// can run here and on what.
//===----------------------------------------------------------------------===//

#include "gpumem/Tools/ToolSupport.h"

#include "ToolProbes.h"

#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Support/NVIDIATarget.h"

#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <dlfcn.h>

using namespace mlir;

/// The options of the pipelines' shared front, from the tools'.
template <typename PipelineOptions>
static void setSharedOptions(PipelineOptions &pipelineOptions,
                             const gpumem::TargetOptions &options) {
  pipelineOptions.dynamicSharedBoundsChecks =
      options.checkDynamicSharedBounds.getValue();
  pipelineOptions.hostBuffers = options.hostBuffers.getValue();
  pipelineOptions.workgroupReuse = options.workgroupReuse.getValue();
  pipelineOptions.smemReport = options.smemReport.getValue();
  pipelineOptions.smemReportFile = options.smemReportFile.getValue();
  pipelineOptions.smemSvg = options.smemSvg.getValue();
}

/// --cpu's value for a pipeline: empty for this machine's.
static std::string hostCPU(const gpumem::TargetOptions &options) {
  return options.cpu == "host" ? "" : options.cpu.getValue();
}

static void buildCpu(OpPassManager &pm, const gpumem::TargetOptions &options,
                     StringRef, uint64_t) {
  gpumem::CpuPipelineOptions cpuOptions;
  cpuOptions.cpu = hostCPU(options);
  cpuOptions.sanitize = options.sanitize.getValue();
  setSharedOptions(cpuOptions, options);
  gpumem::buildCpuPipeline(pm, cpuOptions);
}

static void buildCuda(OpPassManager &pm, const gpumem::TargetOptions &options,
                      StringRef chip, uint64_t) {
  gpumem::CudaPipelineOptions cudaOptions;
  if (!chip.empty())
    cudaOptions.chip = chip.str();
  // The tools have no format option: when the CUDA toolkit here cannot
  // compile for the chip, the program carries PTX, which the driver
  // compiles when it loads.
  std::optional<gpumem::CudaToolkit> toolkit = gpumem::findCudaToolkit();
  for (const gpumem::NVIDIAChip *nvidiaChip :
       gpumem::parseNVIDIAChipList(cudaOptions.chip).chips)
    if (toolkit && (toolkit->release < nvidiaChip->firstCuda ||
                    (nvidiaChip->droppedInCuda &&
                     toolkit->release >= nvidiaChip->droppedInCuda)))
      cudaOptions.format = gpumem::BinaryFormat::ISA;
  cudaOptions.sanitize = options.sanitize.getValue();
  setSharedOptions(cudaOptions, options);
  gpumem::buildCudaPipeline(pm, cudaOptions);
}

static void buildCudaEmu(OpPassManager &pm,
                         const gpumem::TargetOptions &options, StringRef chip,
                         uint64_t) {
  gpumem::CudaEmuPipelineOptions emuOptions;
  if (!chip.empty())
    emuOptions.chip = chip.str();
  emuOptions.cpu = hostCPU(options);
  emuOptions.sanitize = options.sanitize.getValue();
  emuOptions.deviceSanitizerLog = options.sanitizeDeviceLog.getValue();
  setSharedOptions(emuOptions, options);
  gpumem::buildCudaEmuPipeline(pm, emuOptions);
}

static void buildVulkan(OpPassManager &pm, const gpumem::TargetOptions &options,
                        StringRef, uint64_t maxSharedMemory) {
  gpumem::VulkanPipelineOptions vulkanOptions;
  vulkanOptions.subgroupSize = options.subgroupSize.getValue();
  if (maxSharedMemory)
    vulkanOptions.maxSharedMemory = maxSharedMemory;
  setSharedOptions(vulkanOptions, options);
  gpumem::buildVulkanPipeline(pm, vulkanOptions);
}

static void buildROCm(OpPassManager &pm, const gpumem::TargetOptions &options,
                      StringRef chip, uint64_t) {
  gpumem::ROCmPipelineOptions rocmOptions;
  if (!chip.empty())
    rocmOptions.chip = chip.str();
  rocmOptions.wavefrontSize = options.wavefrontSize.getValue();
  setSharedOptions(rocmOptions, options);
  gpumem::buildROCmPipeline(pm, rocmOptions);
}

static void buildROCmEmu(OpPassManager &pm,
                         const gpumem::TargetOptions &options, StringRef chip,
                         uint64_t) {
  gpumem::ROCmEmuPipelineOptions emuOptions;
  if (!chip.empty())
    emuOptions.chip = chip.str();
  emuOptions.cpu = hostCPU(options);
  emuOptions.sanitize = options.sanitize.getValue();
  emuOptions.wavefrontSize = options.wavefrontSize.getValue();
  setSharedOptions(emuOptions, options);
  gpumem::buildROCmEmuPipeline(pm, emuOptions);
}

/// The host runs cpu programs whatever it is.
static std::string probeCpu(std::string &detail) {
  detail = "host CPU " + llvm::sys::getHostCPUName().str();
  return "";
}

static std::string probeCuda(std::string &detail) {
  std::string why = gpumem::whyNoCudaDevice();
  if (why.empty())
    detail = "device 0, " + gpumem::detectCudaChip();
  return why;
}

/// Why an emulator's kernels (GPU device code lowered to host code, which
/// gpumem does for x86-64 and AArch64 hosts) cannot run here, or "".
static std::string whyNoEmulator(StringRef name, std::string &detail) {
  llvm::Triple host(llvm::sys::getProcessTriple());
  if (!host.isX86_64() && !host.isAArch64())
    return (name + " needs an x86-64 or AArch64 host, not " +
            host.getArchName())
        .str();
  detail = "CPU cores";
  return "";
}

static std::string probeCudaEmu(std::string &detail) {
  return whyNoEmulator("cuda-emu", detail);
}

static std::string probeROCmEmu(std::string &detail) {
  return whyNoEmulator("rocm-emu", detail);
}

/// An AMD GPU through HIP (libamdhip64.so.5, as runtime/rocm loads it),
/// which loads the rocm target's HSA code objects.
static std::string probeROCm(std::string &detail) {
  void *hip = dlopen("libamdhip64.so.5", RTLD_LAZY | RTLD_LOCAL);
  if (!hip)
    return "no AMD GPU found (no HIP runtime: libamdhip64.so.5; Debian: "
           "libamdhip64-5)";
  auto deviceCount =
      reinterpret_cast<int (*)(int *)>(dlsym(hip, "hipGetDeviceCount"));
  int count = 0;
  if (!deviceCount || deviceCount(&count) != 0 || count == 0)
    return "no AMD GPU found";
  detail = std::to_string(count) + " HIP device" + (count == 1 ? "" : "s") +
           "; code objects for --chip (default gfx90a)";
  return "";
}

static std::string probeVulkan(std::string &detail) {
  int kind = gpumem::vulkanDeviceKind();
  if (kind == 0)
    return "no Vulkan device found (gpumem's Vulkan runtime found no "
           "driver or no device; Debian's mesa-vulkan-drivers gives one on "
           "any machine)";
  auto subgroupSize = reinterpret_cast<int (*)()>(
      gpumem::vulkanProbe("gpumemVulkanSubgroupSize"));
  auto deviceName = reinterpret_cast<size_t (*)(char *, size_t)>(
      gpumem::vulkanProbe("gpumemVulkanDeviceName"));
  // Which device, quoted: names have commas ("llvmpipe (LLVM 15.0.6, 256
  // bits)"). Vulkan caps them at 256 bytes, NUL included.
  char name[256] = "";
  detail = kind == 2 ? "GPU" : "CPU implementation";
  if (deviceName && deviceName(name, sizeof(name)) > 0)
    detail += std::string(" \"") + name + "\"";
  detail +=
      ", subgroup size " + std::to_string(subgroupSize ? subgroupSize() : 0);
  if (int64_t bytes = gpumem::vulkanMaxSharedMemory(); bytes > 0)
    detail += ", workgroup memory " + std::to_string(bytes) + " bytes";
  return "";
}

static const gpumem::TargetInfo kTargets[] = {
    {gpumem::Target::CPU, "cpu", "gpumem_cpu_runtime", /*sanitizes=*/true,
     /*defaultChip=*/nullptr, /*fixedSubgroupSize=*/32, buildCpu, probeCpu},
    {gpumem::Target::CUDA, "cuda", "gpumem_cuda_runtime", /*sanitizes=*/true,
     /*defaultChip=*/"sm_90", /*fixedSubgroupSize=*/32, buildCuda, probeCuda},
    {gpumem::Target::CUDAEmu, "cuda-emu", "gpumem_cpu_runtime",
     /*sanitizes=*/true, /*defaultChip=*/"sm_90", /*fixedSubgroupSize=*/32,
     buildCudaEmu, probeCudaEmu},
    {gpumem::Target::ROCm, "rocm", "gpumem_rocm_runtime", /*sanitizes=*/false,
     /*defaultChip=*/"gfx90a", /*fixedSubgroupSize=*/0, buildROCm, probeROCm},
    {gpumem::Target::ROCmEmu, "rocm-emu", "gpumem_cpu_runtime",
     /*sanitizes=*/true, /*defaultChip=*/"gfx90a", /*fixedSubgroupSize=*/0,
     buildROCmEmu, probeROCmEmu},
    {gpumem::Target::Vulkan, "vulkan", "gpumem_vulkan_runtime",
     /*sanitizes=*/false, /*defaultChip=*/nullptr, /*fixedSubgroupSize=*/0,
     buildVulkan, probeVulkan},
};

llvm::ArrayRef<gpumem::TargetInfo> gpumem::getTargets() { return kTargets; }

const gpumem::TargetInfo &gpumem::getTargetInfo(Target target) {
  const TargetInfo &info = kTargets[static_cast<size_t>(target)];
  assert(info.target == target && "kTargets follows the Target enum");
  return info;
}

const gpumem::TargetInfo *gpumem::lookupTarget(StringRef name) {
  for (const TargetInfo &info : kTargets)
    if (name == info.name)
      return &info;
  return nullptr;
}

void gpumem::printTargets(llvm::raw_ostream &os) {
  for (const TargetInfo &info : kTargets) {
    std::string detail;
    std::string why = info.probe(detail);
    os << info.name << (why.empty() ? " available" : " unavailable");
    if (!why.empty())
      os << ": " << why;
    else if (!detail.empty())
      os << ": " << detail;
    if (info.target == Target::CUDA)
      if (std::optional<CudaToolkit> toolkit = findCudaToolkit())
        os << "; ptxas " << toolkit->ptxas << " (CUDA " << toolkit->release / 10
           << "." << toolkit->release % 10 << ")";
    os << "\n";
  }
}
