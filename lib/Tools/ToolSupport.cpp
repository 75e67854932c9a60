//===----------------------------------------------------------------------===//
// Shared by gpumem-run and gpumem-compile; see ToolSupport.h.
//===----------------------------------------------------------------------===//

#include "gpumem/Tools/ToolSupport.h"

#include "ToolProbes.h"

#include "gpumem/InitAll.h"
#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Support/BackendErrors.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <chrono>
#include <dlfcn.h>

using namespace mlir;

DialectRegistry gpumem::createToolRegistry() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllGPUMemExtensions(registry);
  return registry;
}

OwningOpRef<ModuleOp> gpumem::parseInput(StringRef file, MLIRContext &context,
                                         llvm::SourceMgr &sourceMgr) {
  context.loadAllAvailableDialects();
  // Diagnostics show the source line; the generic form of the op is noise.
  context.printOpOnDiagnostic(false);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(file, &error);
  if (!buffer) {
    reportToolError(error);
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  ParserConfig config(&context);
  return parseSourceFile<ModuleOp>(sourceMgr, config);
}

namespace {
/// The few driver entry points the tools need, from libcuda.so.1.
struct CudaDriverProbe {
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  using GetFn = int (*)(int *, int);
  using AttributeFn = int (*)(int *, int, int);
  std::string error;
  int devices = 0;
  int major = 0, minor = 0;

  CudaDriverProbe() {
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver) {
      const char *why = dlerror();
      error = std::string("no CUDA driver found (libcuda.so.1): ") +
              (why ? why : "not found");
      return;
    }
    auto init = reinterpret_cast<InitFn>(dlsym(driver, "cuInit"));
    auto count = reinterpret_cast<CountFn>(dlsym(driver, "cuDeviceGetCount"));
    auto get = reinterpret_cast<GetFn>(dlsym(driver, "cuDeviceGet"));
    auto attribute =
        reinterpret_cast<AttributeFn>(dlsym(driver, "cuDeviceGetAttribute"));
    if (!init || !count || !get || !attribute || init(0) != 0 ||
        count(&devices) != 0 || devices == 0) {
      error = "no CUDA device found";
      return;
    }
    int device = 0;
    // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR.
    if (get(&device, 0) != 0 || attribute(&major, 75, device) != 0 ||
        attribute(&minor, 76, device) != 0)
      error = "no CUDA device found";
  }
};

const CudaDriverProbe &probeCudaDriver() {
  static const CudaDriverProbe probe;
  return probe;
}
} // namespace

bool gpumem::isCudaDeviceUsable() { return probeCudaDriver().error.empty(); }

std::string gpumem::whyNoCudaDevice() { return probeCudaDriver().error; }

std::string gpumem::detectCudaChip() {
  const CudaDriverProbe &probe = probeCudaDriver();
  if (!probe.error.empty())
    return "";
  return "sm_" + std::to_string(probe.major) + std::to_string(probe.minor);
}

std::string gpumem::runtimeDirectory(const char *argv0) {
  std::string tool = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&gpumem::isCudaDeviceUsable));
  llvm::SmallString<256> dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(tool)));
  llvm::sys::path::append(dir, "lib");
  return dir.str().str();
}

std::string gpumem::runtimeLibraryFile(Target target) {
  return std::string("lib") + getTargetInfo(target).runtimeLibrary + ".so";
}

/// A probe of gpumem's Vulkan runtime (ToolProbes.h).
void *gpumem::vulkanProbe(const char *name) {
  static void *runtime = [] {
    llvm::SmallString<256> path(gpumem::runtimeDirectory(nullptr));
    llvm::sys::path::append(path,
                            gpumem::runtimeLibraryFile(gpumem::Target::Vulkan));
    return dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  }();
  return runtime ? dlsym(runtime, name) : nullptr;
}

int gpumem::vulkanDeviceKind() {
  static const int kind = [] {
    auto probe =
        reinterpret_cast<int (*)()>(vulkanProbe("gpumemVulkanDeviceKind"));
    return probe ? probe() : 0;
  }();
  return kind;
}

int64_t gpumem::vulkanMaxSharedMemory() {
  auto probe = reinterpret_cast<int64_t (*)()>(
      vulkanProbe("gpumemVulkanMaxSharedMemory"));
  return probe ? probe() : 0;
}

llvm::cl::OptionCategory &gpumem::getToolCategory() {
  static llvm::cl::OptionCategory category(
      "gpumem options",
      "MLIR's pass manager options (--mlir-timing, --mlir-print-ir-after-all, "
      "...) and LLVM's are listed by --help-hidden");
  return category;
}

/// The name option errors start with: the tool's.
static std::string &toolName() {
  static std::string name = "gpumem";
  return name;
}

void gpumem::reportToolError(const llvm::Twine &message) {
  llvm::errs() << toolName() << ": error: " << message << "\n";
}

/// Keeps --help to gpumem's options and LLVM's generic ones (--help,
/// --version): the others are hidden, so that --help-hidden still lists
/// them (llvm::cl::HideUnrelatedOptions alone would hide them from both).
/// (UBSan's vptr check is off for this library: most options are
/// instantiated in libLLVM and libMLIR, whose type information it cannot
/// see.)
static void hideUnrelatedOptions() {
  auto options = llvm::cl::getRegisteredOptions();
  llvm::DenseMap<llvm::cl::Option *, llvm::cl::OptionHidden> before;
  for (auto &entry : options)
    before[entry.second] = entry.second->getOptionHiddenFlag();
  llvm::cl::HideUnrelatedOptions(gpumem::getToolCategory());
  for (auto &entry : options) {
    llvm::cl::Option *option = entry.second;
    if (option->getOptionHiddenFlag() == llvm::cl::ReallyHidden &&
        before[option] != llvm::cl::ReallyHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

void gpumem::parseToolCommandLine(int argc, char **argv, StringRef overview) {
  toolName() = llvm::sys::path::filename(argv[0]).str();
  // --mlir-print-ir-after=PASS and its kin name passes by argument: every
  // pass the pipelines may run must be registered to be found.
  registerAllPasses();
  registerAllGPUMemPasses();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "gpumem " << GPUMEM_VERSION << " (MLIR and LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  hideUnrelatedOptions();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (llvm::cl::ParseCommandLineOptions(argc, argv, overview, &errorStream))
    return;
  // LLVM's messages read "<tool>: <message>"; every line gets the form of
  // the tools' own option errors.
  SmallVector<StringRef> lines;
  StringRef(errors).split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::string prefix = toolName() + ": ";
  for (StringRef line : lines) {
    line = line.trim();
    line.consume_front(prefix);
    reportToolError(line);
  }
  std::exit(2);
}

static const char *targetName(gpumem::Target target) {
  return gpumem::getTargetInfo(target).name;
}

std::string gpumem::formatSeconds(std::chrono::steady_clock::time_point start) {
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.3f s", seconds);
  return text;
}

/// Prints `pm`'s pipeline one pass a line, nested pipelines indented, as
/// "gpumem: pipeline any(" ... ")".
static void printPipeline(PassManager &pm, llvm::raw_ostream &os) {
  std::string text;
  llvm::raw_string_ostream textStream(text);
  pm.printAsTextualPipeline(textStream);
  os << "gpumem: pipeline ";
  // Breaks after '(' and ',' outside option braces, indenting by depth.
  int depth = 0, braces = 0;
  auto newline = [&] { os << "\n" << std::string(2 * depth, ' '); };
  for (char c : text) {
    if (c == '{')
      ++braces;
    else if (c == '}')
      --braces;
    if (braces > 0) {
      os << c;
      continue;
    }
    if (c == '(') {
      os << c;
      ++depth;
      newline();
    } else if (c == ')') {
      --depth;
      newline();
      os << c;
    } else if (c == ',') {
      os << c;
      newline();
    } else {
      os << c;
    }
  }
  os << "\n";
}

LogicalResult gpumem::compileForTarget(ModuleOp module, Target target,
                                       const TargetOptions &options,
                                       StringRef chip,
                                       uint64_t maxSharedMemory) {
  PassManager pm(module.getContext());
  getTargetInfo(target).buildPipeline(pm, options, chip, maxSharedMemory);
  addBackendErrorLocations(pm);
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  applyDefaultTimingPassManagerCLOptions(pm);
  if (options.verbose) {
    llvm::errs() << "gpumem: target " << targetName(target);
    if (const char *defaultChip = getTargetInfo(target).defaultChip)
      llvm::errs() << ", chip "
                   << (chip.empty() ? StringRef(defaultChip) : chip);
    llvm::errs() << "\n";
  }
  if (options.printPipeline || options.verbose)
    printPipeline(pm, llvm::errs());
  auto start = std::chrono::steady_clock::now();
  LogicalResult result = pm.run(module);
  if (options.verbose)
    llvm::errs() << "gpumem: compiled in " << formatSeconds(start) << "\n";
  return result;
}

gpumem::ToolProgram::ToolProgram()
    : context(createToolRegistry()), diagnostics(sourceMgr, &context) {}

LogicalResult gpumem::ToolProgram::parse(StringRef file) {
  installBackendErrorHandler(file);
  module = parseInput(file, context, sourceMgr);
  return success(static_cast<bool>(module));
}

LogicalResult gpumem::ToolProgram::load(StringRef file,
                                        const TargetOptions &options,
                                        bool runsHere) {
  if (failed(parse(file)))
    return failure();
  FailureOr<Target> resolved = resolveTarget(options);
  if (failed(resolved))
    return failure();
  target = *resolved;
  // --chip wins; a program that runs here is compiled for this device's
  // chip; otherwise the pipeline's default (sm_90).
  std::string chip = chipForTarget(options, target);
  if (runsHere) {
    std::string detail;
    std::string why = getTargetInfo(target).probe(detail);
    if (!why.empty()) {
      reportToolError(why + "; --target=cpu runs the program on CPU cores");
      return failure();
    }
  }
  if (target == Target::CUDA && runsHere && chip.empty())
    chip = detectCudaChip();
  // --max-shared-memory wins; a vulkan program that runs here is compiled
  // for this device's workgroup memory; otherwise the pipeline's default.
  uint64_t maxSharedMemory = options.maxSharedMemory;
  if (target == Target::Vulkan && runsHere && !maxSharedMemory)
    maxSharedMemory = uint64_t(std::max<int64_t>(vulkanMaxSharedMemory(), 0));
  return compileForTarget(*module, target, options, chip, maxSharedMemory);
}

OwningOpRef<ModuleOp>
gpumem::ToolProgram::compileCopy(Target copyTarget,
                                 const TargetOptions &options) {
  OwningOpRef<ModuleOp> copy(module->clone());
  if (failed(compileForTarget(*copy, copyTarget, options,
                              chipForTarget(options, copyTarget),
                              options.maxSharedMemory)))
    return nullptr;
  return copy;
}

FailureOr<SmallVector<std::string>>
gpumem::runtimeLibraries(Target target, const char *argv0, bool withMLIRUtils) {
  llvm::SmallString<256> runtime(runtimeDirectory(argv0));
  llvm::sys::path::append(runtime, runtimeLibraryFile(target));
  if (!llvm::sys::fs::exists(runtime)) {
    reportToolError(Twine("the ") + targetName(target) + " runtime " + runtime +
                    " was not found");
    return failure();
  }
  llvm::SmallString<256> utils(runtimeDirectory(argv0));
  llvm::sys::path::append(utils, "libgpumem_runner_utils.so");
  SmallVector<std::string> libraries{runtime.str().str(), utils.str().str()};
  if (!withMLIRUtils)
    return libraries;
  for (StringRef utils :
       {"libmlir_c_runner_utils.so", "libmlir_runner_utils.so"}) {
    llvm::SmallString<256> path(GPUMEM_MLIR_LIB_DIR);
    llvm::sys::path::append(path, utils);
    libraries.push_back(path.str().str());
  }
  return libraries;
}
