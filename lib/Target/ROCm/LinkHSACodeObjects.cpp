//===----------------------------------------------------------------------===//
// gpumem-link-hsa-code-objects: AMDGPU assembly → HSA code object.
//
// Algorithm, per `#gpu.object<#rocdl.target<...>, assembly = ...>` of every
// gpu.binary (what gpu-module-to-binary{format=isa} made, device libraries
// already linked in by upstream's serializer):
//  1. Assemble it into an ELF relocatable object with LLVM's AMDGPU
//     assembler (upstream's ROCDL::assembleIsa, for the target's triple,
//     chip and features).
//  2. Link that with `ld.lld -shared --no-undefined` into a temporary file:
//     the HSA code object (ELF, EM_AMDGPU) hipModuleLoadData loads. An
//     undefined symbol is a link error here, not a load failure on a GPU.
//  3. Replace the object by the code object in `bin` form, keeping its
//     properties and kernel table.
// ld.lld is looked for once per run (findLdLld, or the `ld-lld` option):
// upstream's serializer wants `<toolkit>/llvm/bin/ld.lld`, which Debian's
// lld-22 is not (decision 121).
//===----------------------------------------------------------------------===//

#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Target/ROCm/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Target/LLVM/ROCDL/Utils.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#define DEBUG_TYPE "gpumem-link-hsa-code-objects"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLINKHSACODEOBJECTSPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// The relocatable object of AMDGPU assembly `isa`, assembled by LLVM's MC
/// layer as upstream's ROCDL::assembleIsa does, but with the assembler's
/// messages (an assembly string written by hand may be wrong) reported at
/// `binary` instead of printed on stderr without a location.
FailureOr<SmallVector<char, 0>> assemble(gpu::BinaryOp binary, StringRef isa,
                                         ROCDL::ROCDLTargetAttr target) {
  llvm::Triple triple(llvm::Triple::normalize(target.getTriple()));
  std::string error;
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    return binary.emitError() << "no AMDGPU assembler: " << error;
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(isa),
                             llvm::SMLoc());
  std::string messages;
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &diagnostic, void *context) {
        auto &text = *static_cast<std::string *>(context);
        if (!text.empty())
          text += "; ";
        text += ("line " + llvm::Twine(diagnostic.getLineNo()) + ": " +
                 diagnostic.getMessage())
                    .str();
      },
      &messages);
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers(
      backend->createMCRegInfo(triple));
  std::unique_ptr<llvm::MCAsmInfo> asmInfo(
      backend->createMCAsmInfo(*registers, triple, options));
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      backend->createMCSubtargetInfo(triple, target.getChip(),
                                     target.getFeatures()));
  std::unique_ptr<llvm::MCInstrInfo> instructions(backend->createMCInstrInfo());
  if (!registers || !asmInfo || !subtarget || !instructions)
    return binary.emitError()
           << "cannot set up the AMDGPU assembler for " << target.getChip();
  llvm::MCContext context(triple, asmInfo.get(), registers.get(),
                          subtarget.get(), &sources, &options);
  std::unique_ptr<llvm::MCObjectFileInfo> files(
      backend->createMCObjectFileInfo(context, /*PIC=*/false));
  context.setObjectFileInfo(files.get());
  SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::MCAsmBackend *asmBackend =
      backend->createMCAsmBackend(*subtarget, *registers, options);
  std::unique_ptr<llvm::MCStreamer> streamer(backend->createMCObjectStreamer(
      triple, context, std::unique_ptr<llvm::MCAsmBackend>(asmBackend),
      asmBackend->createObjectWriter(os),
      std::unique_ptr<llvm::MCCodeEmitter>(
          backend->createMCCodeEmitter(*instructions, context)),
      *subtarget));
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(sources, context, *streamer, *asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      backend->createMCAsmParser(*subtarget, *parser, *instructions, options));
  if (!targetParser)
    return binary.emitError()
           << "cannot set up the AMDGPU assembler for " << target.getChip();
  parser->setTargetParser(*targetParser);
  if (parser->Run(/*NoInitialTextSection=*/false) || !messages.empty())
    return binary.emitError()
           << "cannot assemble the AMDGPU assembly of gpu.binary @"
           << binary.getName() << ": " << messages;
  streamer.reset();
  return object;
}

/// Links the relocatable `object` with `ldLld` into an HSA code object;
/// on failure, reports ld.lld's first line of errors at `binary`.
FailureOr<std::string> linkCodeObject(gpu::BinaryOp binary, StringRef ldLld,
                                      ArrayRef<char> object) {
  auto fail = [&](const Twine &message) {
    binary.emitError() << "cannot link the HSA code object of gpu.binary @"
                       << binary.getName() << ": " << message;
    return failure();
  };
  int objectFd = -1;
  llvm::SmallString<128> objectPath, codeObjectPath, errorsPath;
  if (llvm::sys::fs::createTemporaryFile("gpumem-amdgpu", "o", objectFd,
                                         objectPath) ||
      llvm::sys::fs::createTemporaryFile("gpumem-amdgpu", "hsaco",
                                         codeObjectPath) ||
      llvm::sys::fs::createTemporaryFile("gpumem-ld-lld", "txt", errorsPath))
    return fail("cannot create temporary files");
  llvm::FileRemover removeObject(objectPath), removeCodeObject(codeObjectPath),
      removeErrors(errorsPath);
  {
    llvm::raw_fd_ostream os(objectFd, /*shouldClose=*/true);
    os << StringRef(object.data(), object.size());
  }
  StringRef arguments[] = {"ld.lld",   "-shared", "--no-undefined",
                           objectPath, "-o",      codeObjectPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(errorsPath),
                                          StringRef(errorsPath)};
  std::string executeError;
  int status = llvm::sys::ExecuteAndWait(ldLld, arguments, std::nullopt,
                                         redirects, 0, 0, &executeError);
  if (status != 0) {
    std::string firstLine = executeError;
    if (auto errors = llvm::MemoryBuffer::getFile(errorsPath)) {
      StringRef text = (*errors)->getBuffer().trim();
      if (!text.empty())
        firstLine = text.split('\n').first.str();
    }
    std::string message = (ldLld + " failed").str();
    if (!firstLine.empty())
      message += ": " + firstLine;
    return fail(message);
  }
  auto codeObject =
      llvm::MemoryBuffer::getFile(codeObjectPath, /*IsText=*/false);
  if (!codeObject)
    return fail("cannot read what " + ldLld + " wrote");
  StringRef bytes = (*codeObject)->getBuffer();
  // An HSA code object: a 64-bit little-endian ELF for EM_AMDGPU.
  if (bytes.size() < 20 ||
      !bytes.starts_with("\x7f"
                         "ELF") ||
      uint8_t(bytes[18]) != llvm::ELF::EM_AMDGPU)
    return fail(ldLld + " did not make an ELF file for EM_AMDGPU");
  return bytes.str();
}

struct LinkHSACodeObjectsPass
    : gpumem::impl::GPUMemLinkHSACodeObjectsPassBase<LinkHSACodeObjectsPass> {
  using Base::Base;
  void runOnOperation() override;
};

void LinkHSACodeObjectsPass::runOnOperation() {
  std::optional<std::string> linker;
  bool searched = false;
  WalkResult result = getOperation().walk([&](gpu::BinaryOp binary) {
    SmallVector<Attribute> objects;
    bool changed = false;
    for (Attribute attribute : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attribute);
      auto target = object
                        ? dyn_cast<ROCDL::ROCDLTargetAttr>(object.getTarget())
                        : nullptr;
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly) {
        objects.push_back(attribute);
        continue;
      }
      if (!searched) {
        if (ldLld.empty())
          linker = gpumem::findLdLld(toolkit);
        else if (llvm::sys::fs::can_execute(ldLld))
          linker = ldLld.getValue();
        searched = true;
        LLVM_DEBUG(llvm::dbgs()
                   << "ld.lld: " << linker.value_or("(none)") << "\n");
      }
      if (!linker) {
        InFlightDiagnostic diagnostic =
            binary.emitError()
            << "linking the HSA code object of gpu.binary @" << binary.getName()
            << " needs ld.lld, which was not found";
        if (!ldLld.empty())
          diagnostic << " at '" << ldLld << "'";
        diagnostic << " (Debian package " << gpumem::kLdLldPackage << ")";
        return WalkResult::interrupt();
      }
      ROCDL::SerializeGPUModuleBase::init();
      FailureOr<SmallVector<char, 0>> relocatable =
          assemble(binary, object.getObject().getValue(), target);
      if (failed(relocatable))
        return WalkResult::interrupt();
      FailureOr<std::string> codeObject =
          linkCodeObject(binary, *linker, *relocatable);
      if (failed(codeObject))
        return WalkResult::interrupt();
      objects.push_back(gpu::ObjectAttr::get(
          binary.getContext(), target, gpu::CompilationTarget::Binary,
          StringAttr::get(binary.getContext(), *codeObject),
          object.getProperties(), object.getKernels()));
      changed = true;
    }
    if (changed)
      binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    signalPassFailure();
}

} // namespace
