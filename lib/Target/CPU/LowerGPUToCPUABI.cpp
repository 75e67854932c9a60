//===----------------------------------------------------------------------===//
// gpumem-lower-gpu-to-cpu-abi: rewrite a gpu.module's kernels into ordinary
// functions that take the thread's GPUMemThreadContext, as
// include/gpumem/Runtime/CPUKernelABI.h lays down.
//
// Algorithm, on one gpu.module:
//  1. (gpu.all_reduce, gpu.subgroup_reduce and gpu.subgroup_id were
//     rewritten by gpumem-lower-gpu-collectives before this pass.)
//     gpu.subgroup_mma_* and nvgpu's async copies become per-thread vector
//     code (LowerMMAToCPU.cpp).
//  2. Functions that contain gpu.barrier or gpu.shuffle, and their callers,
//     need fibers.
//  3. The block's workgroup arena: module-level workgroup globals first, at
//     the same offsets for every kernel, then each kernel's attributions;
//     every buffer aligned to 16 bytes (and its element's alignment).
//  4. Every function with a body gets a trailing `!llvm.ptr` context
//     argument and every call passes its caller's. Kernel K becomes
//     `__gpumem_kernel_K` (attributions replaced by arena views and allocas)
//     and two wrappers that unpack mgpuLaunchKernel's `params`:
//     `__gpumem_run_thread_K` and, for kernels without fibers,
//     `__gpumem_run_blocks_K`, which loops over a range of blocks and over
//     each block's threads (LaunchWrappers.cpp). A kernel with block-uniform
//     barriers gets a barrier-free block-wide copy (BarrierFission.cpp) that
//     its run_blocks calls instead of fibers. K stays behind as an empty stub
//     with its signature: host gpu.launch_func ops verify against it. A kernel
//     that may reach a cf.assert gets neither run_blocks nor the block-wide
//     copy: a thread that fails an assert stops alone, so its threads run one
//     by one.
//  5. GPU ops become context loads and runtime service calls, one rewrite
//     pattern per op (GPUToCPUServices.cpp): ids and dims, lane and
//     subgroup ids, barrier, shuffle, printf (libc's), dynamic shared
//     memory, workgroup globals, cf.assert (a call of assertFail with the
//     file, line and function CUDA's message names).
// The kernel table is left on the gpu.module for gpumem-finalize-cpu-module.
//===----------------------------------------------------------------------===//

#include "../HostKernel/HostCode.h"
#include "../HostKernel/KernelTable.h"
#include "BarrierFission.h"
#include "GPUToCPUServices.h"
#include "LaunchWrappers.h"
#include "LowerMMAToCPU.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Transforms/SourceLocation.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <cstddef>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERGPUTOCPUABIPASS
#include "gpumem/Target/CPU/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem;

namespace {

/// The rewrite of one gpu.module, with the state it builds up.
class ABILowering {
public:
  ABILowering(gpu::GPUModuleOp module, bool fission, bool phaseMarkers,
              bool wholeFragments)
      : gpuModule(module), context(module.getContext()), fission(fission),
        phaseMarkers(phaseMarkers), wholeFragments(wholeFragments) {}
  LogicalResult run();

private:
  LogicalResult layOutModuleGlobals();
  LogicalResult lowerKernel(gpu::GPUFuncOp kernel);
  LogicalResult lowerDeviceGPUFunc(gpu::GPUFuncOp func);
  void addContextArguments();
  /// GPU ops in the functions with a context (GPUToCPUServices.h).
  LogicalResult lowerGPUOps();

  gpu::GPUModuleOp gpuModule;
  MLIRContext *context;
  bool fission, phaseMarkers, wholeFragments;
  std::unique_ptr<LLVMTypeConverter> converter;
  llvm::DenseSet<Operation *> needsFibers;
  /// Functions that hold a cf.assert or call one that does.
  llvm::DenseSet<Operation *> mayAssert;
  /// A kernel's known_block_size, by its implementations (the kernel's and
  /// the fissioned copy): gpu.block_dim there, like run_blocks' loops, uses
  /// it as a constant (the runtime refuses launches of other sizes).
  llvm::DenseMap<Operation *, SmallVector<int64_t, 3>> knownBlockSizes;
  llvm::DenseMap<StringAttr, int64_t> globalOffsets;
  int64_t moduleArenaBytes = 0;
  SmallVector<hostkernel::KernelTableEntry> kernelTable;
  /// Generated kernel implementations: they take the context already.
  llvm::DenseSet<Operation *> hasContext;
  /// Generated run_thread/run_blocks wrappers: (params, ctx, ...), no GPU
  /// ops.
  llvm::DenseSet<Operation *> wrappers;
};

LogicalResult ABILowering::run() {
  converter = hostkernel::createHostTypeConverter(context);
  // Fragments and async copies first: fission then sees plain vector code
  // (and the shuffles that keep tensor-core stores in the warp's order).
  cpu::orderWarpMatrixStores(gpuModule);
  if (failed(cpu::lowerFragmentsAndAsyncCopies(gpuModule, wholeFragments)))
    return failure();
  if (failed(layOutModuleGlobals()))
    return failure();
  needsFibers =
      hostkernel::findSynchronizingFunctions(gpuModule, [](Operation *op) {
        return isa<gpu::BarrierOp, gpu::ShuffleOp>(op);
      });
  mayAssert = hostkernel::findSynchronizingFunctions(
      gpuModule, [](Operation *op) { return isa<cf::AssertOp>(op); });

  // Kernels and device gpu.funcs become func.funcs with a context argument.
  SmallVector<gpu::GPUFuncOp> gpuFuncs(gpuModule.getOps<gpu::GPUFuncOp>());
  SmallVector<func::FuncOp> impls;
  for (gpu::GPUFuncOp func : gpuFuncs)
    if (failed(func.isKernel() ? lowerKernel(func) : lowerDeviceGPUFunc(func)))
      return failure();
  addContextArguments();

  if (failed(lowerGPUOps()))
    return failure();
  // The declarations the async copies' calls had until lowerGPUOps.
  for (auto func : llvm::make_early_inc_range(gpuModule.getOps<func::FuncOp>()))
    if (func.isExternal() && func.getName().starts_with("__gpumem_async_"))
      func.erase();

  // Workgroup globals now live in the arena.
  for (auto global :
       llvm::make_early_inc_range(gpuModule.getOps<memref::GlobalOp>()))
    if (globalOffsets.contains(global.getSymNameAttr()))
      global.erase();

  // Anything of the gpu dialect still here has no CPU lowering.
  WalkResult unsupported = gpuModule.walk([&](Operation *op) {
    if (isa<gpu::GPUFuncOp, gpu::ReturnOp>(op) || op == gpuModule)
      return WalkResult::advance();
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == "gpu" || dialect == "nvvm" || dialect == "nvgpu" ||
        dialect == "rocdl" || dialect == "amdgpu") {
      op->emitOpError() << "is not supported by the cpu target";
      return WalkResult::interrupt();
    }
    // GPU assembly cannot run on the host (and the host backend would
    // abort on it).
    if (isa<LLVM::InlineAsmOp>(op)) {
      op->emitOpError() << "(inline assembly) is not supported by the cpu "
                           "target";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();
  hostkernel::setKernelTable(gpuModule, kernelTable);
  return success();
}

LogicalResult ABILowering::layOutModuleGlobals() {
  DataLayout layout = DataLayout::closest(gpuModule);
  for (auto global : gpuModule.getOps<memref::GlobalOp>()) {
    MemRefType type = global.getType();
    if (!isWorkgroupMemorySpace(type.getMemorySpace()))
      continue;
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !global.isUninitialized())
      return global.emitOpError()
             << "workgroup globals on the cpu target must be uninitialized, "
                "of static shape and identity layout";
    uint64_t alignment = getWorkgroupBufferAlignment(type, layout);
    if (std::optional<uint64_t> wanted = global.getAlignment())
      alignment = std::max(alignment, *wanted);
    moduleArenaBytes = llvm::alignTo(moduleArenaBytes, alignment);
    globalOffsets[global.getSymNameAttr()] = moduleArenaBytes;
    moduleArenaBytes += getWorkgroupBufferBytes(type, layout);
  }
  return success();
}

LogicalResult ABILowering::lowerKernel(gpu::GPUFuncOp kernel) {
  Location loc = kernel.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(context);
  FunctionType type = kernel.getFunctionType();
  for (Type input : type.getInputs()) {
    if (!isa<MemRefType>(input) && !LLVM::isCompatibleType(input) &&
        !isa<IndexType>(input))
      return kernel.emitOpError()
             << "has an argument of type " << input
             << ", which the cpu target cannot pass to a kernel";
    // A memref travels as a strided descriptor: its layout must have one.
    if (auto memref = dyn_cast<MemRefType>(input))
      if (!memref.isStrided())
        return kernel.emitOpError()
               << "has an argument of type " << input
               << ", whose layout is not strided; kernels take memrefs as "
                  "strided descriptors (normalize the layout first, e.g. "
                  "with --normalize-memrefs)";
  }

  OpBuilder builder(kernel);
  SmallVector<Type> inputs(type.getInputs());
  inputs.push_back(ptr);
  auto impl = func::FuncOp::create(builder, loc,
                                   "__gpumem_kernel_" + kernel.getName().str(),
                                   builder.getFunctionType(inputs, {}));
  hostkernel::makeInternal(impl);
  // Counted from the body's arguments: before the body moves.
  unsigned numPrivate = kernel.getNumPrivateAttributions();
  impl.getBody().takeBody(kernel.getBody());
  Block &entry = impl.front();
  entry.addArgument(ptr, loc);

  // Kernels with barriers get a block-wide copy without them when thread-loop
  // fission applies; both functions then get the same attribution handling.
  // So do kernels without barriers whose uniform loops fission runs outside
  // the thread loops (where they vectorize across threads).
  func::FuncOp blockImpl;
  bool fibers = needsFibers.contains(kernel);
  // A thread that fails an assert stops alone, so a kernel that may assert
  // runs thread by thread (as fibers, with barriers): no block-wide copy.
  bool asserts = mayAssert.contains(kernel);
  if (numPrivate == 0 && fission && !asserts)
    blockImpl = cpu::createBarrierFreeBlockFunction(
        impl, "__gpumem_kernel_block_" + kernel.getName().str(), needsFibers,
        phaseMarkers, /*onlyForOutsideLoops=*/!fibers);

  DataLayout layout = DataLayout::closest(gpuModule);
  int64_t arenaBytes = moduleArenaBytes;
  unsigned firstAttribution = type.getNumInputs();
  unsigned numWorkgroup = kernel.getNumWorkgroupAttributions();
  unsigned numAttributions = entry.getNumArguments() - 1 - firstAttribution;
  SmallVector<int64_t> offsets;
  for (unsigned i = 0; i < numWorkgroup; ++i) {
    auto memref =
        cast<MemRefType>(entry.getArgument(firstAttribution + i).getType());
    if (!memref.hasStaticShape())
      return kernel.emitOpError()
             << "has a workgroup attribution of type " << memref
             << "; attributions need a static shape";
    // The body moved to `impl`: the kernel keeps the attribution attributes.
    arenaBytes = llvm::alignTo(
        arenaBytes, getAttributionAlignment(kernel, i, memref, layout));
    offsets.push_back(arenaBytes);
    arenaBytes += getWorkgroupBufferBytes(memref, layout);
  }
  // Attributions: arena views and per-thread allocas.
  auto replaceAttributions = [&](func::FuncOp func) {
    Block &body = func.front();
    Value context = body.getArguments().back();
    builder.setInsertionPointToStart(&body);
    for (unsigned i = 0; i < numAttributions; ++i) {
      BlockArgument arg = body.getArgument(firstAttribution + i);
      auto memref = cast<MemRefType>(arg.getType());
      if (i < numWorkgroup)
        arg.replaceAllUsesWith(cpu::arenaView(builder, arg.getLoc(), context,
                                              memref, offsets[i], *converter));
      else
        arg.replaceAllUsesWith(
            memref::AllocaOp::create(builder, arg.getLoc(), memref));
    }
    body.eraseArguments(firstAttribution, numAttributions);
    func.walk([&](gpu::ReturnOp ret) {
      OpBuilder b(ret);
      func::ReturnOp::create(b, ret.getLoc(), ret.getOperands());
      ret.erase();
    });
  };
  replaceAttributions(impl);
  if (blockImpl)
    replaceAttributions(blockImpl);
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize()) {
    SmallVector<int64_t, 3> sizes(known->begin(), known->end());
    knownBlockSizes[impl] = sizes;
    if (blockImpl)
      knownBlockSizes[blockImpl] = sizes;
  }
  hasContext.insert(impl);
  if (blockImpl)
    hasContext.insert(blockImpl);

  // The stub keeps the kernel's name and signature for the host side.
  Block *stubEntry = new Block();
  kernel.getBody().push_back(stubEntry);
  for (Type input : type.getInputs())
    stubEntry->addArgument(input, loc);
  builder.setInsertionPointToStart(stubEntry);
  gpu::ReturnOp::create(builder, loc);
  kernel->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                  builder.getI64IntegerAttr(0));
  kernel->removeAttr("workgroup_attrib_attrs");
  kernel->removeAttr("private_attrib_attrs");

  if (fibers)
    needsFibers.insert(impl);
  // Dynamic shared memory follows, aligned as the module needs it.
  kernelTable.push_back(cpu::createLaunchWrappers(
      kernel, impl, blockImpl,
      llvm::alignTo(arenaBytes, getDynamicSharedAlignment(gpuModule)), fibers,
      asserts, *converter, wrappers));
  return success();
}

LogicalResult ABILowering::lowerDeviceGPUFunc(gpu::GPUFuncOp func) {
  if (func.getNumWorkgroupAttributions() || func.getNumPrivateAttributions())
    return func.emitOpError()
           << "is a device function with attributions, which the cpu target "
              "does not support; allocate workgroup memory with "
              "memref.alloca instead";
  OpBuilder builder(func);
  auto replacement = func::FuncOp::create(
      builder, func.getLoc(), func.getName(), func.getFunctionType());
  replacement.setVisibility(func.getVisibility());
  replacement.getBody().takeBody(func.getBody());
  replacement.walk([&](gpu::ReturnOp ret) {
    OpBuilder b(ret);
    func::ReturnOp::create(b, ret.getLoc(), ret.getOperands());
    ret.erase();
  });
  if (needsFibers.contains(func))
    needsFibers.insert(replacement);
  func.erase();
  return success();
}

void ABILowering::addContextArguments() {
  auto ptr = LLVM::LLVMPointerType::get(context);
  llvm::DenseSet<StringAttr> withContext;
  for (auto func : gpuModule.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    withContext.insert(func.getSymNameAttr());
    // Kernel implementations and wrappers already have theirs.
    if (hasContext.contains(func) || wrappers.contains(func))
      continue;
    (void)func.insertArgument(func.getNumArguments(), ptr, DictionaryAttr(),
                              func.getLoc());
  }
  gpuModule.walk([&](func::CallOp call) {
    if (!withContext.contains(call.getCalleeAttr().getAttr()))
      return;
    auto caller = call->getParentOfType<func::FuncOp>();
    if (wrappers.contains(caller))
      return; // wrappers pass the context explicitly
    call.getOperandsMutable().append(caller.getArguments().back());
  });
}

LogicalResult ABILowering::lowerGPUOps() {
  bool reportedError = false;
  cpu::ServicesLoweringState state{gpuModule, *converter, knownBlockSizes,
                                   globalOffsets, reportedError};
  RewritePatternSet patterns(context);
  cpu::populateGPUToCPUServicesPatterns(patterns, state);
  FrozenRewritePatternSet frozen(std::move(patterns));
  for (auto func : gpuModule.getOps<func::FuncOp>())
    if (!func.isExternal() && !wrappers.contains(func))
      hostkernel::applyPatternsToEachOp(func, frozen);
  return failure(reportedError);
}

struct LowerGPUToCPUABIPass
    : gpumem::impl::GPUMemLowerGPUToCPUABIPassBase<LowerGPUToCPUABIPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(
            ABILowering(getOperation(), fission, phaseMarkers, wholeFragments)
                .run()))
      signalPassFailure();
  }
};

} // namespace
