//===----------------------------------------------------------------------===//
// Helpers shared by the GPU-to-CPU conversion passes.
//===----------------------------------------------------------------------===//

#include "HostCode.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Transforms/SourceLocation.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

#include <cstddef>

using namespace mlir;

std::unique_ptr<LLVMTypeConverter>
gpumem::cpu::createHostTypeConverter(MLIRContext *context) {
  auto converter = std::make_unique<LLVMTypeConverter>(context);
  populateGpuMemorySpaceAttributeConversions(
      *converter, [](gpu::AddressSpace) -> unsigned { return 0; });
  converter->addTypeAttributeConversion(
      [](BaseMemRefType type, IntegerAttr) -> Attribute {
        return IntegerAttr::get(IntegerType::get(type.getContext(), 64), 0);
      });
  return converter;
}

std::string gpumem::cpu::formatLocation(Location loc) {
  return fileLineColumn(loc).value_or("unknown location");
}

llvm::DenseSet<Operation *> gpumem::cpu::findSynchronizingFunctions(
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

Value gpumem::cpu::ContextAccess::address(Value base, int64_t offset) {
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  return LLVM::GEPOp::create(builder, loc, ptr, builder.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset)});
}

Value gpumem::cpu::ContextAccess::load(Value base, int64_t offset, Type type) {
  return LLVM::LoadOp::create(builder, loc, type, address(base, offset));
}

Value gpumem::cpu::ContextAccess::loadPointer(int64_t offset) {
  return load(context, offset, LLVM::LLVMPointerType::get(builder.getContext()));
}

Value gpumem::cpu::ContextAccess::callService(int64_t offset,
                                              LLVM::LLVMFunctionType type,
                                              ValueRange args) {
  Value services = loadPointer(offsetof(GPUMemThreadContext, services));
  Value function =
      load(services, offset, LLVM::LLVMPointerType::get(builder.getContext()));
  SmallVector<Value> operands{function};
  llvm::append_range(operands, args);
  auto call = LLVM::CallOp::create(builder, loc, type, operands);
  return call.getNumResults() ? call.getResult() : Value();
}

Value gpumem::cpu::ContextAccess::callService(int64_t offset, Type result,
                                              ValueRange args) {
  SmallVector<Type> argTypes(args.getTypes());
  return callService(offset, LLVM::LLVMFunctionType::get(result, argTypes),
                     args);
}

Value gpumem::cpu::getStringPointer(OpBuilder &builder, Location loc,
                                    Operation *symbolTableOp, StringRef text) {
  std::string name;
  llvm::raw_string_ostream(name)
      << "__gpumem_str_" << llvm::format_hex_no_prefix(llvm::hash_value(text), 16);
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

void gpumem::cpu::makeInternal(Operation *func) {
  SymbolTable::setSymbolVisibility(func, SymbolTable::Visibility::Private);
  func->setAttr(
      "llvm.linkage",
      LLVM::LinkageAttr::get(func->getContext(), LLVM::Linkage::Internal));
}

LogicalResult gpumem::cpu::emitCPUModuleDescriptor(gpu::GPUModuleOp module) {
  auto table = module->getAttrOfType<ArrayAttr>(cpu::kKernelTableAttr);
  if (!table)
    return module.emitOpError()
           << "has no kernel table; run gpumem-lower-gpu-to-cpu-abi first";
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i32 = IntegerType::get(context, 32);
  auto i64 = IntegerType::get(context, 64);
  auto kernelType = LLVM::LLVMStructType::getLiteral(
      context, {ptr, ptr, ptr, i64, i32, i32, ptr, i64, ptr, ptr, i32, i32, ptr,
                LLVM::LLVMArrayType::get(i32, 3), i32});
  auto tableType = LLVM::LLVMArrayType::get(kernelType, table.size());
  auto moduleType = LLVM::LLVMStructType::getLiteral(context, {i32, i32, ptr});

  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  // Each kernel's param sizes, an i32 array of its own.
  SmallVector<LLVM::GlobalOp> paramBytes;
  for (auto [index, entry] : llvm::enumerate(table)) {
    auto bytes =
        cast<DictionaryAttr>(entry).getAs<DenseI32ArrayAttr>("param_bytes");
    if (!bytes || bytes.empty()) {
      paramBytes.push_back(nullptr);
      continue;
    }
    auto type = LLVM::LLVMArrayType::get(i32, bytes.size());
    auto values = DenseIntElementsAttr::get(
        RankedTensorType::get({int64_t(bytes.size())}, i32),
        bytes.asArrayRef());
    paramBytes.push_back(LLVM::GlobalOp::create(
        builder, loc, type, /*isConstant=*/true, LLVM::Linkage::Private,
        "__gpumem_param_bytes_" + std::to_string(index), values));
  }
  auto kernels = LLVM::GlobalOp::create(
      builder, loc, tableType, /*isConstant=*/true, LLVM::Linkage::Private,
      "__gpumem_cpu_kernels", Attribute());
  {
    Block *init = builder.createBlock(&kernels.getInitializerRegion());
    builder.setInsertionPointToStart(init);
    Value array = LLVM::PoisonOp::create(builder, loc, tableType);
    for (auto [index, entry] : llvm::enumerate(table)) {
      auto dict = cast<DictionaryAttr>(entry);
      auto symbol = [&](StringRef key) -> Value {
        auto ref = dict.getAs<FlatSymbolRefAttr>(key);
        if (!ref)
          return LLVM::ZeroOp::create(builder, loc, ptr);
        return LLVM::AddressOfOp::create(builder, loc, ptr, ref.getValue());
      };
      // An optional integer entry, 0 when absent.
      auto integerOrZero = [&](Type type, StringRef key) -> Value {
        auto value = dict.getAs<IntegerAttr>(key);
        return LLVM::ConstantOp::create(builder, loc, type,
                                        value ? value.getInt() : 0);
      };
      auto chip = dict.getAs<StringAttr>("chip");
      SmallVector<int32_t, 3> known(3, 0);
      if (auto sizes = dict.getAs<DenseI32ArrayAttr>("known_block_size"))
        known.assign(sizes.asArrayRef().begin(), sizes.asArrayRef().end());
      Value fields[] = {
          cpu::getStringPointer(builder, loc, module,
                                dict.getAs<StringAttr>("name").getValue()),
          symbol("run_thread"),
          symbol("run_blocks"),
          LLVM::ConstantOp::create(builder, loc, i64,
                                   dict.getAs<IntegerAttr>("shared_bytes")),
          LLVM::ConstantOp::create(
              builder, loc, i32,
              dict.getAs<BoolAttr>("needs_fibers").getValue() ? 1 : 0),
          LLVM::ConstantOp::create(builder, loc, i32,
                                   dict.getAs<IntegerAttr>("num_params")),
          chip ? cpu::getStringPointer(builder, loc, module, chip.getValue())
               : LLVM::ZeroOp::create(builder, loc, ptr).getResult(),
          integerOrZero(i64, "max_shared_bytes"),
          symbol("start_coroutine"),
          symbol("resume_coroutine"),
          LLVM::ConstantOp::create(
              builder, loc, i32,
              dict.getAs<BoolAttr>("barriers_only") &&
                      dict.getAs<BoolAttr>("barriers_only").getValue()
                  ? 1
                  : 0),
          integerOrZero(i32, "checks"),
          paramBytes[index]
              ? LLVM::AddressOfOp::create(builder, loc, paramBytes[index])
                    .getResult()
              : LLVM::ZeroOp::create(builder, loc, ptr).getResult(),
          LLVM::ConstantOp::create(
              builder, loc, LLVM::LLVMArrayType::get(i32, 3),
              DenseIntElementsAttr::get(RankedTensorType::get({3}, i32),
                                        ArrayRef<int32_t>(known))),
          integerOrZero(i32, "max_threads")};
      Value kernel = LLVM::PoisonOp::create(builder, loc, kernelType);
      for (auto [field, value] : llvm::enumerate(fields))
        kernel = LLVM::InsertValueOp::create(builder, loc, kernel, value,
                                             ArrayRef<int64_t>{int64_t(field)});
      array = LLVM::InsertValueOp::create(builder, loc, array, kernel,
                                          ArrayRef<int64_t>{int64_t(index)});
    }
    LLVM::ReturnOp::create(builder, loc, array);
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto descriptor = LLVM::GlobalOp::create(
      builder, loc, moduleType, /*isConstant=*/true, LLVM::Linkage::External,
      GPUMEM_CPU_MODULE_SYMBOL, Attribute());
  Block *init = builder.createBlock(&descriptor.getInitializerRegion());
  builder.setInsertionPointToStart(init);
  Value fields[] = {
      LLVM::ConstantOp::create(builder, loc, i32, GPUMEM_CPU_ABI_VERSION),
      LLVM::ConstantOp::create(builder, loc, i32, int64_t(table.size())),
      LLVM::AddressOfOp::create(builder, loc, kernels)};
  Value value = LLVM::PoisonOp::create(builder, loc, moduleType);
  for (auto [field, fieldValue] : llvm::enumerate(fields))
    value = LLVM::InsertValueOp::create(builder, loc, value, fieldValue,
                                        ArrayRef<int64_t>{int64_t(field)});
  LLVM::ReturnOp::create(builder, loc, value);
  module->removeAttr(cpu::kKernelTableAttr);
  return success();
}

FailureOr<int32_t> gpumem::cpu::parseSanitizerChecks(gpu::GPUModuleOp module,
                                                     StringRef checks) {
  SmallVector<StringRef> names;
  checks.split(names, ',', -1, /*KeepEmpty=*/false);
  int32_t flags = 0;
  for (StringRef name : names) {
    int32_t flag = llvm::StringSwitch<int32_t>(name.trim())
                       .Case("memcheck", GPUMEM_CHECK_MEMCHECK)
                       .Case("racecheck", GPUMEM_CHECK_RACECHECK)
                       .Case("initcheck", GPUMEM_CHECK_INITCHECK)
                       .Case("synccheck", GPUMEM_CHECK_SYNCCHECK)
                       .Default(0);
    if (!flag)
      return module.emitError()
             << "unknown sanitizer check '" << name.trim()
             << "'; expected memcheck, racecheck, initcheck or synccheck";
    flags |= flag;
  }
  return flags;
}

void gpumem::cpu::recordSanitizerChecks(gpu::GPUModuleOp module,
                                        int32_t checks) {
  auto table = module->getAttrOfType<ArrayAttr>(kKernelTableAttr);
  if (!table || !checks)
    return;
  Builder builder(module.getContext());
  SmallVector<Attribute> entries;
  for (Attribute entry : table) {
    NamedAttrList attrs(cast<DictionaryAttr>(entry));
    attrs.set("checks", builder.getI32IntegerAttr(checks));
    entries.push_back(attrs.getDictionary(module.getContext()));
  }
  module->setAttr(kKernelTableAttr, builder.getArrayAttr(entries));
}
