//===----------------------------------------------------------------------===//
// my-tool: the program of README.md's consumer ("Using gpumem from another
// project"), built against an installed prefix with README's CMakeLists.txt
// block (test/Install/out-of-tree.test). It calls gpumem's C++ API the way a
// compiler that embeds gpumem would: parses FILE, hoists its workgroup
// allocations and prints each launch's workgroup buffers, then lowers the
// module with the cpu pipeline and prints the gpu.binary ops it made.
//===----------------------------------------------------------------------===//

#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: my-tool FILE.mlir\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  registry.insert<gpumem::GPUMemDialect>();
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  mlir::PassManager hoist(&context);
  hoist.addPass(gpumem::createGPUMemHoistWorkgroupAllocsPass());
  if (mlir::failed(hoist.run(*module)))
    return 1;
  module->walk([](mlir::gpu::LaunchOp launch) {
    llvm::outs() << "gpu.launch: " << launch.getWorkgroupAttributions().size()
                 << " workgroup buffer(s)\n";
  });

  mlir::PassManager lower(&context);
  gpumem::buildCpuPipeline(lower, gpumem::CpuPipelineOptions());
  if (mlir::failed(lower.run(*module)))
    return 1;
  module->walk([](mlir::gpu::BinaryOp binary) {
    llvm::outs() << "gpu.binary @" << binary.getName() << ": "
                 << binary.getObjects().size() << " object(s)\n";
  });
  return 0;
}
