//===----------------------------------------------------------------------===//
// gpumem-opt: mlir-opt with every upstream dialect, pass and extension, plus
// gpumem's passes and pipelines.
//===----------------------------------------------------------------------===//

#include "gpumem/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

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
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "gpumem optimizer driver\n", registry));
}
