//===----------------------------------------------------------------------===//
// The host-code helpers of HostCode.h (cpu and cuda-emu targets).
//===----------------------------------------------------------------------===//

#include "HostCode.h"
#include "ReportingServices.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Transforms/SourceLocation.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Rewrite/PatternApplicator.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

#include <cstddef>

using namespace mlir;

std::unique_ptr<LLVMTypeConverter>
gpumem::hostkernel::createHostTypeConverter(MLIRContext *context) {
  auto converter = std::make_unique<LLVMTypeConverter>(context);
  populateGpuMemorySpaceAttributeConversions(
      *converter, [](gpu::AddressSpace) -> unsigned { return 0; });
  converter->addTypeAttributeConversion(
      [](BaseMemRefType type, IntegerAttr) -> Attribute {
        return IntegerAttr::get(IntegerType::get(type.getContext(), 64), 0);
      });
  return converter;
}

std::string gpumem::hostkernel::formatLocation(Location loc) {
  return fileLineColumn(loc).value_or("unknown location");
}

llvm::DenseSet<Operation *> gpumem::hostkernel::findSynchronizingFunctions(
    gpu::GPUModuleOp module, function_ref<bool(Operation *)> synchronizes) {
  SymbolTable symbols(module);
  llvm::DenseSet<Operation *> found;
  llvm::DenseMap<Operation *, SmallVector<Operation *>> callers;
  SmallVector<Operation *> worklist;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    func->walk([&](Operation *op) {
      if (synchronizes(op) && found.insert(func).second)
        worklist.push_back(func);
      if (auto call = dyn_cast<CallOpInterface>(op))
        if (auto symbol = dyn_cast<SymbolRefAttr>(call.getCallableForCallee()))
          if (Operation *callee = symbols.lookup(symbol.getLeafReference()))
            callers[callee].push_back(func);
    });
  }
  while (!worklist.empty())
    for (Operation *caller : callers[worklist.pop_back_val()])
      if (found.insert(caller).second)
        worklist.push_back(caller);
  return found;
}

Value gpumem::hostkernel::ContextAccess::address(Value base, int64_t offset) {
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  return LLVM::GEPOp::create(builder, loc, ptr, builder.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset)});
}

Value gpumem::hostkernel::ContextAccess::load(Value base, int64_t offset,
                                              Type type) {
  return LLVM::LoadOp::create(builder, loc, type, address(base, offset));
}

Value gpumem::hostkernel::ContextAccess::loadPointer(int64_t offset) {
  return load(context, offset,
              LLVM::LLVMPointerType::get(builder.getContext()));
}

Value gpumem::hostkernel::ContextAccess::call(RuntimeService service,
                                              ValueRange args) {
  Value services = loadPointer(offsetof(GPUMemThreadContext, services));
  Value function = load(services, service.offset,
                        LLVM::LLVMPointerType::get(builder.getContext()));
  SmallVector<Value> operands{function};
  llvm::append_range(operands, args);
  auto call = LLVM::CallOp::create(
      builder, loc, service.type(builder.getContext()), operands);
  // --sanitize's services that only look at the context and the addresses
  // they get keep no pointer: LLVM may then keep the context's fields in
  // registers around them and still tell the arena from other memory.
  if (isReportingServiceOffset(service.offset)) {
    SmallVector<Attribute> argumentAttributes;
    for (Value arg : args)
      argumentAttributes.push_back(
          isa<LLVM::LLVMPointerType>(arg.getType())
              ? builder.getDictionaryAttr(builder.getNamedAttr(
                    LLVM::LLVMDialect::getNoCaptureAttrName(),
                    builder.getUnitAttr()))
              : builder.getDictionaryAttr({}));
    call.setArgAttrsAttr(builder.getArrayAttr(argumentAttributes));
  }
  return call.getNumResults() ? call.getResult() : Value();
}

Value gpumem::hostkernel::getStringPointer(OpBuilder &builder, Location loc,
                                           Operation *symbolTableOp,
                                           StringRef text) {
  std::string name;
  llvm::raw_string_ostream(name)
      << "__gpumem_str_"
      << llvm::format_hex_no_prefix(llvm::hash_value(text), 16);
  auto global = dyn_cast_if_present<LLVM::GlobalOp>(
      SymbolTable::lookupSymbolIn(symbolTableOp, name));
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&symbolTableOp->getRegion(0).front());
    std::string data = text.str();
    data.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), data.size());
    global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Private, name,
                                    builder.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

Value gpumem::hostkernel::getLocationString(OpBuilder &builder, Location loc,
                                            Operation *symbolTableOp) {
  return getStringPointer(builder, loc, symbolTableOp, formatLocation(loc));
}

void gpumem::hostkernel::makeInternal(Operation *func) {
  SymbolTable::setSymbolVisibility(func, SymbolTable::Visibility::Private);
  func->setAttr(
      "llvm.linkage",
      LLVM::LinkageAttr::get(func->getContext(), LLVM::Linkage::Internal));
}

void gpumem::hostkernel::applyPatternsToEachOp(
    Operation *root, const FrozenRewritePatternSet &patterns) {
  PatternApplicator applicator(patterns);
  applicator.applyDefaultCostModel();
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (op != root)
      ops.push_back(op);
  });
  PatternRewriter rewriter(root->getContext());
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    (void)applicator.matchAndRewrite(op, rewriter);
  }
}

Value gpumem::hostkernel::loadKernelParam(OpBuilder &builder, Location loc,
                                          Value params, int32_t index,
                                          Type type) {
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  Value slot = LLVM::GEPOp::create(builder, loc, ptr, ptr, params,
                                   ArrayRef<LLVM::GEPArg>{index});
  Value address = LLVM::LoadOp::create(builder, loc, ptr, slot);
  return LLVM::LoadOp::create(builder, loc, type, address);
}
