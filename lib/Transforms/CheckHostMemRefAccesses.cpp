//===----------------------------------------------------------------------===//
// gpumem-check-host-memref-accesses: --sanitize's memcheck on host code.
//
// Algorithm, on host code (outside gpu.modules): for each memref.load,
// memref.store, vector.load and vector.store of a ranked memref,
//   ok = and over d of (index_d <u size_d), where for the last dimension of
//        a vector access index + (length - 1) takes the index's place
//   scf.if ok { the access } else {
//     gpumemMemHostAccessError(what, "file:line:col", d, index_d, size_d)
//       for the first d that fails (a chain of selects finds it)
//     a load yields zero }
// `what` ("store to memref<8xf32>") and the location are private global
// strings, one per distinct text. The runtime reports as it does a
// kernel's access (runtime/common/SanitizerReports.cpp), once per site,
// and fails the program at exit.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/SourceLocation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCHECKHOSTMEMREFACCESSESPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kReport = "gpumemMemHostAccessError";

/// An access to check: its memref, indices, the elements it covers along
/// the last dimension, and the words reports use.
struct Access {
  Operation *op;
  Value memref;
  ValueRange indices;
  int64_t lastExtent;
  std::string what;
};

std::string words(StringRef verb, Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << verb << type;
  return text;
}

std::optional<Access> describe(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return Access{op, load.getMemRef(), load.getIndices(), 1,
                  words("load from ", load.getMemRefType())};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return Access{op, store.getMemRef(), store.getIndices(), 1,
                  words("store to ", store.getMemRefType())};
  if (auto load = dyn_cast<vector::LoadOp>(op);
      load && load.getVectorType().getRank() == 1)
    return Access{op, load.getBase(), load.getIndices(),
                  load.getVectorType().getDimSize(0),
                  words("load from ", load.getMemRefType())};
  if (auto store = dyn_cast<vector::StoreOp>(op);
      store && store.getVectorType().getRank() == 1)
    return Access{op, store.getBase(), store.getIndices(),
                  store.getVectorType().getDimSize(0),
                  words("store to ", store.getMemRefType())};
  return std::nullopt;
}

struct CheckHostMemRefAccessesPass
    : gpumem::impl::GPUMemCheckHostMemRefAccessesPassBase<
          CheckHostMemRefAccessesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Access> accesses;
    module.walk([&](Operation *op) {
      if (op->getParentOfType<gpu::GPUModuleOp>())
        return;
      std::optional<Access> access = describe(op);
      if (access && isa<MemRefType>(access->memref.getType()) &&
          !access->indices.empty())
        accesses.push_back(*access);
    });
    if (accesses.empty())
      return;
    MLIRContext *context = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto i64 = IntegerType::get(context, 64);
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    report = module.lookupSymbol<LLVM::LLVMFuncOp>(kReport);
    if (!report)
      report = LLVM::LLVMFuncOp::create(
          builder, module.getLoc(), kReport,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                      {ptr, ptr, i64, i64, i64}));
    SymbolTable table(module);
    symbols = &table;
    for (const Access &access : accesses)
      check(access);
    symbols = nullptr;
    globals.clear();
  }

  /// The address of a private global holding `text`.
  Value text(OpBuilder &builder, Location loc, StringRef text) {
    LLVM::GlobalOp &global = globals[text];
    if (!global) {
      ModuleOp module = getOperation();
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(module.getBody());
      std::string bytes = text.str() + '\0';
      global = LLVM::GlobalOp::create(
          builder, loc,
          LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size()),
          /*isConstant=*/true, LLVM::Linkage::Private, "__gpumem_host_access",
          builder.getStringAttr(bytes));
      symbols->insert(global); // renamed when the name is taken
    }
    return LLVM::AddressOfOp::create(builder, loc, global);
  }

  void check(const Access &access) {
    Operation *op = access.op;
    Location loc = op->getLoc();
    OpBuilder builder(op);
    auto i64 = builder.getI64Type();
    Value ok, failingDim, failingIndex, failingSize;
    unsigned rank = access.indices.size();
    // Innermost first, so that the first failing dimension wins the chain.
    for (unsigned k = rank; k-- > 0;) {
      Value index = access.indices[k];
      if (k == rank - 1 && access.lastExtent > 1)
        index = arith::AddIOp::create(builder, loc, index,
                                      arith::ConstantIndexOp::create(
                                          builder, loc, access.lastExtent - 1));
      Value size = memref::DimOp::create(builder, loc, access.memref, k);
      Value inside = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, index, size);
      Value dim = arith::ConstantIntOp::create(builder, loc, i64, k);
      Value index64 = arith::IndexCastOp::create(builder, loc, i64, index);
      Value size64 = arith::IndexCastOp::create(builder, loc, i64, size);
      if (!ok) {
        ok = inside;
        failingDim = dim, failingIndex = index64, failingSize = size64;
        continue;
      }
      ok = arith::AndIOp::create(builder, loc, ok, inside);
      auto pick = [&](Value here, Value later) {
        return arith::SelectOp::create(builder, loc, inside, later, here);
      };
      failingDim = pick(dim, failingDim);
      failingIndex = pick(index64, failingIndex);
      failingSize = pick(size64, failingSize);
    }
    std::string where = gpumem::fileLineColumn(loc).value_or("");
    bool hasResult = op->getNumResults() == 1;
    auto branch = scf::IfOp::create(builder, loc, op->getResultTypes(), ok,
                                    /*withElseRegion=*/true);
    // Then: the access itself.
    builder.setInsertionPointToStart(&branch.getThenRegion().front());
    Operation *moved = builder.clone(*op);
    if (hasResult)
      scf::YieldOp::create(builder, loc, moved->getResult(0));
    else
      branch.getThenRegion().front().getTerminator()->moveAfter(moved);
    // Else: the report, and zero for a load.
    Block &otherwise = branch.getElseRegion().front();
    builder.setInsertionPointToStart(&otherwise);
    LLVM::CallOp::create(builder, loc, report,
                         ValueRange{text(builder, loc, access.what),
                                    text(builder, loc, where), failingDim,
                                    failingIndex, failingSize});
    if (hasResult) {
      Type type = op->getResult(0).getType();
      Value zero = arith::ConstantOp::create(builder, loc, type,
                                             builder.getZeroAttr(type));
      scf::YieldOp::create(builder, loc, zero);
    }
    if (hasResult)
      op->getResult(0).replaceAllUsesWith(branch.getResult(0));
    op->erase();
  }

  LLVM::LLVMFuncOp report;
  SymbolTable *symbols = nullptr;
  llvm::StringMap<LLVM::GlobalOp> globals;
};

} // namespace
