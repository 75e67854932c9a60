//===----------------------------------------------------------------------===//
// gpumem-opt: mlir-opt with every upstream dialect, pass and extension, plus
// gpumem's passes and pipelines.
//===----------------------------------------------------------------------===//

#include "gpumem/Conversion/Passes.h"
#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  gpumem::registerGPUMemPasses();
  gpumem::registerGPUMemConversionPasses();
  gpumem::registerGPUMemPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<gpumem::GPUMemDialect>();
  // gpu-module-to-binary translates device modules to LLVM IR.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "gpumem optimizer driver\n", registry));
}
