//===----------------------------------------------------------------------===//
// gpumem-compile: compile a gpu dialect program ahead of time into a native
// executable for one target, or for several (--target=cuda,rocm,cpu).
//
// The program goes through the target's gpumem pipeline (its kernels end up
// embedded in the host code as a gpu.binary), is translated to LLVM IR,
// optimized, emitted as a position-independent object for the host, and
// linked by the system C compiler against gpumem's runtime for the target and
// gpumem's runner utilities. For several targets, each compiles a copy of
// the program, the copies' host code is linked into one module
// (MultiTargetExecutable.h), and the executable links the start-up code
// that picks a target (libgpumem_target_selection.a) instead of a runtime:
// the chosen target's runtime is loaded when the program starts. The
// executable needs no MLIR or LLVM library: it finds gpumem's libraries
// next to itself ($ORIGIN) or where they were built (docs/running.md lists
// what it needs).
//===----------------------------------------------------------------------===//

#include "gpumem/Tools/MultiTargetExecutable.h"
#include "gpumem/Tools/ToolSupport.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

static llvm::cl::opt<std::string>
    inputFile(llvm::cl::Positional, llvm::cl::desc("<input .mlir>"),
              llvm::cl::init("-"), llvm::cl::cat(gpumem::getToolCategory()));
static llvm::cl::opt<std::string>
    outputFile("o", llvm::cl::desc("Executable (default: a.out, as cc)"),
               llvm::cl::value_desc("file"), llvm::cl::init("a.out"),
               llvm::cl::cat(gpumem::getToolCategory()));
static gpumem::TargetOptions targetOptions;

static int fail(const llvm::Twine &message) {
  gpumem::reportToolError(message);
  return 1;
}

/// Makes the program's @main the C entry point: a void @main is renamed and
/// called from an `int main()` that returns 0, so the exit status is
/// defined. An i32 @main is the entry point as it is.
static LogicalResult defineEntryPoint(llvm::Module &module) {
  llvm::Function *programMain = module.getFunction("main");
  if (!programMain || programMain->isDeclaration())
    return fail("the program has no function @main"), failure();
  if (programMain->getReturnType()->isIntegerTy(32) && programMain->arg_empty())
    return success();
  if (!programMain->getReturnType()->isVoidTy() || !programMain->arg_empty())
    return fail("@main must take no arguments and return nothing or i32"),
           failure();
  programMain->setName("__gpumem_program_main");
  llvm::IRBuilder<> builder(module.getContext());
  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(builder.getInt32Ty(), false),
      llvm::GlobalValue::ExternalLinkage, "main", module);
  builder.SetInsertPoint(
      llvm::BasicBlock::Create(module.getContext(), "", entry));
  builder.CreateCall(programMain);
  builder.CreateRet(builder.getInt32(0));
  return success();
}

/// Emits `module` as a position-independent host object into `objectPath`.
static LogicalResult emitObject(llvm::Module &module, StringRef objectPath) {
  std::string error;
  llvm::Triple triple(llvm::sys::getProcessTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return fail("no host target: " + error), failure();
  // Host code is portable x86-64; only the kernels follow --cpu.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "x86-64", "", llvm::TargetOptions(), llvm::Reloc::PIC_));
  module.setDataLayout(machine->createDataLayout());
  module.setTargetTriple(triple);
  if (llvm::Error error =
          makeOptimizingTransformer(2, 0, machine.get())(&module))
    return fail("optimizing the host code: " +
                llvm::toString(std::move(error))),
           failure();
  std::error_code ec;
  llvm::raw_fd_ostream out(objectPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot write " + objectPath + ": " + ec.message()), failure();
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, out, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return fail("the host target cannot emit objects"), failure();
  codegen.run(module);
  return success();
}

/// Links the executable with the system C compiler, against `target`'s
/// runtime, or the start-up code that chooses one when there is none.
static LogicalResult link(StringRef objectPath,
                          std::optional<gpumem::Target> target,
                          const char *argv0) {
  llvm::ErrorOr<std::string> compiler = llvm::sys::findProgramByName("cc");
  if (!compiler)
    return fail("linking needs the system C compiler 'cc' (Debian package "
                "gcc), which was not found on $PATH"),
           failure();
  std::string libDir = gpumem::runtimeDirectory(argv0);
  std::string runtime =
      target ? std::string("-l") + gpumem::getTargetInfo(*target).runtimeLibrary
             : std::string("-lgpumem_target_selection");
  std::string rpath = "-Wl,-rpath,$ORIGIN:$ORIGIN/../lib:" + libDir;
  llvm::SmallString<128> logPath;
  if (llvm::sys::fs::createTemporaryFile("gpumem-compile", "log", logPath))
    return fail("cannot create a temporary file"), failure();
  llvm::FileRemover removeLog(logPath);
  llvm::SmallVector<StringRef> args = {
      *compiler, "-o",   outputFile, objectPath,
      "-L",      libDir, runtime,    "-lgpumem_runner_utils",
      rpath,     "-lm",  "-ldl"};
#ifdef GPUMEM_LINK_SANITIZE
  // A sanitizer build's runtimes need the sanitizers' libraries, and the
  // program gets the defaults of runtime/utils/SanitizerDefaults.cpp.
  args.append({GPUMEM_LINK_SANITIZE, "-Wl,--whole-archive",
               "-lgpumem_sanitizer_defaults", "-Wl,--no-whole-archive"});
#endif
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  if (llvm::sys::ExecuteAndWait(*compiler, args, std::nullopt, redirects) !=
      0) {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    return fail("linking " + outputFile + " failed: " +
                (log ? (*log)->getBuffer().trim() : StringRef(""))),
           failure();
  }
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  gpumem::parseToolCommandLine(
      argc, argv,
      "gpumem-compile: compile a gpu dialect program into an executable\n");
  if (failed(gpumem::checkToolOptions(targetOptions)))
    return 2;

  gpumem::ToolProgram program;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  std::optional<gpumem::Target> target;
  if (!gpumem::isTargetList(targetOptions)) {
    if (failed(program.load(inputFile, targetOptions, /*runsHere=*/false)))
      return 1;
    target = program.getTarget();
    if (failed(gpumem::runtimeLibraries(*target, argv[0],
                                        /*withMLIRUtils=*/false)))
      return 1;
    llvmModule = translateModuleToLLVMIR(program.getModule(), llvmContext);
    if (!llvmModule)
      return fail("cannot translate the program to LLVM IR");
    if (failed(defineEntryPoint(*llvmModule)))
      return 1;
  } else {
    FailureOr<SmallVector<gpumem::Target>> targets =
        gpumem::resolveTargets(targetOptions);
    if (failed(targets) || failed(program.parse(inputFile)))
      return 1;
    std::vector<gpumem::TargetCopy> copies;
    for (gpumem::Target each : *targets) {
      const char *name = gpumem::getTargetInfo(each).name;
      if (failed(gpumem::runtimeLibraries(each, argv[0],
                                          /*withMLIRUtils=*/false)))
        return 1;
      OwningOpRef<ModuleOp> copy = program.compileCopy(each, targetOptions);
      if (!copy)
        return fail(Twine("compiling the program for the ") + name +
                    " target failed");
      std::unique_ptr<llvm::Module> translated =
          translateModuleToLLVMIR(*copy, llvmContext);
      if (!translated)
        return fail(Twine("cannot translate the ") + name +
                    " target's program to LLVM IR");
      copies.push_back({each, std::move(translated)});
    }
    FailureOr<std::unique_ptr<llvm::Module>> linked = gpumem::linkTargetCopies(
        std::move(copies), gpumem::runtimeDirectory(argv[0]));
    if (failed(linked))
      return 1;
    llvmModule = std::move(*linked);
  }

  llvm::SmallString<128> objectPath;
  if (llvm::sys::fs::createTemporaryFile("gpumem-compile", "o", objectPath))
    return fail("cannot create a temporary file");
  llvm::FileRemover removeObject(objectPath);
  if (failed(emitObject(*llvmModule, objectPath)) ||
      failed(link(objectPath, target, argv[0])))
    return 1;
  return 0;
}
