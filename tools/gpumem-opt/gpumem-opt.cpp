//===----------------------------------------------------------------------===//
// gpumem-opt: mlir-opt with every upstream dialect, pass and extension, plus
// gpumem's passes and pipelines. It runs as mlir-opt does, with one
// addition: an LLVM fatal error in a code generator is a located error
// (gpumem/Support/BackendErrors.h), so the pass manager records which op
// each pass runs on.
//===----------------------------------------------------------------------===//

#include "gpumem/InitAll.h"
#include "gpumem/Support/BackendErrors.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  gpumem::registerAllGPUMemPasses();
  gpumem::registerGPUMemPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  gpumem::registerAllGPUMemExtensions(registry);
  // gpu-module-to-binary translates device modules to LLVM IR.
  mlir::registerAllGPUToLLVMIRTranslations(registry);

  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "gpumem optimizer driver\n", registry);
  const mlir::MlirOptMainConfig base =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (base.shouldShowDialects() || base.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  llvm::InitLLVM init(argc, argv);
  mlir::MlirOptMainConfig config = base;
  config.setPassPipelineSetupFn([&base](mlir::PassManager &pm) {
    if (mlir::failed(base.setupPassPipeline(pm)))
      return mlir::failure();
    gpumem::addBackendErrorLocations(pm);
    return mlir::success();
  });
  gpumem::installBackendErrorHandler(input);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(input, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  if (mlir::failed(
          mlir::MlirOptMain(out->os(), std::move(file), registry, config)))
    return EXIT_FAILURE;
  out->keep();
  return EXIT_SUCCESS;
}
