//===----------------------------------------------------------------------===//
// The lowering of a gpu.module of GPU device code to host code for the cpu
// runtime (DeviceModuleToHost.h), whatever GPU dialect its ops are in.
//
// Algorithm, on one gpu.module, with the dialect's hooks (DeviceDialect):
//  1. Refuse what cannot run: the dialect's refusals (checkOp), invokes,
//     indirect calls, taking a function's address, a shared variable's
//     address outside a function; map the device library's calls
//     (mapLibraryCalls).
//  2. Lay out shared memory as a GPU assembler does for one kernel: every
//     shared global at its own offset and alignment, in module order (a
//     zero-size one that is not external takes one byte); `extern`
//     zero-size arrays all start after them, at their alignment. The static
//     bytes must fit the chip.
//  3. Every function with a body takes the thread context
//     (GPUMemThreadContext) as a trailing argument; calls pass it on.
//  4. A kernel that synchronizes (isSynchronizing, also through calls)
//     becomes a coroutine when its synchronizing callees inline
//     (Coroutines.cpp); one whose only waits are block barriers is a
//     barrier-only coroutine; else it runs on fibers.
//  5. The dialect's patterns lower each function's ops (populatePatterns),
//     each op once, unreachable blocks too; coroutine kernels are then
//     made coroutines and the library's helpers defined; calls of
//     --sanitize's memref checks (SanitizeMemRefAccesses.h) become calls
//     of the runtime's services through the context.
//  6. Address spaces are erased (all of the GPU's memories are host
//     memory); a shared global's address is ctx->sharedMemory plus its
//     offset, an extern array's ctx->dynamicSharedMemory. Where the dialect
//     says so, integers and shared pointers convert as offsets in the
//     arena (sharedPointersAreOffsets).
//  7. Each kernel K becomes __gpumem_kernel_K plus __gpumem_run_thread_K
//     (or __gpumem_start_coroutine_K), which unpacks mgpuLaunchKernel's
//     parameters (KernelWrappers.h); K stays an empty stub for
//     gpu.launch_func to verify against; the module exports the kernel
//     table (CPUKernelABI.h) with the chip's shared memory limit and the
//     kernels' launch limits (readLaunchLimits).
//===----------------------------------------------------------------------===//

#include "DeviceModuleToHost.h"

#include "HostCode.h"
#include "KernelWrappers.h"
#include "SanitizeMemRefAccesses.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

#include "llvm/ADT/SetVector.h"

#include <cstddef>

using namespace mlir;
using namespace gpumem::hostkernel;

namespace {

constexpr llvm::StringLiteral kResumeName = "__gpumem_resume_coroutine";

class DeviceModuleLowering {
public:
  DeviceModuleLowering(gpu::GPUModuleOp module, const DeviceDialect &dialect)
      : module(module), dialect(dialect) {
    layout = dialect.limits;
    layout.staticBytes = 0;
  }
  LogicalResult run(bool coroutines, int32_t sanitizerChecks);

private:
  LogicalResult checkSupported();
  LogicalResult layOutSharedMemory();
  void addContextArguments();
  LogicalResult lowerFunction(LLVM::LLVMFuncOp func);
  void lowerSharedAddresses();
  void bindSanitizerCalls();
  void convertSharedPointerIntegers();
  void eraseAddressSpaces();
  void createKernelEntries();

  gpu::GPUModuleOp module;
  const DeviceDialect &dialect;
  /// --sanitize's GPUMemSanitizerCheck flags, for the patterns.
  int32_t checks = 0;
  SmallVector<LLVM::LLVMFuncOp> kernels;
  llvm::DenseSet<Operation *> needsFibers;
  /// Kernels that run as coroutines, and those of them whose only
  /// synchronization is block barriers.
  llvm::DenseSet<Operation *> coroutineKernels, barrierOnlyKernels;
  /// Offsets of static shared globals; extern arrays map to -1.
  llvm::StringMap<int64_t> sharedOffsets;
  SharedLayout layout;
  /// Functions with a body (before the context argument is added).
  llvm::SetVector<Operation *> defined;
};

LogicalResult DeviceModuleLowering::run(bool coroutines,
                                        int32_t sanitizerChecks) {
  checks = sanitizerChecks;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!func.isExternal())
      defined.insert(func);
    if (func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) ||
        func->hasAttr(dialect.kernelAttrName)) {
      if (func.isExternal())
        return func.emitOpError() << "is a kernel without a body";
      kernels.push_back(func);
    }
  }
  if (failed(checkSupported()) || failed(dialect.mapLibraryCalls(module)) ||
      failed(layOutSharedMemory()))
    return failure();
  needsFibers = findSynchronizingFunctions(module, dialect.isSynchronizing);
  addContextArguments();
  for (LLVM::LLVMFuncOp kernel : kernels)
    if (coroutines && needsFibers.contains(kernel) &&
        succeeded(inlineSynchronizingCalls(kernel, [&](Operation *func) {
          return needsFibers.contains(func);
        })))
      coroutineKernels.insert(kernel);
  for (Operation *kernel : coroutineKernels) {
    bool barriersOnly = true;
    kernel->walk([&](Operation *op) {
      if (dialect.isSynchronizing(op) && !dialect.isBlockBarrier(op))
        barriersOnly = false;
    });
    if (barriersOnly)
      barrierOnlyKernels.insert(kernel);
  }
  for (Operation *func : defined)
    if (failed(lowerFunction(cast<LLVM::LLVMFuncOp>(func))))
      return failure();
  for (LLVM::LLVMFuncOp kernel : kernels)
    if (coroutineKernels.contains(kernel))
      makeCoroutine(kernel);
  if (failed(dialect.defineLibraryHelpers(module)))
    return failure();
  bindSanitizerCalls();
  if (dialect.sharedPointersAreOffsets)
    convertSharedPointerIntegers();
  eraseAddressSpaces();
  lowerSharedAddresses();
  createKernelEntries();
  recordSanitizerChecks(module, sanitizerChecks);
  return emitCPUModuleDescriptor(module);
}

LogicalResult DeviceModuleLowering::checkSupported() {
  SymbolTable symbols(module);
  StringRef target = dialect.targetName;
  WalkResult result = module.walk([&](Operation *op) -> WalkResult {
    if (failed(dialect.checkOp(op)))
      return WalkResult::interrupt();
    if (isa<LLVM::InvokeOp>(op))
      return op->emitOpError()
             << "is not supported on the " << target << " target";
    if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee)
        return op->emitOpError() << "is an indirect call, which the " << target
                                 << " target does not support";
    }
    if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
      Operation *global = symbols.lookup(address.getGlobalName());
      if (auto func = dyn_cast_if_present<LLVM::LLVMFuncOp>(global))
        return op->emitOpError()
               << "takes the address of function '" << func.getName()
               << "', which the " << target << " target does not support";
      auto variable = dyn_cast_if_present<LLVM::GlobalOp>(global);
      if (variable && variable.getAddrSpace() == dialect.sharedAddressSpace &&
          !op->getParentOfType<LLVM::LLVMFuncOp>())
        return op->emitOpError()
               << "uses the address of shared variable '" << variable.getName()
               << "' outside a function, which the " << target
               << " target does not support";
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult DeviceModuleLowering::layOutSharedMemory() {
  DataLayout dataLayout = DataLayout::closest(module);
  int64_t end = 0, externAlignment = GPUMEM_SHARED_ALIGNMENT;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (global.getAddrSpace() != dialect.sharedAddressSpace)
      continue;
    int64_t size = int64_t(dataLayout.getTypeSize(global.getType()));
    int64_t alignment = global.getAlignment().value_or(
        int64_t(dataLayout.getTypeABIAlignment(global.getType())));
    if (alignment < 1)
      alignment = 1;
    if (alignment > GPUMEM_ARENA_ALIGNMENT || !llvm::isPowerOf2_64(alignment))
      return global.emitOpError()
             << "asks for an alignment of " << alignment << " bytes; the "
             << dialect.targetName << " target aligns shared memory to at most "
             << GPUMEM_ARENA_ALIGNMENT;
    if (size == 0 && global.getLinkage() == LLVM::Linkage::External) {
      sharedOffsets[global.getSymName()] = -1;
      externAlignment = std::max(externAlignment, alignment);
      continue;
    }
    // ptxas gives a zero-size variable that is not `extern` one byte of
    // static shared memory (upstream's lowering of gpu.dynamic_shared_memory
    // makes such a variable).
    size = std::max<int64_t>(size, 1);
    end = int64_t(llvm::alignTo(end, alignment));
    sharedOffsets[global.getSymName()] = end;
    end += size;
  }
  // The runtime puts the dynamic part at the static size rounded to 16
  // bytes in an arena aligned to GPUMEM_ARENA_ALIGNMENT.
  layout.staticBytes = int64_t(llvm::alignTo(end, externAlignment));
  if (layout.staticBytes > int64_t(layout.maxSharedBytesPerBlock))
    return module.emitOpError()
           << "uses " << layout.staticBytes
           << " bytes of static shared memory; " << dialect.chip << " allows "
           << layout.maxSharedBytesPerBlock << " per block";
  return success();
}

void DeviceModuleLowering::addContextArguments() {
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  for (Operation *op : defined) {
    auto func = cast<LLVM::LLVMFuncOp>(op);
    LLVM::LLVMFunctionType type = func.getFunctionType();
    SmallVector<Type> params(type.getParams());
    params.push_back(ptr);
    func.setFunctionType(LLVM::LLVMFunctionType::get(type.getReturnType(),
                                                     params, type.isVarArg()));
    func.getBody().front().addArgument(ptr, func.getLoc());
    if (ArrayAttr argAttrs = func.getArgAttrsAttr()) {
      SmallVector<Attribute> extended(argAttrs.getValue());
      extended.push_back(DictionaryAttr::get(context));
      func.setArgAttrsAttr(ArrayAttr::get(context, extended));
    }
  }
  SymbolTable symbols(module);
  for (Operation *op : defined) {
    auto func = cast<LLVM::LLVMFuncOp>(op);
    Value threadContext = func.getArgument(func.getNumArguments() - 1);
    func.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> name = call.getCallee();
      if (!name)
        return;
      Operation *callee = symbols.lookup(*name);
      if (callee && defined.contains(callee))
        call.getCalleeOperandsMutable().append(threadContext);
    });
  }
}

LogicalResult DeviceModuleLowering::lowerFunction(LLVM::LLVMFuncOp func) {
  DeviceFunctionState state;
  state.context = func.getArgument(func.getNumArguments() - 1);
  state.layout = layout;
  state.sanitizerChecks = checks;
  state.waiting = barrierOnlyKernels.contains(func) ? Waiting::BarrierCoroutine
                  : coroutineKernels.contains(func) ? Waiting::Coroutine
                                                    : Waiting::Fibers;
  RewritePatternSet patterns(module.getContext());
  dialect.populatePatterns(patterns, state);
  // Each op once, unreachable blocks included (unlike walkAndApplyPatterns).
  applyPatternsToEachOp(func, FrozenRewritePatternSet(std::move(patterns)));
  return failure(state.failed);
}

void DeviceModuleLowering::bindSanitizerCalls() {
  SmallVector<LLVM::CallOp> calls;
  module.walk([&](LLVM::CallOp call) {
    StringRef callee = call.getCallee().value_or("");
    // A report function the module defines (its log in device memory,
    // gpumem-define-nvvm-sanitizer-log) stays a call of it.
    auto defined = module.lookupSymbol<LLVM::LLVMFuncOp>(callee);
    if (getSanitizerService(callee) && !(defined && !defined.isExternal()))
      calls.push_back(call);
  });
  for (LLVM::CallOp call : calls) {
    auto func = call->getParentOfType<LLVM::LLVMFuncOp>();
    Value context = func.getArgument(func.getNumArguments() - 1);
    OpBuilder builder(call);
    SmallVector<Value> args{context};
    llvm::append_range(args, call.getArgOperands());
    ContextAccess(builder, call.getLoc(), context)
        .call(*getSanitizerService(*call.getCallee()), args);
    call.erase();
  }
  for (auto func :
       llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>()))
    if (func.isExternal() && getSanitizerService(func.getName()))
      func.erase();
}

void DeviceModuleLowering::convertSharedPointerIntegers() {
  auto isShared = [&](Type type) {
    auto pointer = dyn_cast<LLVM::LLVMPointerType>(type);
    return pointer && pointer.getAddressSpace() == dialect.sharedAddressSpace;
  };
  auto arenaBase = [&](OpBuilder &builder, Operation *op) {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    ContextAccess access(builder, op->getLoc(),
                         func.getArgument(func.getNumArguments() - 1));
    return access.loadPointer(offsetof(GPUMemThreadContext, sharedMemory));
  };
  module.walk([&](LLVM::PtrToIntOp toInt) {
    if (!isShared(toInt.getArg().getType()))
      return;
    OpBuilder builder(toInt);
    Location loc = toInt.getLoc();
    Type type = toInt.getType();
    Value base =
        LLVM::PtrToIntOp::create(builder, loc, type, arenaBase(builder, toInt));
    Value address =
        LLVM::PtrToIntOp::create(builder, loc, type, toInt.getArg());
    toInt.replaceAllUsesWith(
        LLVM::SubOp::create(builder, loc, address, base).getResult());
    toInt.erase();
  });
  module.walk([&](LLVM::IntToPtrOp toPointer) {
    if (!isShared(toPointer.getType()))
      return;
    OpBuilder builder(toPointer);
    Location loc = toPointer.getLoc();
    Value address = LLVM::GEPOp::create(
        builder, loc, LLVM::LLVMPointerType::get(module.getContext()),
        builder.getI8Type(), arenaBase(builder, toPointer),
        ValueRange{toPointer.getArg()});
    toPointer.replaceAllUsesWith(LLVM::AddrSpaceCastOp::create(
                                     builder, loc, toPointer.getType(), address)
                                     .getResult());
    toPointer.erase();
  });
}

void DeviceModuleLowering::eraseAddressSpaces() {
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [](LLVM::LLVMPointerType type) -> std::optional<Type> {
        if (type.getAddressSpace() == 0)
          return std::nullopt;
        return LLVM::LLVMPointerType::get(type.getContext());
      });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  module.walk([](LLVM::AddrSpaceCastOp cast) {
    cast.replaceAllUsesWith(cast.getArg());
    cast.erase();
  });
}

void DeviceModuleLowering::lowerSharedAddresses() {
  module.walk([&](LLVM::AddressOfOp address) {
    auto it = sharedOffsets.find(address.getGlobalName());
    if (it == sharedOffsets.end())
      return;
    auto func = address->getParentOfType<LLVM::LLVMFuncOp>();
    Value context = func.getArgument(func.getNumArguments() - 1);
    OpBuilder builder(address);
    ContextAccess access(builder, address.getLoc(), context);
    Value replacement =
        it->second < 0 ? access.loadPointer(
                             offsetof(GPUMemThreadContext, dynamicSharedMemory))
                       : access.address(access.loadPointer(offsetof(
                                            GPUMemThreadContext, sharedMemory)),
                                        it->second);
    address.replaceAllUsesWith(replacement);
    address.erase();
  });
  for (auto global :
       llvm::make_early_inc_range(module.getOps<LLVM::GlobalOp>())) {
    if (sharedOffsets.count(global.getSymName()))
      global.erase();
    else
      global.setAddrSpace(0);
  }
}

void DeviceModuleLowering::createKernelEntries() {
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto voidType = LLVM::LLVMVoidType::get(context);
  SmallVector<KernelTableEntry> table;
  // Every attribute of the GPU dialect goes: the host has no use for them,
  // and some (the kernel calling convention) the host backend cannot
  // compile.
  auto isDeviceAttribute = [&](NamedAttribute attr) {
    StringRef name = attr.getName().getValue();
    return name.starts_with(dialect.attributePrefix) ||
           name.starts_with("gpu.");
  };
  auto dropDeviceAttributes = [&](LLVM::LLVMFuncOp func) {
    for (NamedAttribute attr : llvm::to_vector(func->getAttrs()))
      if (isDeviceAttribute(attr))
        func->removeAttr(attr.getName());
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (DictionaryAttr dict = func.getArgAttrDict(i))
        for (NamedAttribute attr : llvm::to_vector(dict.getValue()))
          if (attr.getName().getValue().starts_with(dialect.attributePrefix))
            func.removeArgAttr(i, attr.getName());
  };
  // The launch limits the kernels' attributes state, read before they go.
  llvm::DenseMap<Operation *, KernelTableEntry> entries;
  for (LLVM::LLVMFuncOp kernel : kernels)
    dialect.readLaunchLimits(kernel, entries[kernel]);
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    dropDeviceAttributes(func);

  for (LLVM::LLVMFuncOp kernel : kernels) {
    std::string name = kernel.getName().str();
    // The kernel's own signature, without the context argument.
    LLVM::LLVMFunctionType withContext = kernel.getFunctionType();
    auto original = LLVM::LLVMFunctionType::get(
        voidType, withContext.getParams().drop_back());
    bool coroutine = coroutineKernels.contains(kernel);
    Location loc = kernel.getLoc();
    kernel.setSymName("__gpumem_kernel_" + name);
    kernel.setLinkage(LLVM::Linkage::Internal);

    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    // The stub gpu.launch_func verifies against until serialization.
    auto stub = LLVM::LLVMFuncOp::create(builder, loc, name, original);
    stub->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
    builder.setInsertionPointToStart(stub.addEntryBlock(builder));
    LLVM::ReturnOp::create(builder, loc, ValueRange());

    // run_thread(params, ctx), or start_coroutine(params, ctx) -> handle:
    // params[i] points to argument i.
    builder.setInsertionPointToEnd(module.getBody());
    std::string runThreadName =
        (coroutine ? "__gpumem_start_coroutine_" : "__gpumem_run_thread_") +
        name;
    auto loadArgument = [](OpBuilder &, Location, Type type,
                           llvm::function_ref<Value(Type)> nextParam) {
      return nextParam(type);
    };
    KernelWrapper<LLVM::LLVMFuncOp> runThread = createRunThread(
        builder, loc, runThreadName, kernel, original.getParams(),
        DataLayout::closest(kernel), loadArgument);

    KernelTableEntry &entry = entries[kernel];
    entry.name = name;
    (coroutine ? entry.startCoroutine : entry.runThread) =
        FlatSymbolRefAttr::get(context, runThreadName);
    entry.sharedBytes = layout.staticBytes;
    entry.needsFibers = needsFibers.contains(kernel);
    entry.numParams = int32_t(original.getNumParams());
    entry.paramBytes = runThread.paramBytes;
    entry.chip = dialect.chip;
    entry.maxSharedBytes = int64_t(layout.maxSharedBytesPerBlock);
    if (coroutine)
      entry.resumeCoroutine = FlatSymbolRefAttr::get(context, kResumeName);
    entry.barriersOnly = barrierOnlyKernels.contains(kernel);
    // The runtime's warps have 32 lanes unless a kernel asks for another
    // size (AMD's wave64).
    if (layout.warpSize != GPUMEM_WARP_SIZE)
      entry.warpSize = int32_t(layout.warpSize);
    entry.execMask = dialect.warpOpsOverActiveLanes;
    table.push_back(std::move(entry));
  }
  if (!coroutineKernels.empty()) {
    // resume_coroutine(handle): the coroutine ABI's resumption, which only
    // LLVM code can spell.
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Location loc = module.getLoc();
    auto resume = LLVM::LLVMFuncOp::create(
        builder, loc, kResumeName, LLVM::LLVMFunctionType::get(voidType, {ptr}),
        LLVM::Linkage::Internal);
    builder.setInsertionPointToStart(resume.addEntryBlock(builder));
    LLVM::CoroResumeOp::create(builder, loc, resume.getArgument(0));
    LLVM::ReturnOp::create(builder, loc, ValueRange());
  }
  setKernelTable(module, table);
}

} // namespace

LogicalResult gpumem::hostkernel::lowerDeviceModuleToHost(
    gpu::GPUModuleOp module, const DeviceDialect &dialect, bool coroutines,
    int32_t sanitizerChecks) {
  return DeviceModuleLowering(module, dialect).run(coroutines, sanitizerChecks);
}
