//===----------------------------------------------------------------------===//
// gpumem-record-launch-locations: host code tells the runtime where each
// launch is in the source.
//
// Algorithm: for every gpu.launch_func outside gpu.modules, a private global
// string holds "file:line:col" of the launch (one per distinct location),
// and a call of the runtimes' gpumemLaunchLocation with its address goes
// right before the launch. The runtime names that location in any error
// during the launch and forgets it when the launch returns.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/SourceLocation.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMRECORDLAUNCHLOCATIONSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kRecord = "gpumemLaunchLocation";

struct RecordLaunchLocationsPass
    : gpumem::impl::GPUMemRecordLaunchLocationsPassBase<
          RecordLaunchLocationsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (!launch->getParentOfType<gpu::GPUModuleOp>())
        launches.push_back(launch);
    });
    if (launches.empty())
      return;
    MLIRContext *context = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto record = module.lookupSymbol<LLVM::LLVMFuncOp>(kRecord);
    if (!record)
      record = LLVM::LLVMFuncOp::create(
          builder, module.getLoc(), kRecord,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {ptr}));
    SymbolTable symbols(module);
    llvm::StringMap<LLVM::GlobalOp> globals;
    for (gpu::LaunchFuncOp launch : launches) {
      std::optional<std::string> found =
          gpumem::fileLineColumn(launch.getLoc());
      if (!found)
        continue;
      std::string where = *found;
      LLVM::GlobalOp &global = globals[where];
      if (!global) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(module.getBody());
        std::string text = where + '\0';
        global = LLVM::GlobalOp::create(
            builder, launch.getLoc(),
            LLVM::LLVMArrayType::get(builder.getI8Type(), text.size()),
            /*isConstant=*/true, LLVM::Linkage::Private,
            "__gpumem_launch_location", builder.getStringAttr(text));
        symbols.insert(global); // renamed when the name is taken
      }
      OpBuilder at(launch);
      Value address = LLVM::AddressOfOp::create(at, launch.getLoc(), global);
      LLVM::CallOp::create(at, launch.getLoc(), record, ValueRange{address});
    }
  }
};

} // namespace
