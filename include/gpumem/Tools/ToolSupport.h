//===----------------------------------------------------------------------===//
// What gpumem-run and gpumem-compile share: the target options, the dialect
// registry, parsing, target selection, compilation through the gpumem
// pipelines, and the runtime libraries a program needs.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TOOLS_TOOLSUPPORT_H
#define GPUMEM_TOOLS_TOOLSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <string>

namespace gpumem {

/// Where kernels run: CPU cores from the gpu dialect, an NVIDIA GPU, CPU
/// cores from the NVIDIA device code (cuda-emu; the cpu runtime runs it), or
/// a Vulkan device from SPIR-V.
enum class Target { CPU, CUDA, CUDAEmu, Vulkan };

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

/// The command-line options both tools take; construct one as a static.
struct TargetOptions {
  llvm::cl::opt<std::string> target{
      "target",
      llvm::cl::desc("cpu, cuda, cuda-emu (the NVIDIA device code run on CPU "
                     "cores), vulkan (SPIR-V on any Vulkan device) or auto "
                     "(cuda when a CUDA device is usable, else vulkan when a "
                     "Vulkan GPU is, else cpu)"),
      llvm::cl::init("auto"), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<std::string> chip{
      "chip", llvm::cl::desc("NVIDIA chip for --target=cuda and cuda-emu "
                             "(default: the device's when cuda runs here, "
                             "else sm_90)"),
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
  llvm::cl::opt<unsigned> maxSharedMemory{
      "max-shared-memory",
      llvm::cl::desc("Workgroup memory of a workgroup, in bytes, that the "
                     "vulkan target compiles for (default: the Vulkan "
                     "device's when the program runs here, else 32768)"),
      llvm::cl::init(0), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<std::string> sanitize{
      "sanitize", llvm::cl::ValueOptional,
      llvm::cl::desc("Check the kernels as they run on the cpu target and "
                     "report errors with their source lines: "
                     "--sanitize=memcheck,racecheck,initcheck,synccheck "
                     "(out-of-bounds accesses, races, uninitialized reads, "
                     "divergent barriers and shuffles); --sanitize alone: "
                     "all of them "
                     "(docs/sanitizer.md)"),
      llvm::cl::init(""), llvm::cl::cat(getToolCategory())};
  llvm::cl::opt<std::string> smemReport{
      "smem-report", llvm::cl::ValueOptional,
      llvm::cl::desc("Report every kernel's workgroup (shared) memory on "
                     "stderr: each buffer's source line, bytes, offset, live "
                     "range and what it shares bytes with, the totals, the "
                     "limit and the occupancy; --smem-report=json for JSON "
                     "(docs/workgroup-memory.md)"),
      llvm::cl::init(""), llvm::cl::cat(getToolCategory())};
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
  llvm::cl::opt<std::string> hostBuffers{
      "host-buffers",
      llvm::cl::desc("How host memrefs that kernels use reach the device: "
                     "copy (device buffers and copies), managed, register, "
                     "or none (docs/memory.md)"),
      llvm::cl::init("copy"), llvm::cl::cat(getToolCategory())};
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

/// The target named by `options`, resolving "auto".
mlir::FailureOr<Target> resolveTarget(const TargetOptions &options);

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
  mlir::ModuleOp getModule() { return *module; }
  Target getTarget() const { return target; }

private:
  mlir::MLIRContext context;
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Target target = Target::CPU;
};

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
