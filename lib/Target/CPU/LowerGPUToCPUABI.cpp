//===----------------------------------------------------------------------===//
// gpumem-lower-gpu-to-cpu-abi: rewrite a gpu.module's kernels into ordinary
// functions that take the thread's GPUMemThreadContext, as
// include/gpumem/Runtime/CPUKernelABI.h lays down.
//
// Algorithm, on one gpu.module:
//  1. (gpu.all_reduce, gpu.subgroup_reduce and gpu.subgroup_id were
//     rewritten by gpumem-lower-gpu-collectives before this pass.)
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
//     each block's threads. A kernel with block-uniform barriers gets a
//     barrier-free block-wide copy (BarrierFission.cpp) that its run_blocks
//     calls instead of fibers. K stays behind as an empty stub with its
//     signature: host gpu.launch_func ops verify against it. A kernel that may
//     reach a cf.assert gets neither run_blocks nor the block-wide copy: a
//     thread that fails an assert stops alone, so its threads run one by one.
//  5. GPU ops become context loads and runtime service calls: ids and dims,
//     lane and subgroup ids, barrier, shuffle, printf (libc's),
//     dynamic shared memory, workgroup globals, cf.assert (a call of
//     assertFail with the file, line and function CUDA's message names).
// The kernel table is left on the gpu.module for gpumem-finalize-cpu-module.
//===----------------------------------------------------------------------===//

#include "BarrierFission.h"
#include "../HostKernel/HostCode.h"
#include "../HostKernel/KernelTable.h"

#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Transforms/SourceLocation.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

constexpr int64_t kContextThreadId = offsetof(GPUMemThreadContext, threadId);
constexpr int64_t kContextBlockId = offsetof(GPUMemThreadContext, blockId);
constexpr int64_t kContextBlockDim = offsetof(GPUMemThreadContext, blockDim);
constexpr int64_t kContextGridDim = offsetof(GPUMemThreadContext, gridDim);
constexpr int64_t kContextShared = offsetof(GPUMemThreadContext, sharedMemory);
constexpr int64_t kContextDynamicShared =
    offsetof(GPUMemThreadContext, dynamicSharedMemory);
constexpr int64_t kContextDynamicSharedBytes =
    offsetof(GPUMemThreadContext, dynamicSharedBytes);

/// Accesses to a thread context, with the ids and sizes as indices.
class ContextAccess : public hostkernel::ContextAccess {
public:
  using hostkernel::ContextAccess::ContextAccess;

  /// An i64 field of the context as an index.
  Value loadIndex(int64_t offset) {
    Value value = load(context, offset, builder.getI64Type());
    return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                      value);
  }
  Value dimension(int64_t fieldOffset, gpu::Dimension dim) {
    return loadIndex(fieldOffset + 8 * static_cast<int64_t>(dim));
  }
  /// x + y * dimX + z * dimX * dimY of the thread within its block.
  Value linearThreadId() {
    Value x = dimension(kContextThreadId, gpu::Dimension::x);
    Value y = dimension(kContextThreadId, gpu::Dimension::y);
    Value z = dimension(kContextThreadId, gpu::Dimension::z);
    Value dimX = dimension(kContextBlockDim, gpu::Dimension::x);
    Value dimY = dimension(kContextBlockDim, gpu::Dimension::y);
    Value zy = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, z, dimY), y);
    return arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, zy, dimX), x);
  }
  Value threadsPerBlock() {
    Value dimX = dimension(kContextBlockDim, gpu::Dimension::x);
    Value dimY = dimension(kContextBlockDim, gpu::Dimension::y);
    Value dimZ = dimension(kContextBlockDim, gpu::Dimension::z);
    return arith::MulIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, dimX, dimY), dimZ);
  }
};

static int32_t abiShuffleMode(gpu::ShuffleMode mode) {
  switch (mode) {
  case gpu::ShuffleMode::XOR:
    return GPUMEM_SHUFFLE_XOR;
  case gpu::ShuffleMode::UP:
    return GPUMEM_SHUFFLE_UP;
  case gpu::ShuffleMode::DOWN:
    return GPUMEM_SHUFFLE_DOWN;
  case gpu::ShuffleMode::IDX:
    return GPUMEM_SHUFFLE_IDX;
  }
  llvm_unreachable("unknown shuffle mode");
}

/// The rewrite of one gpu.module, with the state it builds up.
class ABILowering {
public:
  ABILowering(gpu::GPUModuleOp module, bool fission, bool phaseMarkers)
      : gpuModule(module), context(module.getContext()), fission(fission),
        phaseMarkers(phaseMarkers) {}
  LogicalResult run();

private:
  LogicalResult layOutModuleGlobals();
  LogicalResult lowerKernel(gpu::GPUFuncOp kernel);
  LogicalResult lowerDeviceGPUFunc(gpu::GPUFuncOp func);
  void addContextArguments();
  LogicalResult lowerGPUOps(FunctionOpInterface func);
  void createWrappers(gpu::GPUFuncOp stub, func::FuncOp impl,
                      func::FuncOp blockImpl, int64_t sharedBytes,
                      bool needsFibers, bool mayAssert);
  /// Unpacks mgpuLaunchKernel's params into values of `types`; counts them.
  SmallVector<Value> unpackParams(OpBuilder &builder, Location loc,
                                  Value params, TypeRange types,
                                  int64_t &numParams);
  /// The bytes each param that unpackParams reads points to.
  SmallVector<int32_t> paramBytes(Operation *kernel, TypeRange types);
  /// A memref of `type` viewing `bytes` at `offset` of the block's arena.
  Value arenaView(OpBuilder &builder, Location loc, Value context,
                  MemRefType type, int64_t offset);

  gpu::GPUModuleOp gpuModule;
  MLIRContext *context;
  bool fission, phaseMarkers;
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
  if (failed(layOutModuleGlobals()))
    return failure();
  needsFibers = hostkernel::findSynchronizingFunctions(gpuModule, [](Operation *op) {
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

  for (auto func : gpuModule.getOps<func::FuncOp>())
    if (!func.isExternal() && failed(lowerGPUOps(func)))
      return failure();

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

Value ABILowering::arenaView(OpBuilder &builder, Location loc,
                                      Value context, MemRefType type,
                                      int64_t offset) {
  ContextAccess access(builder, loc, context);
  Value base = access.address(access.loadPointer(kContextShared), offset);
  Value descriptor =
      MemRefDescriptor::fromStaticShape(builder, loc, *converter, type, base);
  return UnrealizedConversionCastOp::create(builder, loc, type, descriptor)
      .getResult(0);
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
  auto impl = func::FuncOp::create(builder, loc, "__gpumem_kernel_" + kernel.getName().str(),
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
    auto memref = cast<MemRefType>(entry.getArgument(firstAttribution + i).getType());
    if (!memref.hasStaticShape())
      return kernel.emitOpError()
             << "has a workgroup attribution of type " << memref
             << "; attributions need a static shape";
    // The body moved to `impl`: the kernel keeps the attribution attributes.
    arenaBytes = llvm::alignTo(arenaBytes,
                               getAttributionAlignment(kernel, i, memref, layout));
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
        arg.replaceAllUsesWith(
            arenaView(builder, arg.getLoc(), context, memref, offsets[i]));
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
  createWrappers(kernel, impl, blockImpl,
                 llvm::alignTo(arenaBytes, getDynamicSharedAlignment(gpuModule)),
                 fibers, asserts);
  return success();
}

LogicalResult ABILowering::lowerDeviceGPUFunc(gpu::GPUFuncOp func) {
  if (func.getNumWorkgroupAttributions() || func.getNumPrivateAttributions())
    return func.emitOpError()
           << "is a device function with attributions, which the cpu target "
              "does not support; allocate workgroup memory with "
              "memref.alloca instead";
  OpBuilder builder(func);
  auto replacement = func::FuncOp::create(builder, func.getLoc(), func.getName(),
                                          func.getFunctionType());
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

LogicalResult ABILowering::lowerGPUOps(FunctionOpInterface func) {
  if (wrappers.contains(func))
    return success();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i32 = IntegerType::get(context, 32);
  auto i64 = IntegerType::get(context, 64);
  auto voidType = LLVM::LLVMVoidType::get(context);
  Value contextArg = func.getArguments().back();
  SymbolTable symbols(gpuModule);

  SmallVector<Operation *> ops;
  func->walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    ContextAccess access(builder, loc, contextArg);
    auto replace = [&](Value value) {
      op->getResult(0).replaceAllUsesWith(value);
      op->erase();
    };
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      replace(access.dimension(kContextThreadId, id.getDimension()));
    } else if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      replace(access.dimension(kContextBlockId, id.getDimension()));
    } else if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
      auto known = knownBlockSizes.find(func);
      if (known != knownBlockSizes.end())
        replace(arith::ConstantIndexOp::create(
            builder, loc, known->second[size_t(dim.getDimension())]));
      else
        replace(access.dimension(kContextBlockDim, dim.getDimension()));
    } else if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
      replace(access.dimension(kContextGridDim, dim.getDimension()));
    } else if (auto id = dyn_cast<gpu::GlobalIdOp>(op)) {
      Value block = access.dimension(kContextBlockId, id.getDimension());
      Value size = access.dimension(kContextBlockDim, id.getDimension());
      Value thread = access.dimension(kContextThreadId, id.getDimension());
      replace(arith::AddIOp::create(
          builder, loc, arith::MulIOp::create(builder, loc, block, size),
          thread));
    } else if (isa<gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::NumSubgroupsOp,
                   gpu::SubgroupSizeOp>(op)) {
      Value warp = arith::ConstantIndexOp::create(builder, loc, GPUMEM_WARP_SIZE);
      Value result = warp;
      if (isa<gpu::LaneIdOp>(op))
        result = arith::RemUIOp::create(builder, loc, access.linearThreadId(), warp);
      else if (isa<gpu::SubgroupIdOp>(op))
        result = arith::DivUIOp::create(builder, loc, access.linearThreadId(), warp);
      else if (isa<gpu::NumSubgroupsOp>(op))
        result = arith::CeilDivUIOp::create(builder, loc,
                                            access.threadsPerBlock(), warp);
      replace(result);
    } else if (isa<gpu::BarrierOp>(op)) {
      Value where = hostkernel::getStringPointer(builder, loc, gpuModule,
                                          hostkernel::formatLocation(loc));
      access.call(GPUMEM_RUNTIME_SERVICE(barrier), {contextArg, where});
      op->erase();
    } else if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
      Type type = shuffle.getValue().getType();
      unsigned width = type.getIntOrFloatBitWidth();
      if (width > 64)
        return shuffle.emitOpError() << "of " << type
                                     << " is not supported by the cpu target";
      Value bits = shuffle.getValue();
      auto intType = IntegerType::get(context, width);
      if (isa<FloatType>(type))
        bits = arith::BitcastOp::create(builder, loc, intType, bits);
      if (width < 64)
        bits = arith::ExtUIOp::create(builder, loc, i64, bits);
      Value validSlot;
      {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(&func.getFunctionBody().front());
        Value one = LLVM::ConstantOp::create(builder, loc, i64, 1);
        validSlot = LLVM::AllocaOp::create(builder, loc, ptr, i32, one);
      }
      Value mode = LLVM::ConstantOp::create(builder, loc, i32,
                                            abiShuffleMode(shuffle.getMode()));
      Value where = hostkernel::getStringPointer(builder, loc, gpuModule,
                                          hostkernel::formatLocation(loc));
      Value result = access.call(GPUMEM_RUNTIME_SERVICE(shuffle), {contextArg, bits, shuffle.getOffset(), shuffle.getWidth(), mode,
           validSlot, where});
      if (width < 64)
        result = arith::TruncIOp::create(builder, loc, intType, result);
      if (isa<FloatType>(type))
        result = arith::BitcastOp::create(builder, loc, type, result);
      Value valid = LLVM::LoadOp::create(builder, loc, i32, validSlot);
      Value zero = arith::ConstantIntOp::create(builder, loc, i32, 0);
      Value isValid = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ne, valid, zero);
      shuffle.getShuffleResult().replaceAllUsesWith(result);
      shuffle.getValid().replaceAllUsesWith(isValid);
      shuffle.erase();
    } else if (auto printf = dyn_cast<gpu::PrintfOp>(op)) {
      auto printfDecl = dyn_cast_if_present<LLVM::LLVMFuncOp>(
          symbols.lookup("printf"));
      if (!printfDecl) {
        OpBuilder moduleBuilder(gpuModule.getBodyRegion());
        printfDecl = LLVM::LLVMFuncOp::create(
            moduleBuilder, loc, "printf",
            LLVM::LLVMFunctionType::get(i32, {ptr}, /*isVarArg=*/true));
        symbols.insert(printfDecl);
      }
      SmallVector<Value> args{hostkernel::getStringPointer(
          builder, loc, gpuModule, printf.getFormat())};
      for (Value arg : printf.getArgs()) {
        Type type = arg.getType();
        if (isa<IndexType>(type))
          arg = arith::IndexCastOp::create(builder, loc, i64, arg);
        else if (isa<FloatType>(type) && type.getIntOrFloatBitWidth() < 64)
          arg = arith::ExtFOp::create(builder, loc, builder.getF64Type(), arg);
        else if (type.isInteger(1))
          arg = arith::ExtUIOp::create(builder, loc, i32, arg);
        else if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
          arg = arith::ExtSIOp::create(builder, loc, i32, arg);
        args.push_back(arg);
      }
      LLVM::CallOp::create(builder, loc, printfDecl, args);
      op->erase();
    } else if (auto dynamic = dyn_cast<gpu::DynamicSharedMemoryOp>(op)) {
      auto type = cast<MemRefType>(dynamic.getType());
      Value base = access.loadPointer(kContextDynamicShared);
      Value bytes = access.load(contextArg, kContextDynamicSharedBytes, i64);
      MemRefDescriptor descriptor = MemRefDescriptor::poison(
          builder, loc, converter->convertType(type));
      descriptor.setAllocatedPtr(builder, loc, base);
      descriptor.setAlignedPtr(builder, loc, base);
      descriptor.setConstantOffset(builder, loc, 0);
      descriptor.setSize(builder, loc, 0, bytes);
      descriptor.setConstantStride(builder, loc, 0, 1);
      replace(UnrealizedConversionCastOp::create(builder, loc, type,
                                                 Value(descriptor))
                  .getResult(0));
    } else if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(op)) {
      auto it = globalOffsets.find(getGlobal.getNameAttr().getAttr());
      if (it != globalOffsets.end())
        replace(arenaView(builder, loc, contextArg,
                          cast<MemRefType>(getGlobal.getType()), it->second));
    } else if (auto assertOp = dyn_cast<cf::AssertOp>(op)) {
      Value ok = assertOp.getArg();
      Value one = arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1);
      Value failed = arith::XOrIOp::create(builder, loc, ok, one);
      auto ifOp = scf::IfOp::create(builder, loc, failed, /*withElse=*/false);
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
      // The place CUDA's message names, found as the NVVM lowering does.
      AssertSite site = assertSite(loc);
      Value message =
          hostkernel::getStringPointer(builder, loc, gpuModule, assertOp.getMsg());
      Value file = hostkernel::getStringPointer(builder, loc, gpuModule, site.file);
      Value line = arith::ConstantIntOp::create(
          builder, loc, builder.getI32Type(), site.line);
      Value function =
          hostkernel::getStringPointer(builder, loc, gpuModule, site.function);
      access.call(GPUMEM_RUNTIME_SERVICE(assertFail), {contextArg, message, file, line, function});
      assertOp.erase();
    }
  }
  return success();
}

SmallVector<Value> ABILowering::unpackParams(OpBuilder &builder,
                                                      Location loc, Value params,
                                                      TypeRange types,
                                                      int64_t &numParams) {
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = builder.getI64Type();
  auto loadParam = [&](Type type) -> Value {
    Value slot = LLVM::GEPOp::create(builder, loc, ptr, ptr, params,
                                     ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(numParams++)});
    Value address = LLVM::LoadOp::create(builder, loc, ptr, slot);
    return LLVM::LoadOp::create(builder, loc, type, address);
  };
  SmallVector<Value> values;
  for (Type type : types) {
    if (auto memref = dyn_cast<MemRefType>(type)) {
      SmallVector<Value> fields{loadParam(ptr), loadParam(ptr), loadParam(i64)};
      for (int64_t i = 0, e = 2 * memref.getRank(); i < e; ++i)
        fields.push_back(loadParam(i64));
      Value descriptor =
          MemRefDescriptor::pack(builder, loc, *converter, memref, fields);
      values.push_back(
          UnrealizedConversionCastOp::create(builder, loc, type, descriptor)
              .getResult(0));
    } else if (isa<IndexType>(type)) {
      values.push_back(arith::IndexCastOp::create(builder, loc, type,
                                                  loadParam(i64)));
    } else {
      values.push_back(loadParam(type));
    }
  }
  return values;
}

SmallVector<int32_t> ABILowering::paramBytes(Operation *kernel,
                                             TypeRange types) {
  DataLayout layout = DataLayout::closest(kernel);
  SmallVector<int32_t> bytes;
  for (Type type : types) {
    if (auto memref = dyn_cast<MemRefType>(type))
      bytes.append(3 + 2 * memref.getRank(), 8);
    else if (isa<IndexType>(type))
      bytes.push_back(8);
    else
      bytes.push_back(int32_t(layout.getTypeSize(type).getFixedValue()));
  }
  return bytes;
}

/// The id of the block after `id` (x fastest, carrying into y and z) in a
/// grid of `gridX` x `gridY` x any blocks; `zero` and `one` are the index
/// constants.
SmallVector<Value> nextBlockId(OpBuilder &b, Location loc, ValueRange id,
                               Value gridX, Value gridY, Value zero,
                               Value one) {
  auto carry = [&](Value wrapped) {
    return arith::SelectOp::create(b, loc, wrapped, one, zero);
  };
  Value nextX = arith::AddIOp::create(b, loc, id[0], one);
  Value wrapX =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, nextX, gridX);
  Value nextY = arith::AddIOp::create(b, loc, id[1], carry(wrapX));
  Value wrapY =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, nextY, gridY);
  Value nextZ = arith::AddIOp::create(b, loc, id[2], carry(wrapY));
  return {arith::SelectOp::create(b, loc, wrapX, zero, nextX),
          arith::SelectOp::create(b, loc, wrapY, zero, nextY), nextZ};
}

void ABILowering::createWrappers(gpu::GPUFuncOp stub, func::FuncOp impl,
                                 func::FuncOp blockImpl, int64_t sharedBytes,
                                 bool fibers, bool asserts) {
  Location loc = stub.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  TypeRange argTypes = stub.getFunctionType().getInputs();
  OpBuilder builder(stub);
  int64_t numParams = 0;

  // A wrapper of type (params, ctx, extra...) whose body unpacks the params
  // into `args` (plus the context), leaving `body` at the end of its entry
  // block.
  auto makeWrapper = [&](StringRef prefix, OpBuilder &body,
                         SmallVector<Value> &args, TypeRange extra = {}) {
    SmallVector<Type> inputs{ptr, ptr};
    llvm::append_range(inputs, extra);
    auto wrapper =
        func::FuncOp::create(builder, loc, (prefix + stub.getName()).str(),
                             FunctionType::get(context, inputs, {}));
    hostkernel::makeInternal(wrapper);
    wrappers.insert(wrapper);
    Block *entry = wrapper.addEntryBlock();
    body.setInsertionPointToStart(entry);
    numParams = 0;
    args = unpackParams(body, loc, entry->getArgument(0), argTypes, numParams);
    args.push_back(entry->getArgument(1));
    return wrapper;
  };

  OpBuilder threadBody(context);
  SmallVector<Value> threadArgs;
  func::FuncOp runThread =
      makeWrapper("__gpumem_run_thread_", threadBody, threadArgs);
  func::CallOp::create(threadBody, loc, impl, threadArgs);
  func::ReturnOp::create(threadBody, loc);

  hostkernel::KernelTableEntry entry;
  entry.name = stub.getName().str();
  entry.runThread = FlatSymbolRefAttr::get(runThread);
  entry.sharedBytes = sharedBytes;
  // A block-wide copy without barriers runs without fibers.
  entry.needsFibers = fibers && !blockImpl;
  entry.numParams = int32_t(numParams);
  entry.paramBytes = paramBytes(stub, argTypes);
  std::optional<ArrayRef<int32_t>> known = stub.getKnownBlockSize();
  if (known)
    entry.knownBlockSize = {(*known)[0], (*known)[1], (*known)[2]};

  if (!blockImpl && (fibers || asserts)) {
    kernelTable.push_back(std::move(entry));
    return;
  }

  // runBlocks(params, ctx, first, last): the params are unpacked once, then
  // a loop over the blocks runs each block's code.
  OpBuilder body(context);
  SmallVector<Value> args;
  func::FuncOp runBlocks =
      makeWrapper("__gpumem_run_blocks_", body, args, {i64, i64});
  // Nothing but the blocks' own code touches the context while runBlocks
  // runs (the runtime sets it up before and services get it as an
  // argument), so the context is noalias there: LLVM then keeps the thread
  // ids in registers and hoists block values out of the thread loops,
  // which lets it vectorize them.
  runBlocks.setArgAttr(1, LLVM::LLVMDialect::getNoAliasAttrName(),
                       UnitAttr::get(context));
  Value contextArg = args.back();
  Value zero = arith::ConstantIndexOp::create(body, loc, 0);
  Value one = arith::ConstantIndexOp::create(body, loc, 1);
  ContextAccess access(body, loc, contextArg);
  auto toIndex = [&](OpBuilder &b, Value value) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
  };
  Value gridX = access.dimension(kContextGridDim, gpu::Dimension::x);
  Value gridY = access.dimension(kContextGridDim, gpu::Dimension::y);
  Value first = toIndex(body, runBlocks.getArgument(2));
  Value last = toIndex(body, runBlocks.getArgument(3));
  // The thread loops' bounds, for kernels without a block-wide copy.
  Value dims[3];
  for (int d = 0; d < 3 && !blockImpl; ++d)
    dims[d] = known ? arith::ConstantIndexOp::create(body, loc, (*known)[d])
                    : access.dimension(kContextBlockDim,
                                       static_cast<gpu::Dimension>(d));
  // The first block's id; later ones are stepped from it.
  Value rows = arith::DivUIOp::create(body, loc, first, gridX);
  Value firstId[3] = {arith::RemUIOp::create(body, loc, first, gridX),
                      arith::RemUIOp::create(body, loc, rows, gridY),
                      arith::DivUIOp::create(body, loc, rows, gridY)};
  auto blockLoop =
      scf::ForOp::create(body, loc, first, last, one, ValueRange(firstId));
  OpBuilder inner = OpBuilder::atBlockBegin(blockLoop.getBody());
  ValueRange blockId = blockLoop.getRegionIterArgs();
  ContextAccess innerAccess(inner, loc, contextArg);
  // Relaxed atomic stores: LLVM neither sinks them out of the loop nor
  // merges them, so a fault report names the block that faulted. (Volatile
  // stores would do that too, but they count as capturing the context,
  // which would cost its noalias.)
  for (int d = 0; d < 3; ++d) {
    Value id = arith::IndexCastOp::create(inner, loc, i64, blockId[d]);
    LLVM::StoreOp::create(
        inner, loc, id,
        innerAccess.address(contextArg, kContextBlockId + 8 * d),
        /*alignment=*/8, /*isVolatile=*/false, /*isNonTemporal=*/false,
        /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic);
  }

  if (blockImpl) {
    func::CallOp::create(inner, loc, blockImpl, args);
  } else {
    // z outermost, x innermost: the order threads have in CUDA's warps.
    std::function<void(OpBuilder &, int)> loopOver = [&](OpBuilder &b, int d) {
      auto loop = scf::ForOp::create(b, loc, zero, dims[d], one);
      OpBuilder threads = OpBuilder::atBlockBegin(loop.getBody());
      ContextAccess threadAccess(threads, loc, contextArg);
      Value id =
          arith::IndexCastOp::create(threads, loc, i64, loop.getInductionVar());
      LLVM::StoreOp::create(
          threads, loc, id,
          threadAccess.address(contextArg, kContextThreadId + 8 * d));
      if (d == 0)
        func::CallOp::create(threads, loc, impl, args);
      else
        loopOver(threads, d - 1);
    };
    loopOver(inner, 2);
  }

  scf::YieldOp::create(
      inner, loc, nextBlockId(inner, loc, blockId, gridX, gridY, zero, one));
  func::ReturnOp::create(body, loc);
  entry.runBlocks = FlatSymbolRefAttr::get(runBlocks);
  kernelTable.push_back(std::move(entry));
}

struct LowerGPUToCPUABIPass
    : gpumem::impl::GPUMemLowerGPUToCPUABIPassBase<LowerGPUToCPUABIPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(ABILowering(getOperation(), fission, phaseMarkers).run()))
      signalPassFailure();
  }
};

} // namespace
