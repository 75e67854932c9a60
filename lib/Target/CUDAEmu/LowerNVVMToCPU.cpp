//===----------------------------------------------------------------------===//
// gpumem-lower-nvvm-to-cpu: the cuda-emu target's device lowering. It takes
// a gpu.module exactly as the cuda pipeline hands it to the NVPTX backend
// (LLVM dialect with NVVM ops) and makes it host code for the CPU runtime,
// with PTX's semantics.
//
// Algorithm, on one gpu.module:
//  1. Refuse what cannot run: NVVM ops without a lowering here (tensor
//     cores, TMA, ...), inline PTX, other llvm.nvvm intrinsics, indirect
//     calls, and calls to functions neither the module, libc's malloc/free,
//     libm nor the runtime provide. libdevice's __nv_* math functions become
//     libm's (NVVMLibdevice.cpp).
//  2. Lay out shared memory as ptxas does for one kernel: every
//     addrspace(3) global at its own offset and alignment, in module order
//     (a zero-size one that is not external takes one byte, as in ptxas);
//     `extern` zero-size arrays all start after them, at their alignment.
//  3. Every function with a body takes the thread context
//     (GPUMemThreadContext) as a trailing argument; calls pass it on.
//  4. NVVM ops become context loads (special registers) and runtime
//     services (bar.sync, shfl/vote/redux/match.sync, vprintf,
//     __assertfail) through ctx->services; fences become host fences.
//  5. Address spaces are erased (generic, global, shared, local are all
//     host memory); a shared global's address is ctx->sharedMemory plus its
//     offset, the extern array's ctx->dynamicSharedMemory.
//  6. A kernel with barriers or warp operations becomes a coroutine when
//     its synchronizing callees inline (../HostKernel/Coroutines.cpp); else it
//     runs on fibers.
//  7. Each kernel K becomes __gpumem_kernel_K plus __gpumem_run_thread_K
//     (or __gpumem_start_coroutine_K), which unpacks mgpuLaunchKernel's
//     parameters; K stays an empty stub for gpu.launch_func to verify
//     against; the module exports the kernel table (CPUKernelABI.h) with the
//     chip's shared memory limit.
//===----------------------------------------------------------------------===//

#include "NVVMToCPU.h"

#include "../HostKernel/HostCode.h"
#include "../HostKernel/KernelTable.h"
#include "../HostKernel/KernelWrappers.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CUDAEmu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/SetVector.h"

#include <cstddef>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERNVVMTOCPUPASS
#include "gpumem/Target/CUDAEmu/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem::cudaemu;

namespace {

constexpr llvm::StringLiteral kResumeName = "__gpumem_resume_coroutine";

/// Ops that make a kernel need fibers: a thread waits for others there.
bool isSynchronizing(Operation *op) {
  return isa<NVVM::Barrier0Op, NVVM::BarrierOp, NVVM::ShflOp, NVVM::VoteSyncOp,
             NVVM::ReduxOp, NVVM::MatchSyncOp, NVVM::SyncWarpOp>(op);
}

/// The NVVM ops populateNVVMToCPUPatterns lowers.
bool isSupportedNVVMOp(Operation *op) {
  if (isSynchronizing(op) || isa<NVVM::MembarOp, NVVM::FenceScClusterOp>(op))
    return true;
  return isSpecialRegister(op->getName().getStringRef());
}

struct LowerNVVMToCPUPass
    : gpumem::impl::GPUMemLowerNVVMToCPUPassBase<LowerNVVMToCPUPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult checkSupported();
  LogicalResult layOutSharedMemory();
  void addContextArguments();
  LogicalResult lowerFunction(LLVM::LLVMFuncOp func);
  void lowerSharedAddresses();
  void eraseAddressSpaces();
  void createKernelEntries();

  gpu::GPUModuleOp module;
  std::string chip = "sm_90";
  SmallVector<LLVM::LLVMFuncOp> kernels;
  llvm::DenseSet<Operation *> needsFibers;
  /// Kernels that run as coroutines (../HostKernel/Coroutines.cpp), and those
  /// of them whose only synchronization is nvvm.barrier0.
  llvm::DenseSet<Operation *> coroutineKernels, barrierOnlyKernels;
  /// Offsets of static shared globals; extern arrays map to -1.
  llvm::StringMap<int64_t> sharedOffsets;
  SharedLayout layout;
  /// Functions with a body (before the context argument is added).
  llvm::SetVector<Operation *> defined;
};

void LowerNVVMToCPUPass::runOnOperation() {
  // The pass object runs once per gpu.module: start from nothing.
  module = getOperation();
  chip = "sm_90";
  kernels.clear();
  needsFibers.clear();
  coroutineKernels.clear();
  barrierOnlyKernels.clear();
  sharedOffsets.clear();
  layout = SharedLayout();
  defined.clear();
  if (ArrayAttr targets = module.getTargetsAttr())
    for (Attribute target : targets)
      if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
        chip = nvvm.getChip().str();
  const gpumem::NVIDIAChip *info = gpumem::lookupNVIDIAChip(chip);
  layout.maxSharedBytesPerBlock =
      info ? info->maxSharedBytesPerBlock : GPUMEM_MAX_SHARED_BYTES_PER_BLOCK;
  layout.maxWarpsPerSM = maxWarpsPerSM(chip);

  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!func.isExternal())
      defined.insert(func);
    if (func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) ||
        func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName())) {
      if (func.isExternal()) {
        func.emitOpError() << "is a kernel without a body";
        return signalPassFailure();
      }
      kernels.push_back(func);
    }
  }
  if (failed(checkSupported()) || failed(mapLibdeviceCalls(module)) ||
      failed(layOutSharedMemory()))
    return signalPassFailure();
  needsFibers =
      gpumem::hostkernel::findSynchronizingFunctions(module, isSynchronizing);
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
      if (isSynchronizing(op) && !isa<NVVM::Barrier0Op>(op))
        barriersOnly = false;
    });
    if (barriersOnly)
      barrierOnlyKernels.insert(kernel);
  }
  for (Operation *func : defined)
    if (failed(lowerFunction(cast<LLVM::LLVMFuncOp>(func))))
      return signalPassFailure();
  for (LLVM::LLVMFuncOp kernel : kernels)
    if (coroutineKernels.contains(kernel))
      makeCoroutine(kernel);
  if (failed(defineLibdeviceHelpers(module)))
    return signalPassFailure();
  eraseAddressSpaces();
  lowerSharedAddresses();
  createKernelEntries();
  gpumem::hostkernel::recordSanitizerChecks(module, sanitize.getValue().flags);
  if (failed(gpumem::hostkernel::emitCPUModuleDescriptor(module)))
    return signalPassFailure();
  // gpumem-attach-cpu-target gives the module the host target.
  module.removeTargetsAttr();
}

LogicalResult LowerNVVMToCPUPass::checkSupported() {
  SymbolTable symbols(module);
  WalkResult result = module.walk([&](Operation *op) -> WalkResult {
    if (isa<NVVM::NVVMDialect>(op->getDialect()) && !isSupportedNVVMOp(op))
      return op->emitOpError()
             << "has no lowering on the cuda-emu target, which runs the NVVM "
                "form of kernels on the CPU";
    if (auto barrier = dyn_cast<NVVM::BarrierOp>(op))
      if (barrier.getReductionOp())
        return op->emitOpError()
               << "with a reduction (barrier.red) has no lowering on the "
                  "cuda-emu target";
    if (auto redux = dyn_cast<NVVM::ReduxOp>(op))
      if (!redux.getVal().getType().isInteger(32))
        return op->emitOpError()
               << "on floating-point values has no lowering on the cuda-emu "
                  "target";
    if (isa<LLVM::InlineAsmOp>(op))
      return op->emitOpError()
             << "(inline PTX) cannot run on the cuda-emu target";
    if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
      StringRef name = intrinsic.getIntrin();
      if (name.starts_with("llvm.nvvm.") && !isSpecialRegisterIntrinsic(name))
        return op->emitOpError() << "calls '" << name
                                 << "', which has no lowering on the cuda-emu "
                                    "target";
    }
    if (isa<LLVM::InvokeOp>(op))
      return op->emitOpError() << "is not supported on the cuda-emu target";
    if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee)
        return op->emitOpError()
               << "is an indirect call, which the cuda-emu target does not "
                  "support";
    }
    if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
      Operation *target = symbols.lookup(address.getGlobalName());
      if (auto func = dyn_cast_if_present<LLVM::LLVMFuncOp>(target))
        return op->emitOpError()
               << "takes the address of function '" << func.getName()
               << "', which the cuda-emu target does not support";
      auto global = dyn_cast_if_present<LLVM::GlobalOp>(target);
      if (global && global.getAddrSpace() == kSharedAddressSpace &&
          !op->getParentOfType<LLVM::LLVMFuncOp>())
        return op->emitOpError()
               << "uses the address of shared variable '" << global.getName()
               << "' outside a function, which the cuda-emu target does not "
                  "support";
    }
    if (auto global = dyn_cast<LLVM::GlobalOp>(op))
      if (global.getAddrSpace() == kLocalAddressSpace)
        return op->emitOpError()
               << "is a .local variable, which the cuda-emu target does not "
                  "support";
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult LowerNVVMToCPUPass::layOutSharedMemory() {
  DataLayout dataLayout = DataLayout::closest(module);
  int64_t end = 0, externAlignment = GPUMEM_SHARED_ALIGNMENT;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (global.getAddrSpace() != kSharedAddressSpace)
      continue;
    int64_t size = int64_t(dataLayout.getTypeSize(global.getType()));
    int64_t alignment = global.getAlignment().value_or(
        int64_t(dataLayout.getTypeABIAlignment(global.getType())));
    if (alignment < 1)
      alignment = 1;
    if (alignment > GPUMEM_ARENA_ALIGNMENT || !llvm::isPowerOf2_64(alignment))
      return global.emitOpError()
             << "asks for an alignment of " << alignment
             << " bytes; the cuda-emu target aligns shared memory to at most "
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
           << " bytes of static shared memory; " << chip << " allows "
           << layout.maxSharedBytesPerBlock << " per block";
  return success();
}

void LowerNVVMToCPUPass::addContextArguments() {
  auto ptr = LLVM::LLVMPointerType::get(&getContext());
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
      extended.push_back(DictionaryAttr::get(&getContext()));
      func.setArgAttrsAttr(ArrayAttr::get(&getContext(), extended));
    }
  }
  SymbolTable symbols(module);
  for (Operation *op : defined) {
    auto func = cast<LLVM::LLVMFuncOp>(op);
    Value context = func.getArgument(func.getNumArguments() - 1);
    func.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> name = call.getCallee();
      if (!name)
        return;
      Operation *callee = symbols.lookup(*name);
      if (callee && defined.contains(callee))
        call.getCalleeOperandsMutable().append(context);
    });
  }
}

LogicalResult LowerNVVMToCPUPass::lowerFunction(LLVM::LLVMFuncOp func) {
  DeviceFunctionState state;
  state.context = func.getArgument(func.getNumArguments() - 1);
  state.layout = layout;
  state.waiting = barrierOnlyKernels.contains(func) ? Waiting::BarrierCoroutine
                  : coroutineKernels.contains(func) ? Waiting::Coroutine
                                                    : Waiting::Fibers;
  RewritePatternSet patterns(&getContext());
  populateNVVMToCPUPatterns(patterns, state);
  // Each op once, unreachable blocks included (unlike walkAndApplyPatterns).
  gpumem::hostkernel::applyPatternsToEachOp(
      func, FrozenRewritePatternSet(std::move(patterns)));
  return failure(state.failed);
}

void LowerNVVMToCPUPass::eraseAddressSpaces() {
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

void LowerNVVMToCPUPass::lowerSharedAddresses() {
  SymbolTable symbols(module);
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

void LowerNVVMToCPUPass::createKernelEntries() {
  MLIRContext *context = &getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto voidType = LLVM::LLVMVoidType::get(context);
  SmallVector<gpumem::hostkernel::KernelTableEntry> table;
  // Every NVVM attribute goes: the host has no use for them, and some (the
  // kernel calling convention) the host backend cannot compile.
  auto dropNVVMAttributes = [](LLVM::LLVMFuncOp func) {
    for (NamedAttribute attr : llvm::to_vector(func->getAttrs()))
      if (attr.getName().getValue().starts_with("nvvm.") ||
          attr.getName().getValue().starts_with("gpu."))
        func->removeAttr(attr.getName());
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      if (DictionaryAttr dict = func.getArgAttrDict(i))
        for (NamedAttribute attr : llvm::to_vector(dict.getValue()))
          if (attr.getName().getValue().starts_with("nvvm."))
            func.removeArgAttr(i, attr.getName());
  };
  // The launch limits CUDA enforces, read before the attributes go: a
  // kernel's .maxntid as a number of threads, its .reqntid as a size.
  llvm::DenseMap<Operation *, int32_t> maxThreads;
  llvm::DenseMap<Operation *, SmallVector<int32_t, 3>> requiredSizes;
  for (LLVM::LLVMFuncOp kernel : kernels) {
    auto dims = [&](StringRef name) {
      SmallVector<int32_t, 3> sizes;
      if (auto attr = kernel->getAttrOfType<DenseI32ArrayAttr>(name))
        llvm::append_range(sizes, attr.asArrayRef());
      return sizes;
    };
    SmallVector<int32_t, 3> most =
        dims(NVVM::NVVMDialect::getMaxntidAttrName());
    if (!most.empty()) {
      int64_t threads = 1;
      for (int32_t size : most)
        threads *= std::max<int64_t>(size, 1);
      maxThreads[kernel] = int32_t(std::min<int64_t>(threads, INT32_MAX));
    }
    SmallVector<int32_t, 3> required =
        dims(NVVM::NVVMDialect::getReqntidAttrName());
    if (!required.empty() && required.size() <= 3) {
      required.resize(3, 1);
      requiredSizes[kernel] = required;
    }
  }
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    dropNVVMAttributes(func);

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
    gpumem::hostkernel::KernelWrapper<LLVM::LLVMFuncOp> runThread =
        gpumem::hostkernel::createRunThread(
            builder, loc, runThreadName, kernel, original.getParams(),
            DataLayout::closest(kernel), loadArgument);

    gpumem::hostkernel::KernelTableEntry entry;
    entry.name = name;
    (coroutine ? entry.startCoroutine : entry.runThread) =
        FlatSymbolRefAttr::get(context, runThreadName);
    entry.sharedBytes = layout.staticBytes;
    entry.needsFibers = needsFibers.contains(kernel);
    entry.numParams = int32_t(original.getNumParams());
    entry.paramBytes = runThread.paramBytes;
    entry.chip = chip;
    entry.maxSharedBytes = int64_t(layout.maxSharedBytesPerBlock);
    if (coroutine)
      entry.resumeCoroutine = FlatSymbolRefAttr::get(context, kResumeName);
    entry.barriersOnly = barrierOnlyKernels.contains(kernel);
    entry.maxThreads = maxThreads.lookup(kernel);
    auto required = requiredSizes.find(kernel);
    if (required != requiredSizes.end())
      entry.knownBlockSize = {required->second[0], required->second[1],
                              required->second[2]};
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
  gpumem::hostkernel::setKernelTable(module, table);
}

} // namespace
