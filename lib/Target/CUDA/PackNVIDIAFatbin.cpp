//===----------------------------------------------------------------------===//
// gpumem-pack-nvidia-fatbin: one fatbin for a gpu.module compiled for
// several NVIDIA chips.
//
// Algorithm, per gpu.module with more than one #nvvm.target (oldest chip
// first, as gpumem-attach-nvvm-target orders them):
//  1. Each target's own serializer (what gpu-module-to-binary calls) makes
//     the chip's cubin (ptxas); the newest target's also makes its PTX.
//  2. The cubins and the PTX are written to temporary files and packed by
//     the toolkit's fatbinary (`--image3=kind=elf,sm=NN,file=...` each,
//     `kind=ptx` for the PTX).
//  3. The module becomes a gpu.binary of the cubins, the PTX and the
//     fatbin, in that order, whose #gpu.select_object embeds the fatbin.
// Modules with one target are left to gpu-module-to-binary.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <list>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMPACKNVIDIAFATBINPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// A temporary file holding `bytes`, removed with this object.
struct TemporaryFile {
  llvm::SmallString<128> path;
  std::optional<llvm::FileRemover> remover;

  LogicalResult write(StringRef suffix, ArrayRef<char> bytes) {
    int fd;
    if (llvm::sys::fs::createTemporaryFile("gpumem-fatbin", suffix, fd, path))
      return failure();
    remover.emplace(path);
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(bytes.data(), bytes.size());
    return success(!os.has_error());
  }
};

/// "90" of sm_90, "90a" of sm_90a: what fatbinary's sm= takes.
StringRef smOf(NVVM::NVVMTargetAttr target) {
  StringRef chip = target.getChip();
  chip.consume_front("sm_");
  return chip;
}

struct PackNVIDIAFatbinPass
    : gpumem::impl::GPUMemPackNVIDIAFatbinPassBase<PackNVIDIAFatbinPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Replaces `module` by its gpu.binary, or fails after an error.
  LogicalResult pack(gpu::GPUModuleOp module, StringRef fatbinary,
                     const gpu::TargetOptions &cubins,
                     const gpu::TargetOptions &ptx);
};

LogicalResult PackNVIDIAFatbinPass::pack(gpu::GPUModuleOp module,
                                         StringRef fatbinary,
                                         const gpu::TargetOptions &cubins,
                                         const gpu::TargetOptions &ptx) {
  SmallVector<Attribute> objects;
  // A list: a remover must not move while its file is in use.
  std::list<TemporaryFile> files;
  SmallVector<std::string> images;
  NVVM::NVVMTargetAttr newest;
  auto serialize = [&](NVVM::NVVMTargetAttr target,
                       const gpu::TargetOptions &options, StringRef kind,
                       StringRef suffix) -> LogicalResult {
    auto serializer = cast<gpu::TargetAttrInterface>(target);
    std::optional<SmallVector<char, 0>> bytes =
        serializer.serializeToObject(module, options);
    if (!bytes)
      return module.emitError()
             << "cannot compile the module for " << target.getChip();
    objects.push_back(serializer.createObject(module, *bytes, options));
    files.emplace_back();
    if (failed(files.back().write(suffix, *bytes)))
      return module.emitError() << "cannot write a temporary file";
    images.push_back(("--image3=kind=" + kind + ",sm=" + smOf(target) +
                      ",file=" + files.back().path)
                         .str());
    return success();
  };
  for (Attribute attribute : module.getTargetsAttr()) {
    newest = cast<NVVM::NVVMTargetAttr>(attribute);
    if (failed(serialize(newest, cubins, "elf", "cubin")))
      return failure();
  }
  if (failed(serialize(newest, ptx, "ptx", "ptx")))
    return failure();

  llvm::SmallString<128> output, log;
  if (llvm::sys::fs::createTemporaryFile("gpumem", "fatbin", output) ||
      llvm::sys::fs::createTemporaryFile("gpumem-fatbinary", "log", log))
    return module.emitError() << "cannot create a temporary file";
  llvm::FileRemover removeOutput(output), removeLog(log);
  std::string create = ("--create=" + output).str();
  SmallVector<StringRef> arguments = {fatbinary, "-64", create};
  for (const std::string &image : images)
    arguments.push_back(image);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string error;
  if (llvm::sys::ExecuteAndWait(fatbinary, arguments, std::nullopt, redirects,
                                0, 0, &error) != 0) {
    auto message = llvm::MemoryBuffer::getFile(log);
    return module.emitError()
           << fatbinary << " failed: "
           << (message ? (*message)->getBuffer().trim() : StringRef(error));
  }
  auto fatbin = llvm::MemoryBuffer::getFile(output);
  if (!fatbin)
    return module.emitError() << "cannot read " << output;
  MLIRContext *context = &getContext();
  objects.push_back(gpu::ObjectAttr::get(
      context, newest, gpu::CompilationTarget::Fatbin,
      StringAttr::get(context, (*fatbin)->getBuffer()), nullptr, nullptr));

  OpBuilder builder(module);
  auto select = gpu::SelectObjectAttr::get(
      context, builder.getI32IntegerAttr(objects.size() - 1));
  gpu::BinaryOp::create(builder, module.getLoc(), module.getName(), select,
                        builder.getArrayAttr(objects));
  module.erase();
  return success();
}

void PackNVIDIAFatbinPass::runOnOperation() {
  ModuleOp top = getOperation();
  SmallVector<gpu::GPUModuleOp> modules;
  top.walk([&](gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (targets && targets.size() > 1 &&
        llvm::all_of(targets, llvm::IsaPred<NVVM::NVVMTargetAttr>))
      modules.push_back(module);
  });
  if (modules.empty())
    return;
  std::optional<gpumem::CudaToolkit> found = gpumem::findCudaToolkit(toolkit);
  llvm::SmallString<128> fatbinary(found ? found->root : "");
  llvm::sys::path::append(fatbinary, "bin", "fatbinary");
  if (!found || !llvm::sys::fs::can_execute(fatbinary)) {
    modules.front().emitError()
        << "cubins of several chips are packed by the CUDA toolkit's "
           "fatbinary, which was not found";
    return signalPassFailure();
  }
  // What gpu-module-to-binary gives the serializers: the toolkit, and the
  // symbol table of the module, built when one asks for it.
  std::optional<SymbolTable> symbols;
  auto getSymbols = [&]() -> SymbolTable * {
    if (!symbols)
      symbols.emplace(top);
    return &*symbols;
  };
  gpu::TargetOptions cubins(found->root, {}, "", "",
                            gpu::CompilationTarget::Binary, getSymbols);
  gpu::TargetOptions ptx(found->root, {}, "", "",
                         gpu::CompilationTarget::Assembly, getSymbols);
  for (gpu::GPUModuleOp module : modules)
    if (failed(pack(module, fatbinary, cubins, ptx)))
      return signalPassFailure();
}

} // namespace
