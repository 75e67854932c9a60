//===----------------------------------------------------------------------===//
// Serialization of a gpu.module for gpumem's `cpu` target.
//
// The gpu.module, already in LLVM dialect (gpumem-finalize-cpu-module), is
// translated to LLVM IR by upstream's ModuleToObject and optimized with
// LLVM's default pipeline at the target's level, plus one pass of ours right
// before the vectorizers (ArenaAliasScopes.cpp: workgroup memory aliases
// nothing else); this serializer then emits a position-independent host object
// and links it into a shared object with the system linker (`ld -shared ...
// -lm`). The shared object is what the gpu.object holds and what the CPU
// runtime dlopens from memory. `format=isa` yields host assembly text and
// `format=offloading` LLVM bitcode, for inspection.
//===----------------------------------------------------------------------===//

#include "../TargetObject.h"
#include "ArenaAliasScopes.h"
#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Target/CPU/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVM/ModuleToObject.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace gpumem;

namespace {

/// The strings ModuleToObject keeps references to; a base class so they are
/// constructed before it.
struct HostTargetDescription {
  HostTargetDescription(CPUTargetAttr target) {
    triple = llvm::sys::getProcessTriple();
    cpu = target.getCpu().str();
    features = target.getFeatures().str();
    if (cpu.empty()) {
      cpu = llvm::sys::getHostCPUName().str();
      llvm::SmallVector<std::string> hostFeatures;
      for (const auto &feature : llvm::sys::getHostCPUFeatures())
        hostFeatures.push_back((feature.second ? "+" : "-") +
                               feature.first().str());
      llvm::sort(hostFeatures);
      if (!features.empty())
        hostFeatures.push_back(features);
      features = llvm::join(hostFeatures, ",");
    }
    if (llvm::Triple(triple).isX86())
      features +=
          std::string(features.empty() ? "" : ",") + "+prefer-no-scatter";
  }
  std::string triple, cpu, features;
};

class CPUSerializer : private HostTargetDescription,
                      public LLVM::ModuleToObject {
public:
  CPUSerializer(Operation &module, CPUTargetAttr target,
                const gpu::TargetOptions &options)
      : HostTargetDescription(target),
        ModuleToObject(module, HostTargetDescription::triple,
                       HostTargetDescription::cpu,
                       HostTargetDescription::features, target.getO(),
                       options.getInitialLlvmIRCallback()),
        format(options.getCompilationTarget()) {}

protected:
  LogicalResult optimizeModule(llvm::Module &module, int level) override;
  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override;

private:
  /// A target machine for position-independent code, or null after a
  /// diagnostic.
  std::unique_ptr<llvm::TargetMachine> createPICTargetMachine();
  /// Links `object` into a shared object with the system linker.
  FailureOr<SmallVector<char, 0>> linkSharedObject(StringRef object);

  gpu::CompilationTarget format;
};

std::unique_ptr<llvm::TargetMachine> CPUSerializer::createPICTargetMachine() {
  std::string error;
  llvm::Triple targetTriple(HostTargetDescription::triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(targetTriple, error);
  if (!target) {
    getOperation().emitError()
        << "the host target '" << HostTargetDescription::triple
        << "' is not available: " << error;
    return nullptr;
  }
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      targetTriple, HostTargetDescription::cpu, HostTargetDescription::features,
      llvm::TargetOptions(), llvm::Reloc::PIC_));
}

LogicalResult CPUSerializer::optimizeModule(llvm::Module &module, int level) {
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  if (level < 0 || level > 3)
    return getOperation().emitError()
           << "optimization level " << level << " is not in 0..3";
  FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
  if (failed(machine))
    return getOperation().emitError()
           << "the host target '" << HostTargetDescription::triple
           << "' is not available";
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(*machine, tuning);
  // After inlining and simplification, the kernels' code sits in their
  // run_blocks functions; the vectorizers come next.
  builder.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
        passes.addPass(cpu::ArenaAliasScopesPass());
      });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes =
      level == 0 ? builder.buildO0DefaultPipeline(levels[0])
                 : builder.buildPerModuleDefaultPipeline(levels[level]);
  passes.run(module, modules);
  return success();
}

FailureOr<SmallVector<char, 0>>
CPUSerializer::moduleToObject(llvm::Module &llvmModule) {
  if (format == gpu::CompilationTarget::Offload)
    return ModuleToObject::moduleToObject(llvmModule);
  std::unique_ptr<llvm::TargetMachine> machine = createPICTargetMachine();
  if (!machine)
    return failure();
  llvmModule.setDataLayout(machine->createDataLayout());
  llvmModule.setTargetTriple(machine->getTargetTriple());

  SmallVector<char, 0> emitted;
  {
    llvm::raw_svector_ostream stream(emitted);
    llvm::legacy::PassManager codegen;
    llvm::CodeGenFileType fileType = format == gpu::CompilationTarget::Assembly
                                         ? llvm::CodeGenFileType::AssemblyFile
                                         : llvm::CodeGenFileType::ObjectFile;
    if (machine->addPassesToEmitFile(codegen, stream, nullptr, fileType)) {
      getOperation().emitError() << "the host target cannot emit code";
      return failure();
    }
    codegen.run(llvmModule);
  }
  if (format == gpu::CompilationTarget::Assembly)
    return emitted;
  return linkSharedObject(StringRef(emitted.data(), emitted.size()));
}

FailureOr<SmallVector<char, 0>>
CPUSerializer::linkSharedObject(StringRef object) {
  auto fail = [&](const Twine &message) {
    getOperation().emitError() << message;
    return failure();
  };
  llvm::ErrorOr<std::string> linker = llvm::sys::findProgramByName("ld");
  if (!linker)
    return fail("the cpu target needs the system linker 'ld' (Debian package "
                "binutils), which was not found on $PATH");

  llvm::SmallString<128> objectPath, libraryPath, logPath;
  if (llvm::sys::fs::createTemporaryFile("gpumem-cpu", "o", objectPath) ||
      llvm::sys::fs::createTemporaryFile("gpumem-cpu", "so", libraryPath) ||
      llvm::sys::fs::createTemporaryFile("gpumem-cpu", "log", logPath))
    return fail("cannot create temporary files for the cpu target");
  llvm::FileRemover removeObject(objectPath), removeLibrary(libraryPath),
      removeLog(logPath);
  {
    std::error_code error;
    llvm::raw_fd_ostream out(objectPath, error);
    if (error)
      return fail("cannot write " + objectPath + ": " + error.message());
    out << object;
  }

  StringRef args[] = {*linker,     "-shared",     "--hash-style=gnu",
                      "-z",        "noexecstack", "-o",
                      libraryPath, objectPath,    "-lm"};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string error;
  if (llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, redirects,
                                /*SecondsToWait=*/120, 0, &error) != 0) {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    return fail("linking the cpu kernels into a shared object failed: " +
                (log ? (*log)->getBuffer().trim() : StringRef(error)));
  }
  auto library = llvm::MemoryBuffer::getFile(libraryPath, /*IsText=*/false);
  if (!library)
    return fail("cannot read " + libraryPath);
  StringRef bytes = (*library)->getBuffer();
  return SmallVector<char, 0>(bytes.begin(), bytes.end());
}

} // namespace

namespace {

/// #gpumem.cpu's gpu::TargetAttrInterface, attached by
/// registerCPUTargetInterfaceExternalModels (as upstream attaches NVVM's).
struct CPUTargetAttrImpl
    : public gpu::TargetAttrInterface::FallbackModel<CPUTargetAttrImpl> {
  std::optional<SmallVector<char, 0>>
  serializeToObject(Attribute attribute, Operation *module,
                    const gpu::TargetOptions &options) const {
    if (!isa<gpu::GPUModuleOp>(module)) {
      module->emitError() << "the cpu target serializes gpu.module ops only";
      return std::nullopt;
    }
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    CPUSerializer serializer(*module, cast<CPUTargetAttr>(attribute), options);
    return serializer.run();
  }

  Attribute createObject(Attribute attribute, Operation *module,
                         const SmallVector<char, 0> &object,
                         const gpu::TargetOptions &options) const {
    // A fat binary means nothing on the host: it is the shared object.
    return makeTargetObject(attribute, object, options);
  }
};

} // namespace

void gpumem::registerCPUTargetInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, GPUMemDialect *) {
    CPUTargetAttr::attachInterface<CPUTargetAttrImpl>(*context);
  });
}
