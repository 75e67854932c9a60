//===----------------------------------------------------------------------===//
// gpumem-compile: compile a gpu dialect program ahead of time into a native
// executable for the cpu or cuda target.
//
// The program goes through the target's gpumem pipeline (its kernels end up
// embedded in the host code as a gpu.binary), is translated to LLVM IR,
// optimized, emitted as a position-independent object for the host, and
// linked by the system C compiler against gpumem's runtime for the target and
// gpumem's runner utilities. The executable needs no MLIR or LLVM library:
// it finds those two libraries next to itself ($ORIGIN) or where they were
// built (docs/running.md lists what it needs).
//===----------------------------------------------------------------------===//

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
    outputFile("o", llvm::cl::desc("Executable"), llvm::cl::value_desc("file"),
               llvm::cl::Required, llvm::cl::cat(gpumem::getToolCategory()));
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

/// Links the executable with the system C compiler.
static LogicalResult link(StringRef objectPath, gpumem::Target target,
                          const char *argv0) {
  llvm::ErrorOr<std::string> compiler = llvm::sys::findProgramByName("cc");
  if (!compiler)
    return fail("linking needs the system C compiler 'cc' (Debian package "
                "gcc), which was not found on $PATH"),
           failure();
  std::string libDir = gpumem::runtimeDirectory(argv0);
  std::string runtime =
      std::string("-l") + gpumem::getTargetInfo(target).runtimeLibrary;
  std::string rpath = "-Wl,-rpath,$ORIGIN:$ORIGIN/../lib:" + libDir;
  llvm::SmallString<128> logPath;
  if (llvm::sys::fs::createTemporaryFile("gpumem-compile", "log", logPath))
    return fail("cannot create a temporary file"), failure();
  llvm::FileRemover removeLog(logPath);
  llvm::SmallVector<StringRef> args = {
      *compiler, "-o",   outputFile, objectPath,
      "-L",      libDir, runtime,    "-lgpumem_runner_utils",
      rpath,     "-lm"};
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
  if (failed(program.load(inputFile, targetOptions, /*runsHere=*/false)))
    return 1;
  ModuleOp module = program.getModule();
  gpumem::Target target = program.getTarget();
  if (failed(gpumem::runtimeLibraries(target, argv[0],
                                      /*withMLIRUtils=*/false)))
    return 1;

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return fail("cannot translate the program to LLVM IR");

  llvm::SmallString<128> objectPath;
  if (llvm::sys::fs::createTemporaryFile("gpumem-compile", "o", objectPath))
    return fail("cannot create a temporary file");
  llvm::FileRemover removeObject(objectPath);
  if (failed(defineEntryPoint(*llvmModule)) ||
      failed(emitObject(*llvmModule, objectPath)) ||
      failed(link(objectPath, target, argv[0])))
    return 1;
  return 0;
}
