//===----------------------------------------------------------------------===//
// gpumem-run: compile a gpu dialect program with gpumem's pipeline and run it
// with MLIR's JIT on any of gpumem's targets (--target=cpu, cuda, cuda-emu,
// vulkan or auto; --list-targets says which this machine can run),
// following mlir-runner's conventions (-e, --entry-point-result,
// --shared-libs).
//
// The program's own output is the only thing on stdout. Every compile error
// is a located diagnostic on stderr and exit code 1; run-time errors are
// reported by the gpumem runtime, also with exit code 1; option errors read
// "gpumem-run: error: ..." and exit with 2.
//===----------------------------------------------------------------------===//

#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Tools/ToolSupport.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <dlfcn.h>

using namespace mlir;

static llvm::cl::opt<std::string>
    inputFile(llvm::cl::Positional, llvm::cl::desc("<input .mlir>"),
              llvm::cl::init("-"), llvm::cl::cat(gpumem::getToolCategory()));
static llvm::cl::opt<std::string>
    entryPoint("e", llvm::cl::desc("The function to run"),
               llvm::cl::init("main"),
               llvm::cl::cat(gpumem::getToolCategory()));
static llvm::cl::opt<std::string> entryPointResult(
    "entry-point-result",
    llvm::cl::desc("Result type of the entry point: void, i32, i64 or f32"),
    llvm::cl::init("void"), llvm::cl::cat(gpumem::getToolCategory()));
static llvm::cl::list<std::string>
    sharedLibs("shared-libs", llvm::cl::desc("Extra libraries to load"),
               llvm::cl::CommaSeparated,
               llvm::cl::cat(gpumem::getToolCategory()));
static llvm::cl::opt<bool> listTargets(
    "list-targets",
    llvm::cl::desc("Print one line per target: whether programs for it can "
                   "run here and on what, or why not, and the ptxas the "
                   "cuda target would use; then exit"),
    llvm::cl::init(false), llvm::cl::cat(gpumem::getToolCategory()));
static gpumem::TargetOptions targetOptions;

/// Invokes the entry point and prints its result as mlir-runner does.
static LogicalResult runEntryPoint(ExecutionEngine &engine) {
  auto report = [](llvm::Error error) {
    llvm::errs() << "gpumem-run: error: " << llvm::toString(std::move(error))
                 << "\n";
    return failure();
  };
  if (entryPointResult == "void") {
    if (llvm::Error error = engine.invokePacked(entryPoint))
      return report(std::move(error));
    return success();
  }
  auto invoke = [&](auto result) -> LogicalResult {
    void *args[] = {&result};
    if (llvm::Error error = engine.invokePacked(entryPoint, args))
      return report(std::move(error));
    llvm::outs() << result << "\n";
    return success();
  };
  if (entryPointResult == "i32")
    return invoke(int32_t());
  if (entryPointResult == "i64")
    return invoke(int64_t());
  return invoke(float());
}

/// The entry point's result type must be what --entry-point-result says:
/// calling it with another would read garbage or smash the stack.
static LogicalResult checkEntryPointResult(LLVM::LLVMFuncOp entry) {
  Type result = entry.getFunctionType().getReturnType();
  std::string actual = "void";
  if (!isa<LLVM::LLVMVoidType>(result)) {
    llvm::raw_string_ostream os(actual);
    actual.clear();
    result.print(os);
  }
  if (actual == entryPointResult)
    return success();
  InFlightDiagnostic diag = emitError(entry.getLoc())
                            << "the entry point @" << entryPoint << " returns "
                            << actual << ", not "
                            << entryPointResult.getValue();
  if (llvm::is_contained({"void", "i32", "i64", "f32"}, actual))
    diag << "; run it with --entry-point-result=" << actual;
  else
    diag << "; gpumem-run runs entry points that return void, i32, i64 or "
            "f32";
  return failure();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  gpumem::parseToolCommandLine(
      argc, argv,
      "gpumem-run: compile a gpu dialect program and run it on CPU cores, an "
      "NVIDIA GPU or a Vulkan device\n");
  if (listTargets) {
    gpumem::printTargets(llvm::outs());
    return 0;
  }
  if (!llvm::is_contained({"void", "i32", "i64", "f32"},
                          entryPointResult.getValue())) {
    gpumem::reportToolError("unknown --entry-point-result '" +
                            entryPointResult +
                            "'; expected void, i32, i64 "
                            "or f32");
    return 2;
  }
  if (failed(gpumem::checkToolOptions(targetOptions)))
    return 2;

  gpumem::ToolProgram program;
  if (failed(program.load(inputFile, targetOptions, /*runsHere=*/true)))
    return 1;
  ModuleOp module = program.getModule();
  gpumem::Target target = program.getTarget();

  auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(entryPoint);
  if (!entry || entry.isExternal()) {
    emitError(module.getLoc())
        << "the program has no function @" << entryPoint << " to run";
    return 1;
  }
  if (entry.getNumArguments() != 0) {
    emitError(entry.getLoc())
        << "the entry point @" << entryPoint << " must take no arguments";
    return 1;
  }
  if (failed(checkEntryPointResult(entry)))
    return 1;

  FailureOr<SmallVector<std::string>> libraries =
      gpumem::runtimeLibraries(target, argv[0], /*withMLIRUtils=*/true);
  if (failed(libraries))
    return 1;
  llvm::append_range(*libraries, sharedLibs);
  SmallVector<StringRef> libraryRefs(libraries->begin(), libraries->end());
  // The runtimes stay loaded until the process ends, as they would in an
  // executable: the engine's teardown unloads what it loaded, and a runtime
  // whose global state outlives its code would leave its exit-time work
  // (and, under LeakSanitizer, its singletons) dangling.
  for (const std::string &library : *libraries)
    dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);

  ExecutionEngineOptions options;
  options.sharedLibPaths = libraryRefs;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2,
                                               /*sizeLevel=*/0, nullptr);
  options.transformer = transformer;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options);
  if (!engine) {
    llvm::errs() << "gpumem-run: error: cannot JIT-compile the program: "
                 << llvm::toString(engine.takeError()) << "\n";
    return 1;
  }
  // Past this line, a fault is the program's own (tools such as the fuzzer
  // tell the two apart by it).
  if (targetOptions.verbose)
    llvm::errs() << "gpumem: running @" << entryPoint << "\n";
  auto start = std::chrono::steady_clock::now();
  (*engine)->initialize();
  bool ran = succeeded(runEntryPoint(**engine));
  if (targetOptions.verbose)
    llvm::errs() << "gpumem: ran in " << gpumem::formatSeconds(start) << "\n";
  return ran ? 0 : 1;
}
