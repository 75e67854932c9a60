//===----------------------------------------------------------------------===//
// What gpumem-run and gpumem-compile share: the target options, the dialect
// registry, parsing, target selection, compilation through the gpumem
// pipelines, and the runtime libraries a program needs.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TOOLS_TOOLSUPPORT_H
#define GPUMEM_TOOLS_TOOLSUPPORT_H

#include "gpumem/Transforms/OptionTypes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace gpumem {

/// Where kernels run: CPU cores from the gpu dialect, an NVIDIA GPU, CPU
/// cores from the NVIDIA device code (cuda-emu; the cpu runtime runs it), an
/// AMD GPU, CPU cores from the AMD device code (rocm-emu), or a Vulkan
/// device from SPIR-V.
enum class Target { CPU, CUDA, CUDAEmu, ROCm, ROCmEmu, Vulkan };

struct TargetOptions;

/// What the tools know of a target, in one place: its name, what its
/// options may be, how it compiles, what it runs with, and whether it can
/// run here.
struct TargetInfo {
  Target target;
  /// The name --target takes and messages use: "cpu", "cuda-emu".
  const char *name;
  /// The runtime library's name for the linker: "gpumem_cpu_runtime"
  /// (lib<name>.so).
  const char *runtimeLibrary;
  /// Whether --sanitize compiles checks into its kernels.
  bool sanitizes;
  /// The chip it compiles for without --chip ("sm_90", "gfx90a"); null when
  /// --chip does not apply.
  const char *defaultChip;
  /// The lanes of its warps when the tools fix them (32); 0 when the chip's
  /// wavefront decides them (the AMD targets) or --subgroup-size does (and
  /// --max-shared-memory its workgroup memory): vulkan.
  unsigned fixedSubgroupSize;
  /// Whether --subgroup-size and --max-shared-memory describe its device.
  bool takesDeviceLimits() const {
    return fixedSubgroupSize == 0 && !defaultChip;
  }
  /// Whether --wavefront-size applies (the AMD targets).
  bool takesWavefrontSize() const {
    return fixedSubgroupSize == 0 && defaultChip;
  }
  /// Adds the target's gpumem pipeline, from the tools' options, for `chip`
  /// (the NVIDIA targets; empty: the pipeline's default) and
  /// `maxSharedMemory` bytes of workgroup memory (vulkan; 0: the
  /// pipeline's default).
  void (*buildPipeline)(mlir::OpPassManager &pm, const TargetOptions &options,
                        llvm::StringRef chip, uint64_t maxSharedMemory);
  /// Why programs for the target cannot run here ("no CUDA device found"),
  /// or an empty string when they can; `detail` says what they run on.
  std::string (*probe)(std::string &detail);
};

/// Every target, in the order of the Target enum.
llvm::ArrayRef<TargetInfo> getTargets();

/// The entry of `target`.
const TargetInfo &getTargetInfo(Target target);

/// The target named `name` ("cpu", ...), or null.
const TargetInfo *lookupTarget(llvm::StringRef name);

/// Prints one line per target: "<name> available[: what it runs on]" or
/// "<name> unavailable: why"; the cuda line ends with "; ptxas <path>
/// (CUDA <release>)" when ptxas is found (gpumem-run --list-targets, which
/// the tests' configuration reads).
void printTargets(llvm::raw_ostream &os);

/// The category of gpumem's own options: `--help` lists these (and LLVM's
/// generic ones); `--help-hidden` lists MLIR's and LLVM's too.
llvm::cl::OptionCategory &getToolCategory();

/// Parses the tool's command line after registering MLIR's pass manager and
/// timing options (--mlir-timing, --mlir-print-ir-after=PASS, ...) and every
/// pass they may name, the version printer (--version names gpumem and
/// LLVM); --help lists gpumem's options, --help-hidden MLIR's and LLVM's
/// too. An option error is printed as "<tool>: error: ..." and the process
/// exits with 2.
void parseToolCommandLine(int argc, char **argv, llvm::StringRef overview);

/// Prints "<tool>: error: `message`" on stderr, the form of every error
/// that has no place in the input: options, devices, files (the tool's name
/// comes from parseToolCommandLine).
void reportToolError(const llvm::Twine &message);

/// The seconds since `start`, as "0.123 s".
std::string formatSeconds(std::chrono::steady_clock::time_point start);

/// The parser of the tools' enumerated options: a bad value is an option
/// error, "<tool>: error: unknown --<option> 'x'; expected a, b or c".
template <typename Enum> class ToolEnumParser : public llvm::cl::parser<Enum> {
public:
  using llvm::cl::parser<Enum>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef, llvm::StringRef arg,
             Enum &value) {
    if (this->lookup(arg, value))
      return false;
    reportToolError("unknown --" + option.ArgStr + " '" + arg + "'; expected " +
                    this->expectedNames());
    return true;
  }
};

/// The parser of --sanitize: comma-separated checks, all of them when the
/// option has no value.
class ToolSanitizeParser : public llvm::cl::parser<SanitizerChecks> {
public:
  using llvm::cl::parser<SanitizerChecks>::parser;
  bool parse(llvm::cl::Option &, llvm::StringRef, llvm::StringRef arg,
             SanitizerChecks &value) {
    if (arg.empty()) {
      value = SanitizerChecks::all();
      return false;
    }
    std::string unknown;
    if (SanitizerChecks::parse(arg, value, unknown))
      return false;
    reportToolError("unknown --sanitize check '" + unknown + "'; expected " +
                    kExpectedSanitizerChecks + ", comma-separated");
    return true;
  }
};

/// The command-line options both tools take; construct one as a static.
struct TargetOptions {
  llvm::cl::opt<std::string> target{
      "target",
      llvm::cl::desc("cpu, cuda, cuda-emu (the NVIDIA device code run on CPU "
                     "cores), rocm, rocm-emu (the AMD device code run on CPU "
                     "cores), vulkan (SPIR-V on any Vulkan device), auto "
                     "(cuda when a CUDA device is usable, else vulkan when a "
                     "Vulkan GPU is, else cpu), or a comma-separated list: "
                     "gpumem-compile makes one executable for all of them, "
                     "which runs the first whose device it finds; gpumem-run "
                     "runs the first whose device is here"),
      llvm::cl::init("auto"), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<std::string> chip{
      "chip",
      llvm::cl::desc("GPU chip: NVIDIA's for --target=cuda and cuda-emu "
                     "(default: the device's when cuda runs here, "
                     "else sm_90), AMD's for rocm and rocm-emu (default "
                     "gfx90a); one of each vendor, comma-separated, for a "
                     "list of targets"),
      llvm::cl::init(""), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<std::string> cpu{
      "cpu",
      llvm::cl::desc("Host CPU the cpu target compiles kernels for: an LLVM "
                     "CPU name such as x86-64, or host for this machine's"),
      llvm::cl::init("host"), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<unsigned> subgroupSize{
      "subgroup-size",
      llvm::cl::desc("Lanes per subgroup the vulkan target compiles for; "
                     "the device's must be the same (lavapipe's: 4, 8 or "
                     "16, from the CPU's vector width). The other targets' "
                     "warps have 32"),
      llvm::cl::init(32), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<unsigned> wavefrontSize{
      "wavefront-size",
      llvm::cl::desc("Lanes of a wavefront the rocm and rocm-emu targets "
                     "compile for, 32 or 64 (default: the chip's; a --chip "
                     "list that mixes them needs 64)"),
      llvm::cl::init(0), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<unsigned> maxSharedMemory{
      "max-shared-memory",
      llvm::cl::desc("Workgroup memory of a workgroup, in bytes, that the "
                     "vulkan target compiles for (default: the Vulkan "
                     "device's when the program runs here, else 32768)"),
      llvm::cl::init(0), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<SanitizerChecks, false, ToolSanitizeParser> sanitize{
      "sanitize", llvm::cl::ValueOptional,
      llvm::cl::desc("Check the kernels as they run and report errors with "
                     "their source lines (cpu, cuda-emu, rocm-emu; memcheck "
                     "on cuda): "
                     "--sanitize=memcheck,racecheck,initcheck,synccheck "
                     "(out-of-bounds accesses, races, uninitialized reads, "
                     "divergent barriers and shuffles); --sanitize alone: "
                     "all of them "
                     "(docs/sanitizer.md)"),
      llvm::cl::init(SanitizerChecks()), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<bool> sanitizeDeviceLog{
      "sanitize-device-log",
      llvm::cl::desc("With --target=cuda-emu --sanitize=memcheck: the "
                     "checks report through a log in device memory, as "
                     "the cuda target's do, which runs the cuda target's "
                     "instrumented device code without a GPU"),
      llvm::cl::init(false), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<ReportFormat, false, ToolEnumParser<ReportFormat>> smemReport{
      "smem-report",
      llvm::cl::ValueOptional,
      llvm::cl::desc("Report every kernel's workgroup (shared) memory on "
                     "stderr: each buffer's source line, bytes, offset, live "
                     "range and what it shares bytes with, the totals, the "
                     "limit and the occupancy; --smem-report=json for JSON "
                     "(docs/workgroup-memory.md)"),
      llvm::cl::init(ReportFormat::None),
      llvm::cl::values(
          clEnumValN(ReportFormat::Text, "", "--smem-report alone: text"),
          clEnumValN(ReportFormat::Text, "text", "text"),
          clEnumValN(ReportFormat::JSON, "json", "JSON")),
      llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<std::string> smemReportFile{
      "smem-report-file",
      llvm::cl::desc("Write the --smem-report to this file instead of stderr"),
      llvm::cl::init("-"), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<std::string> smemSvg{
      "smem-svg",
      llvm::cl::desc("Draw every kernel's workgroup memory layout into this "
                     "SVG file"),
      llvm::cl::init(""), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<bool> workgroupReuse{
      "workgroup-reuse",
      llvm::cl::desc("Let workgroup buffers whose live ranges are disjoint "
                     "share bytes (default: on)"),
      llvm::cl::init(true), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<bool> checkDynamicSharedBounds{
      "check-dynamic-shared-bounds",
      llvm::cl::desc("Stop the program when a kernel views dynamic shared "
                     "memory past the launch's size (checked at run time)"),
      llvm::cl::init(false), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<HostBufferMode, false, ToolEnumParser<HostBufferMode>>
      hostBuffers{
          "host-buffers",
          llvm::cl::desc("How host memrefs that kernels use reach the device "
                         "(docs/memory.md)"),
          llvm::cl::init(HostBufferMode::Copy),
          llvm::cl::values(
              clEnumValN(HostBufferMode::Copy, "copy",
                         "device buffers and copies"),
              clEnumValN(HostBufferMode::Managed, "managed", "managed memory"),
              clEnumValN(HostBufferMode::Register, "register",
                         "host registration"),
              clEnumValN(HostBufferMode::None, "none", "left as they are")),
          llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<bool> verbose{
      "v",
      llvm::cl::desc("Say on stderr which target and chip were picked, the "
                     "pass pipeline, and how long compiling and running took"),
      llvm::cl::init(false), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<bool> printPipeline{
      "print-pipeline",
      llvm::cl::desc("Print the pass pipeline on stderr before compiling"),
      llvm::cl::init(false), llvm::cl::cat(getToolCategory())};
};

/// Every upstream dialect, extension and LLVM IR translation, plus gpumem's.
mlir::DialectRegistry createToolRegistry();

/// Parses `file` ("-" for stdin) into `sourceMgr`, which the caller keeps
/// alive with a SourceMgrDiagnosticHandler so that every later diagnostic
/// reads "file:line:col: error: ..." with the source line.
mlir::OwningOpRef<mlir::ModuleOp> parseInput(llvm::StringRef file,
                                             mlir::MLIRContext &context,
                                             llvm::SourceMgr &sourceMgr);

/// Checks the options' values and their combinations with the target named
/// by `options` (resolved first when it is "auto"), before any input is
/// read; failure after a reportToolError. Tools exit with 2 on failure.
mlir::LogicalResult checkToolOptions(const TargetOptions &options);

/// The target named by `options`, resolving "auto"; of a list, the first
/// that can run here (a GPU target only with a GPU: a Vulkan CPU driver is
/// not taken), or failure after reportToolError when none can.
mlir::FailureOr<Target> resolveTarget(const TargetOptions &options);

/// Whether --target names a comma-separated list of targets.
bool isTargetList(const TargetOptions &options);

/// The targets `options` names: a list in its order, each named once; else
/// the one target resolveTarget gives. Failure after reportToolError.
mlir::FailureOr<llvm::SmallVector<Target>>
resolveTargets(const TargetOptions &options);

/// The chip --chip gives `target`: the one of its vendor among the
/// comma-separated chips, or "" (the target's default) when none is, or
/// when the target has no chip.
std::string chipForTarget(const TargetOptions &options, Target target);

/// Whether `target`'s kernels run on CPU cores (cpu, cuda-emu, rocm-emu),
/// whatever GPU is here.
bool runsOnCPUCores(Target target);

/// Runs the gpumem pipeline of `target` on `module`, for `chip` when the
/// target is cuda, and for `maxSharedMemory` bytes of workgroup memory (0:
/// the pipeline's default) when it is vulkan.
mlir::LogicalResult compileForTarget(mlir::ModuleOp module, Target target,
                                     const TargetOptions &options,
                                     llvm::StringRef chip,
                                     uint64_t maxSharedMemory = 0);

/// The directory holding gpumem's runtime libraries: ../lib from the tool
/// `argv0` names.
std::string runtimeDirectory(const char *argv0);

/// A program a tool parsed and compiled, with the context and the diagnostic
/// handler that must outlive it.
class ToolProgram {
public:
  ToolProgram();
  /// Parses `file` ("-" for stdin) and compiles it for the target `options`
  /// name; failure after located diagnostics. With `runsHere`, the program
  /// will run on this machine: --target=cuda then needs a usable device,
  /// and the chip defaults to the device's.
  mlir::LogicalResult load(llvm::StringRef file, const TargetOptions &options,
                           bool runsHere);
  /// Parses `file` ("-" for stdin) only; failure after located
  /// diagnostics.
  mlir::LogicalResult parse(llvm::StringRef file);
  /// A copy of the parsed program compiled for `target` (for the chip
  /// --chip gives it, not for a device here); null after located
  /// diagnostics. The parsed program stays as it was.
  mlir::OwningOpRef<mlir::ModuleOp> compileCopy(Target target,
                                                const TargetOptions &options);
  mlir::ModuleOp getModule() { return *module; }
  Target getTarget() const { return target; }

private:
  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Target target = Target::CPU;
};

/// The shared library of `target`'s runtime, "libgpumem_cpu_runtime.so".
std::string runtimeLibraryFile(Target target);

/// The shared libraries a program compiled for `target` needs at run time,
/// as paths: gpumem's runtime for the target and gpumem's runner utilities
/// (vector.print, printMemref*, memref.copy). With `withMLIRUtils`, MLIR's
/// own runner utilities follow, for the JIT, which has libMLIR loaded anyway.
mlir::FailureOr<llvm::SmallVector<std::string>>
runtimeLibraries(Target target, const char *argv0, bool withMLIRUtils);

/// What gpumem's Vulkan runtime finds here: 0 no Vulkan driver or device, 1
/// a CPU implementation (lavapipe), 2 a GPU.
int vulkanDeviceKind();

/// The workgroup memory limit of the Vulkan device gpumem would use here,
/// in bytes, or 0 without one.
int64_t vulkanMaxSharedMemory();

/// True when libcuda.so.1 loads, initializes and reports a device.
bool isCudaDeviceUsable();

/// Why no CUDA device can be used ("no CUDA driver found (libcuda.so.1):
/// ..." or "no CUDA device found"), or an empty string when one can.
std::string whyNoCudaDevice();

/// The chip of CUDA device 0, "sm_XY" (from its compute capability), or an
/// empty string when there is no usable device.
std::string detectCudaChip();

} // namespace gpumem

#endif // GPUMEM_TOOLS_TOOLSUPPORT_H
