//===----------------------------------------------------------------------===//
// consumer-opt: how another project's opt tool takes gpumem in. Upstream's
// dialects, passes and translations, then gpumem's dialect, passes and
// pipelines, all from the installed tree (find_package(gpumem)).
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
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  gpumem::registerAllGPUMemExtensions(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "an out-of-tree tool with gpumem's passes\n", registry));
}
