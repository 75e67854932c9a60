//===----------------------------------------------------------------------===//
// The kernel table (KernelTable.h): entries to and from the module's
// attribute, and the descriptor the runtime reads, one GPUMemCPUKernel
// struct per entry in the order of CPUKernelABI.h.
//===----------------------------------------------------------------------===//

#include "KernelTable.h"
#include "HostCode.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Runtime/DeviceSanitizerLog.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace gpumem::hostkernel;

DictionaryAttr KernelTableEntry::toAttr(MLIRContext *context) const {
  Builder b(context);
  NamedAttrList attrs;
  attrs.append("name", b.getStringAttr(name));
  auto symbol = [&](StringRef key, FlatSymbolRefAttr ref) {
    if (ref)
      attrs.append(key, ref);
  };
  symbol("run_thread", runThread);
  symbol("run_blocks", runBlocks);
  symbol("start_coroutine", startCoroutine);
  symbol("resume_coroutine", resumeCoroutine);
  attrs.append("shared_bytes", b.getI64IntegerAttr(sharedBytes));
  attrs.append("needs_fibers", b.getBoolAttr(needsFibers));
  attrs.append("num_params", b.getI32IntegerAttr(numParams));
  attrs.append("param_bytes", b.getDenseI32ArrayAttr(paramBytes));
  if (knownBlockSize)
    attrs.append("known_block_size", b.getDenseI32ArrayAttr(*knownBlockSize));
  if (!chip.empty())
    attrs.append("chip", b.getStringAttr(chip));
  if (maxSharedBytes)
    attrs.append("max_shared_bytes", b.getI64IntegerAttr(*maxSharedBytes));
  if (barriersOnly)
    attrs.append("barriers_only", b.getBoolAttr(true));
  if (maxThreads)
    attrs.append("max_threads", b.getI32IntegerAttr(maxThreads));
  if (checks)
    attrs.append("checks", b.getI32IntegerAttr(checks));
  if (warpSize)
    attrs.append("warp_size", b.getI32IntegerAttr(warpSize));
  if (execMask)
    attrs.append("exec_mask", b.getBoolAttr(true));
  return attrs.getDictionary(context);
}

FailureOr<KernelTableEntry> KernelTableEntry::fromAttr(Attribute attr,
                                                       Operation *module) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  auto fail = [&](StringRef what) {
    return module->emitOpError()
           << "has a malformed kernel table entry (" << what << "): " << attr;
  };
  if (!dict)
    return fail("not a dictionary");
  static constexpr llvm::StringLiteral known[] = {"name",
                                                  "run_thread",
                                                  "run_blocks",
                                                  "start_coroutine",
                                                  "resume_coroutine",
                                                  "shared_bytes",
                                                  "needs_fibers",
                                                  "num_params",
                                                  "param_bytes",
                                                  "known_block_size",
                                                  "chip",
                                                  "max_shared_bytes",
                                                  "barriers_only",
                                                  "max_threads",
                                                  "checks",
                                                  "warp_size",
                                                  "exec_mask"};
  for (NamedAttribute field : dict)
    if (!llvm::is_contained(known, field.getName().getValue()))
      return fail(("unknown key '" + field.getName().getValue() + "'").str());
  KernelTableEntry entry;
  auto name = dict.getAs<StringAttr>("name");
  if (!name)
    return fail("no name");
  entry.name = name.str();
  // Present keys must have their type; absent ones keep the default.
  bool wellTyped = true;
  auto get = [&](StringRef key, auto &out) {
    using T = std::decay_t<decltype(out)>;
    Attribute value = dict.get(key);
    if (!value)
      return;
    if constexpr (std::is_same_v<T, FlatSymbolRefAttr>) {
      out = dyn_cast<FlatSymbolRefAttr>(value);
      wellTyped &= bool(out);
    } else if constexpr (std::is_same_v<T, bool>) {
      auto flag = dyn_cast<BoolAttr>(value);
      wellTyped &= bool(flag);
      out = flag && flag.getValue();
    } else if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
      auto integer = dyn_cast<IntegerAttr>(value);
      wellTyped &= bool(integer);
      if (integer)
        out = integer.getInt();
    } else if constexpr (std::is_same_v<T, std::string>) {
      auto text = dyn_cast<StringAttr>(value);
      wellTyped &= bool(text);
      out = text ? text.str() : "";
    } else {
      auto integer = dyn_cast<IntegerAttr>(value);
      wellTyped &= bool(integer);
      out = integer ? integer.getInt() : 0;
    }
  };
  get("run_thread", entry.runThread);
  get("run_blocks", entry.runBlocks);
  get("start_coroutine", entry.startCoroutine);
  get("resume_coroutine", entry.resumeCoroutine);
  get("shared_bytes", entry.sharedBytes);
  get("needs_fibers", entry.needsFibers);
  get("num_params", entry.numParams);
  get("chip", entry.chip);
  get("barriers_only", entry.barriersOnly);
  get("max_threads", entry.maxThreads);
  get("max_shared_bytes", entry.maxSharedBytes);
  get("checks", entry.checks);
  get("warp_size", entry.warpSize);
  get("exec_mask", entry.execMask);
  if (Attribute value = dict.get("param_bytes")) {
    auto bytes = dyn_cast<DenseI32ArrayAttr>(value);
    wellTyped &= bool(bytes);
    if (bytes)
      entry.paramBytes.assign(bytes.asArrayRef().begin(),
                              bytes.asArrayRef().end());
  }
  if (Attribute value = dict.get("known_block_size")) {
    auto sizes = dyn_cast<DenseI32ArrayAttr>(value);
    if (!sizes || sizes.size() != 3)
      return fail("known_block_size is not three sizes");
    entry.knownBlockSize = {sizes[0], sizes[1], sizes[2]};
  }
  if (!wellTyped)
    return fail("a key of the wrong type");
  if (dict.get("warp_size") && entry.warpSize != GPUMEM_WARP_SIZE &&
      entry.warpSize != GPUMEM_MAX_WARP_SIZE)
    return fail("warp_size is not 32 or 64");
  if (!entry.runThread && !entry.startCoroutine)
    return fail("no run_thread or start_coroutine");
  if (!entry.paramBytes.empty() &&
      int64_t(entry.paramBytes.size()) != entry.numParams)
    return fail("param_bytes does not have num_params sizes");
  return entry;
}

FailureOr<SmallVector<KernelTableEntry>>
gpumem::hostkernel::getKernelTable(gpu::GPUModuleOp module) {
  auto table = module->getAttrOfType<ArrayAttr>(kKernelTableAttr);
  if (!table)
    return module.emitOpError()
           << "has no kernel table; run gpumem-lower-gpu-to-cpu-abi first";
  SmallVector<KernelTableEntry> entries;
  for (Attribute attr : table) {
    FailureOr<KernelTableEntry> entry =
        KernelTableEntry::fromAttr(attr, module);
    if (failed(entry))
      return failure();
    entries.push_back(std::move(*entry));
  }
  return entries;
}

void gpumem::hostkernel::setKernelTable(gpu::GPUModuleOp module,
                                        ArrayRef<KernelTableEntry> entries) {
  MLIRContext *context = module.getContext();
  SmallVector<Attribute> attrs;
  for (const KernelTableEntry &entry : entries)
    attrs.push_back(entry.toAttr(context));
  module->setAttr(kKernelTableAttr, ArrayAttr::get(context, attrs));
}

LogicalResult
gpumem::hostkernel::emitCPUModuleDescriptor(gpu::GPUModuleOp module) {
  FailureOr<SmallVector<KernelTableEntry>> table = getKernelTable(module);
  if (failed(table))
    return failure();
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i32 = IntegerType::get(context, 32);
  auto i64 = IntegerType::get(context, 64);
  auto kernelType = LLVM::LLVMStructType::getLiteral(
      context, {ptr, ptr, ptr, i64, i32, i32, ptr, i64, ptr, ptr, i32, i32, ptr,
                LLVM::LLVMArrayType::get(i32, 3), i32, i32, i32, ptr});
  auto tableType = LLVM::LLVMArrayType::get(kernelType, table->size());
  auto moduleType = LLVM::LLVMStructType::getLiteral(context, {i32, i32, ptr});

  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  // The sanitizer's log in device memory, which every kernel of the module
  // writes (gpumem-define-nvvm-sanitizer-log).
  auto deviceLog =
      module.lookupSymbol<LLVM::GlobalOp>(GPUMEM_DEVICE_SANITIZER_LOG);
  // Each kernel's param sizes, an i32 array of its own.
  SmallVector<LLVM::GlobalOp> paramBytes;
  for (auto [index, entry] : llvm::enumerate(*table)) {
    ArrayRef<int32_t> bytes = entry.paramBytes;
    if (bytes.empty()) {
      paramBytes.push_back(nullptr);
      continue;
    }
    auto type = LLVM::LLVMArrayType::get(i32, bytes.size());
    auto values = DenseIntElementsAttr::get(
        RankedTensorType::get({int64_t(bytes.size())}, i32), bytes);
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
    for (auto [index, entry] : llvm::enumerate(*table)) {
      auto symbol = [&](FlatSymbolRefAttr ref) -> Value {
        if (!ref)
          return LLVM::ZeroOp::create(builder, loc, ptr);
        return LLVM::AddressOfOp::create(builder, loc, ptr, ref.getValue());
      };
      auto constant = [&](Type type, int64_t value) -> Value {
        return LLVM::ConstantOp::create(builder, loc, type, value);
      };
      std::array<int32_t, 3> known =
          entry.knownBlockSize.value_or(std::array<int32_t, 3>{0, 0, 0});
      Value fields[] = {
          getStringPointer(builder, loc, module, entry.name),
          symbol(entry.runThread),
          symbol(entry.runBlocks),
          constant(i64, entry.sharedBytes),
          constant(i32, entry.needsFibers),
          constant(i32, entry.numParams),
          entry.chip.empty()
              ? LLVM::ZeroOp::create(builder, loc, ptr).getResult()
              : getStringPointer(builder, loc, module, entry.chip),
          constant(i64, entry.maxSharedBytes.value_or(0)),
          symbol(entry.startCoroutine),
          symbol(entry.resumeCoroutine),
          constant(i32, entry.barriersOnly),
          constant(i32, entry.checks),
          paramBytes[index]
              ? LLVM::AddressOfOp::create(builder, loc, paramBytes[index])
                    .getResult()
              : LLVM::ZeroOp::create(builder, loc, ptr).getResult(),
          LLVM::ConstantOp::create(
              builder, loc, LLVM::LLVMArrayType::get(i32, 3),
              DenseIntElementsAttr::get(RankedTensorType::get({3}, i32),
                                        ArrayRef<int32_t>(known))),
          constant(i32, entry.maxThreads),
          constant(i32, entry.warpSize ? entry.warpSize : GPUMEM_WARP_SIZE),
          constant(i32, entry.execMask),
          deviceLog
              ? LLVM::AddressOfOp::create(builder, loc, deviceLog).getResult()
              : LLVM::ZeroOp::create(builder, loc, ptr).getResult()};
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
      LLVM::ConstantOp::create(builder, loc, i32, int64_t(table->size())),
      LLVM::AddressOfOp::create(builder, loc, kernels)};
  Value value = LLVM::PoisonOp::create(builder, loc, moduleType);
  for (auto [field, fieldValue] : llvm::enumerate(fields))
    value = LLVM::InsertValueOp::create(builder, loc, value, fieldValue,
                                        ArrayRef<int64_t>{int64_t(field)});
  LLVM::ReturnOp::create(builder, loc, value);
  module->removeAttr(kKernelTableAttr);
  return success();
}

void gpumem::hostkernel::recordSanitizerChecks(gpu::GPUModuleOp module,
                                               int32_t checks) {
  if (!checks || !module->hasAttr(kKernelTableAttr))
    return;
  FailureOr<SmallVector<KernelTableEntry>> table = getKernelTable(module);
  if (failed(table))
    return;
  for (KernelTableEntry &entry : *table)
    entry.checks = checks;
  setKernelTable(module, *table);
}
