//===----------------------------------------------------------------------===//
// gpumem's end-to-end pipelines, from a module with gpu.launch (or already
// outlined gpu.module/gpu.func) to LLVM dialect with an embedded gpu.binary.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_PIPELINES_PIPELINES_H
#define GPUMEM_PIPELINES_PIPELINES_H

#include "gpumem/Transforms/OptionTypes.h"

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace gpumem {

/// The NVIDIA passes of the device lowering that `test-omit-pass` may name.
#define GPUMEM_OMITTABLE_NVIDIA_PASSES                                         \
  "gpumem-read-dynamic-shared-size-nvvm, gpumem-rewrite-shuffle-up-for-nvvm, " \
  "gpumem-promote-printf-args-for-nvvm, gpumem-finalize-nvvm-shared-memory"
constexpr const char *kOmittableNVIDIAPasses = GPUMEM_OMITTABLE_NVIDIA_PASSES;

/// The AMD steps of the rocm-emu pipeline that `test-omit-pass` may name:
/// the rocm target's passes, and the front's collectives as wide as the
/// wavefront (else 32 lanes).
#define GPUMEM_OMITTABLE_ROCM_PASSES                                           \
  "gpumem-read-dynamic-shared-size-rocdl, gpumem-private-allocas-for-rocdl, "  \
  "gpumem-rewrite-shuffles-for-rocdl, gpumem-promote-printf-args-for-nvvm, "   \
  "gpumem-finalize-rocdl-kernels, wavefront-subgroup-size"

/// The options both pipelines take, for their shared front.
template <typename Derived>
struct SharedPipelineOptions : public mlir::PassPipelineOptions<Derived> {
  using Options = mlir::detail::PassOptions;
  Options::Option<bool> dynamicSharedBoundsChecks{
      *this, "dynamic-shared-bounds-checks",
      llvm::cl::desc("Check every view of gpu.dynamic_shared_memory against "
                     "the launch's size at run time "
                     "(gpumem-insert-dynamic-shared-bounds-checks)"),
      llvm::cl::init(false)};
  Options::Option<HostBufferMode> hostBuffers{
      *this, "host-buffers",
      llvm::cl::desc("How host memrefs that kernels use reach the device "
                     "(gpumem-host-buffers-to-device)"),
      llvm::cl::init(HostBufferMode::None),
      llvm::cl::values(
          clEnumValN(HostBufferMode::Copy, "copy", "device buffers and copies"),
          clEnumValN(HostBufferMode::Managed, "managed", "managed memory"),
          clEnumValN(HostBufferMode::Register, "register", "host registration"),
          clEnumValN(HostBufferMode::None, "none", "left as they are"))};
  Options::Option<bool> workgroupReuse{
      *this, "workgroup-reuse",
      llvm::cl::desc("Let workgroup buffers with disjoint live ranges share "
                     "bytes (gpumem-plan-workgroup-memory)"),
      llvm::cl::init(true)};
  Options::Option<ReportFormat> smemReport{
      *this, "smem-report",
      llvm::cl::desc("Report every kernel's workgroup memory"),
      llvm::cl::init(ReportFormat::None),
      llvm::cl::values(clEnumValN(ReportFormat::None, "", "no report"),
                       clEnumValN(ReportFormat::Text, "text", "text"),
                       clEnumValN(ReportFormat::JSON, "json", "JSON"))};
  Options::Option<std::string> smemReportFile{
      *this, "smem-report-file",
      llvm::cl::desc("Where the report goes: a file, or - for stderr"),
      llvm::cl::init("-")};
  Options::Option<std::string> smemSvg{
      *this, "smem-svg",
      llvm::cl::desc("Write a picture of every kernel's workgroup memory to "
                     "this SVG file"),
      llvm::cl::init("")};
};

/// Options of `gpumem-cuda-pipeline`.
struct CudaPipelineOptions : public SharedPipelineOptions<CudaPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("NVIDIA chip, or several comma-separated (sm_80,sm_90): "
                     "one fatbin of a cubin per chip and the newest's PTX "
                     "with ptxas, each chip's PTX without"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features, e.g. +ptx80; default: the chip's minimum "
                     "PTX version, checked against the installed ptxas"),
      llvm::cl::init("")};
  PassOptions::Option<BinaryFormat> format{
      *this, "format",
      llvm::cl::desc("What the binary holds; default: bin when ptxas is "
                     "found, else isa"),
      llvm::cl::init(BinaryFormat::Default),
      llvm::cl::values(
          clEnumValN(BinaryFormat::Default, "", "bin or isa, from ptxas"),
          clEnumValN(BinaryFormat::ISA, "isa", "PTX"),
          clEnumValN(BinaryFormat::Bin, "bin", "cubin"),
          clEnumValN(BinaryFormat::Fatbin, "fatbin", "fatbin"))};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("NVPTX optimization level, 0 to 3"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root; default: $CUDA_HOME, $CUDA_PATH, "
                     "/usr/local/cuda, then ptxas on $PATH"),
      llvm::cl::init("")};
  PassOptions::Option<SanitizerChecks> sanitize{
      *this, "sanitize",
      llvm::cl::desc("Checks compiled into the device code, which reports "
                     "through a log in device memory: memcheck "
                     "(docs/sanitizer.md); empty: none"),
      llvm::cl::init(SanitizerChecks())};
};

/// Options of `gpumem-cpu-pipeline`.
struct CpuPipelineOptions : public SharedPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the kernels, 0 to 3"),
      llvm::cl::init(2)};
  PassOptions::Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("Host CPU the kernels are compiled for; default: this "
                     "machine's (x86-64 for a portable binary)"),
      llvm::cl::init("")};
  PassOptions::Option<SanitizerChecks> sanitize{
      *this, "sanitize",
      llvm::cl::desc("Checks compiled into the kernels, comma-separated: "
                     "memcheck, racecheck, initcheck, synccheck "
                     "(docs/sanitizer.md); "
                     "empty: none"),
      llvm::cl::init(SanitizerChecks())};
};

/// Options of `gpumem-cuda-emu-pipeline`.
struct CudaEmuPipelineOptions
    : public SharedPipelineOptions<CudaEmuPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA chip whose code is emulated"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features, as for gpumem-cuda-pipeline"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the host code made from the "
                     "kernels, 0 to 3"),
      llvm::cl::init(2)};
  PassOptions::Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("Host CPU the kernels are compiled for; default: this "
                     "machine's"),
      llvm::cl::init("")};
  PassOptions::Option<SanitizerChecks> sanitize{
      *this, "sanitize",
      llvm::cl::desc("Checks compiled into the kernels, by address, "
                     "comma-separated: memcheck, racecheck, initcheck, "
                     "synccheck (docs/sanitizer.md); empty: none"),
      llvm::cl::init(SanitizerChecks())};
  PassOptions::Option<bool> deviceSanitizerLog{
      *this, "device-sanitizer-log",
      llvm::cl::desc("memcheck reports through the device code's log, as "
                     "on the cuda target, instead of the runtime's services "
                     "(the cuda target's instrumented code, run on the CPU)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> coroutines{
      *this, "coroutines",
      llvm::cl::desc("Run kernels with barriers or warp operations as "
                     "coroutines where they allow it, else on fibers "
                     "(gpumem-lower-nvvm-to-cpu)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> omitPass{
      *this, "test-omit-pass",
      // A literal: cl::desc keeps a reference, never a copy.
      llvm::cl::desc("For testing the tests only: leave one of gpumem's NVIDIA "
                     "passes out of the device lowering "
                     "(" GPUMEM_OMITTABLE_NVIDIA_PASSES ")"),
      llvm::cl::init("")};
};

/// The AMD options both rocm pipelines take.
template <typename Derived>
struct AMDGPUPipelineOptions : public SharedPipelineOptions<Derived> {
  using PassOptions = mlir::detail::PassOptions;
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("AMD chip (gfx90a, gfx942, gfx1100, ...: "
                     "include/gpumem/Support/AMDGPUTarget.h)"),
      llvm::cl::init("gfx90a")};
  PassOptions::Option<unsigned> wavefrontSize{
      *this, "wavefront-size",
      llvm::cl::desc("Lanes of a wavefront, 32 or 64; 0: the chip's default "
                     "(64 on gfx9, 32 on gfx10 and gfx11)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("More LLVM AMDGPU target features, comma-separated "
                     "(+xnack, ...)"),
      llvm::cl::init("")};
};

/// Options of `gpumem-rocm-pipeline`.
struct ROCmPipelineOptions : public AMDGPUPipelineOptions<ROCmPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("AMDGPU backend optimization level, 0 to 3"),
      llvm::cl::init(3)};
  PassOptions::Option<BinaryFormat> format{
      *this, "format",
      llvm::cl::desc("What each gpu.module becomes: bin, an HSA code object "
                     "linked with ld.lld (the default), or isa, AMDGPU "
                     "assembly"),
      llvm::cl::init(BinaryFormat::Default),
      llvm::cl::values(
          clEnumValN(BinaryFormat::Default, "", "bin"),
          clEnumValN(BinaryFormat::ISA, "isa", "AMDGPU assembly"),
          clEnumValN(BinaryFormat::Bin, "bin", "HSA code object"))};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("ROCm directory with amdgcn/bitcode (the device "
                     "libraries); default: $ROCM_PATH, /usr/lib/<multiarch> "
                     "(Debian's rocm-device-libs) or /opt/rocm"),
      llvm::cl::init("")};
};

/// Options of `gpumem-rocm-emu-pipeline`.
struct ROCmEmuPipelineOptions
    : public AMDGPUPipelineOptions<ROCmEmuPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the host code made from the "
                     "kernels, 0 to 3"),
      llvm::cl::init(2)};
  PassOptions::Option<std::string> cpu{
      *this, "cpu",
      llvm::cl::desc("Host CPU the kernels are compiled for; default: this "
                     "machine's"),
      llvm::cl::init("")};
  PassOptions::Option<SanitizerChecks> sanitize{
      *this, "sanitize",
      llvm::cl::desc("Checks recorded for the runtime, comma-separated: "
                     "memcheck, racecheck, initcheck, synccheck "
                     "(docs/sanitizer.md); empty: none"),
      llvm::cl::init(SanitizerChecks())};
  PassOptions::Option<bool> coroutines{
      *this, "coroutines",
      llvm::cl::desc("Run kernels with barriers or cross-lane operations as "
                     "coroutines where they allow it, else on fibers "
                     "(gpumem-lower-rocdl-to-cpu)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> omitPass{
      *this, "test-omit-pass",
      // A literal: cl::desc keeps a reference, never a copy.
      llvm::cl::desc("For testing the tests only: leave one of the AMD steps "
                     "out of the lowering "
                     "(" GPUMEM_OMITTABLE_ROCM_PASSES ")"),
      llvm::cl::init("")};
};

/// Options of `gpumem-vulkan-pipeline`.
struct VulkanPipelineOptions
    : public SharedPipelineOptions<VulkanPipelineOptions> {
  PassOptions::Option<std::string> spirvVersion{
      *this, "spirv-version", llvm::cl::desc("SPIR-V version, 1.0 to 1.6"),
      llvm::cl::init("1.3")};
  PassOptions::Option<unsigned> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("Subgroup size the kernels' shuffles assume"),
      llvm::cl::init(32)};
  PassOptions::Option<unsigned> maxSharedMemory{
      *this, "max-shared-memory",
      llvm::cl::desc("Workgroup memory of a workgroup, in bytes"),
      llvm::cl::init(32768)};
  PassOptions::Option<bool> checkLoopCompletion{
      *this, "check-loop-completion",
      llvm::cl::desc("Follow every loop with a check that it ran to its end "
                     "(Mesa's llvmpipe leaves loops after 65535 iterations "
                     "in all)"),
      llvm::cl::init(true)};
};

/// Adds the whole CUDA lowering to `pm`, which must run on a builtin.module.
void buildCudaPipeline(mlir::OpPassManager &pm,
                       const CudaPipelineOptions &options);

/// Adds the whole CPU lowering to `pm`, which must run on a builtin.module:
/// kernels become a host shared object run by libgpumem_cpu_runtime.so.
void buildCpuPipeline(mlir::OpPassManager &pm,
                      const CpuPipelineOptions &options);

/// Adds the cuda-emu lowering to `pm`: the cuda pipeline's device lowering
/// unchanged, then gpumem-lower-nvvm-to-cpu, so that the NVVM form of the
/// kernels runs on libgpumem_cpu_runtime.so.
void buildCudaEmuPipeline(mlir::OpPassManager &pm,
                          const CudaEmuPipelineOptions &options);

/// Adds the rocm lowering to `pm`: kernels become HSA code objects (or
/// AMDGPU assembly) for the chip, with workgroup memory in LDS
/// (docs/rocm.md).
void buildROCmPipeline(mlir::OpPassManager &pm,
                       const ROCmPipelineOptions &options);

/// Adds the rocm-emu lowering to `pm`: the rocm pipeline's device lowering
/// unchanged, then gpumem-lower-rocdl-to-cpu, so that the ROCDL form of the
/// kernels runs on libgpumem_cpu_runtime.so (docs/rocm-emu.md).
void buildROCmEmuPipeline(mlir::OpPassManager &pm,
                          const ROCmEmuPipelineOptions &options);

/// Adds the vulkan lowering to `pm`: kernels become one SPIR-V module per
/// gpu.module with gpumem's Vulkan kernel ABI, run by
/// libgpumem_vulkan_runtime.so.
void buildVulkanPipeline(mlir::OpPassManager &pm,
                         const VulkanPipelineOptions &options);

/// Registers `gpumem-cuda-pipeline`, `gpumem-cuda-emu-pipeline`,
/// `gpumem-cpu-pipeline` and `gpumem-vulkan-pipeline`.
void registerGPUMemPipelines();

} // namespace gpumem

#endif // GPUMEM_PIPELINES_PIPELINES_H
