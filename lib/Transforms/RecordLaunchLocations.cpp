//===----------------------------------------------------------------------===//
// gpumem-record-launch-locations: host code tells the runtime where each
// launch is in the source.
//
// Algorithm: for every gpu.launch_func outside gpu.modules, a private global
// string holds "file:line:col" of the launch (one per distinct location),
// and a call of the runtimes' gpumemLaunchLocation with its address goes
// right before the launch. The runtime names that location in any error
// during the launch and forgets it when the launch returns. With
// memory-calls, gpu.alloc, gpu.dealloc, gpu.memcpy and gpu.memset get a
// call of gpumemMemoryCallLocation the same way.
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

constexpr llvm::StringLiteral kRecordLaunch = "gpumemLaunchLocation";
constexpr llvm::StringLiteral kRecordMemoryCall = "gpumemMemoryCallLocation";

struct RecordLaunchLocationsPass
    : gpumem::impl::GPUMemRecordLaunchLocationsPassBase<
          RecordLaunchLocationsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> launches;
    module.walk([&](Operation *op) {
      if (op->getParentOfType<gpu::GPUModuleOp>())
        return;
      if (isa<gpu::LaunchFuncOp>(op))
        launches.push_back(op);
      else if (memoryCalls && isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp,
                                  gpu::MemsetOp, gpu::HostRegisterOp>(op))
        memoryCallOps.push_back(op);
    });
    record(launches, kRecordLaunch);
    record(memoryCallOps, kRecordMemoryCall);
  }

  SmallVector<Operation *> memoryCallOps;
  llvm::StringMap<LLVM::GlobalOp> globals;

  /// Calls `function` with "file:line:col" of each of `ops` right before it.
  void record(ArrayRef<Operation *> ops, StringRef function) {
    if (ops.empty())
      return;
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto record = module.lookupSymbol<LLVM::LLVMFuncOp>(function);
    if (!record)
      record = LLVM::LLVMFuncOp::create(
          builder, module.getLoc(), function,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {ptr}));
    SymbolTable symbols(module);
    for (Operation *op : ops) {
      std::optional<std::string> found = gpumem::fileLineColumn(op->getLoc());
      if (!found)
        continue;
      std::string where = *found;
      LLVM::GlobalOp &global = globals[where];
      if (!global) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(module.getBody());
        std::string text = where + '\0';
        global = LLVM::GlobalOp::create(
            builder, op->getLoc(),
            LLVM::LLVMArrayType::get(builder.getI8Type(), text.size()),
            /*isConstant=*/true, LLVM::Linkage::Private,
            "__gpumem_launch_location", builder.getStringAttr(text));
        symbols.insert(global); // renamed when the name is taken
      }
      OpBuilder at(op);
      Value address = LLVM::AddressOfOp::create(at, op->getLoc(), global);
      LLVM::CallOp::create(at, op->getLoc(), record, ValueRange{address});
    }
  }
};

} // namespace
