//===----------------------------------------------------------------------===//
// The per-op patterns of GPUToCPUServices.h. Each is a direct translation:
// a context field read (ids, dims; gpu.block_dim a constant when the
// kernel's block size is known), a call of the runtime service the C
// declaration in CPUKernelABI.h types (barrier, shuffle, assertFail), libc's
// printf with C's default argument promotions, or a memref descriptor over
// the block's arena (workgroup globals, dynamic shared memory).
//===----------------------------------------------------------------------===//

#include "GPUToCPUServices.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Transforms/SourceLocation.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cstddef>

using namespace mlir;
using namespace gpumem;
using namespace gpumem::cpu;

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

/// The thread context: the last argument of the function around `op`.
Value contextOf(Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  return func.getArguments().back();
}

int32_t abiShuffleMode(gpu::ShuffleMode mode) {
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

/// A pattern with the module-level state.
template <typename OpT> struct ServicePattern : OpRewritePattern<OpT> {
  ServicePattern(MLIRContext *context, const ServicesLoweringState &state)
      : OpRewritePattern<OpT>(context), state(state) {}
  const ServicesLoweringState &state;
};

/// gpu.thread_id, gpu.block_id, gpu.grid_dim: a field of the context.
template <typename OpT, int64_t field>
struct DimensionLowering : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    ContextAccess access(rewriter, op.getLoc(), contextOf(op));
    rewriter.replaceOp(op, access.dimension(field, op.getDimension()));
    return success();
  }
};

/// gpu.block_dim: a constant when the kernel's block size is known.
struct BlockDimLowering : ServicePattern<gpu::BlockDimOp> {
  using ServicePattern::ServicePattern;
  LogicalResult matchAndRewrite(gpu::BlockDimOp op,
                                PatternRewriter &rewriter) const override {
    auto known =
        state.knownBlockSizes.find(op->getParentOfType<FunctionOpInterface>());
    if (known != state.knownBlockSizes.end()) {
      rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
          op, known->second[size_t(op.getDimension())]);
      return success();
    }
    ContextAccess access(rewriter, op.getLoc(), contextOf(op));
    rewriter.replaceOp(op,
                       access.dimension(kContextBlockDim, op.getDimension()));
    return success();
  }
};

/// gpu.global_id: block id * block size + thread id.
struct GlobalIdLowering : OpRewritePattern<gpu::GlobalIdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::GlobalIdOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ContextAccess access(rewriter, loc, contextOf(op));
    Value block = access.dimension(kContextBlockId, op.getDimension());
    Value size = access.dimension(kContextBlockDim, op.getDimension());
    Value thread = access.dimension(kContextThreadId, op.getDimension());
    rewriter.replaceOp(
        op, arith::AddIOp::create(
                rewriter, loc,
                arith::MulIOp::create(rewriter, loc, block, size), thread));
    return success();
  }
};

/// gpu.lane_id, gpu.subgroup_id, gpu.num_subgroups, gpu.subgroup_size, with
/// subgroups of GPUMEM_WARP_SIZE consecutive linear thread ids.
template <typename OpT> struct SubgroupQueryLowering : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ContextAccess access(rewriter, loc, contextOf(op));
    Value warp =
        arith::ConstantIndexOp::create(rewriter, loc, GPUMEM_WARP_SIZE);
    Value result = warp;
    if constexpr (std::is_same_v<OpT, gpu::LaneIdOp>)
      result =
          arith::RemUIOp::create(rewriter, loc, access.linearThreadId(), warp);
    else if constexpr (std::is_same_v<OpT, gpu::SubgroupIdOp>)
      result =
          arith::DivUIOp::create(rewriter, loc, access.linearThreadId(), warp);
    else if constexpr (std::is_same_v<OpT, gpu::NumSubgroupsOp>)
      result = arith::CeilDivUIOp::create(rewriter, loc,
                                          access.threadsPerBlock(), warp);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gpu.barrier: the runtime's barrier, with the place for its errors.
struct BarrierLowering : ServicePattern<gpu::BarrierOp> {
  using ServicePattern::ServicePattern;
  LogicalResult matchAndRewrite(gpu::BarrierOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value context = contextOf(op);
    Value where = hostkernel::getLocationString(rewriter, loc, state.module);
    ContextAccess(rewriter, loc, context)
        .call(GPUMEM_RUNTIME_SERVICE(barrier), {context, where});
    rewriter.eraseOp(op);
    return success();
  }
};

/// gpu.shuffle: the runtime's shuffle on the value's bits, widened to 64;
/// its validity comes back through a slot on the stack.
struct ShuffleLowering : ServicePattern<gpu::ShuffleOp> {
  using ServicePattern::ServicePattern;
  LogicalResult matchAndRewrite(gpu::ShuffleOp shuffle,
                                PatternRewriter &rewriter) const override {
    Location loc = shuffle.getLoc();
    Type type = shuffle.getValue().getType();
    unsigned width = type.getIntOrFloatBitWidth();
    if (width > 64) {
      shuffle.emitOpError()
          << "of " << type << " is not supported by the cpu target";
      state.reportedError = true;
      return failure();
    }
    MLIRContext *context = rewriter.getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto i32 = rewriter.getI32Type();
    auto i64 = rewriter.getI64Type();
    Value contextArg = contextOf(shuffle);
    Value bits = shuffle.getValue();
    auto intType = IntegerType::get(context, width);
    if (isa<FloatType>(type))
      bits = arith::BitcastOp::create(rewriter, loc, intType, bits);
    if (width < 64)
      bits = arith::ExtUIOp::create(rewriter, loc, i64, bits);
    Value validSlot;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      auto func = shuffle->getParentOfType<FunctionOpInterface>();
      rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
      Value one = LLVM::ConstantOp::create(rewriter, loc, i64, 1);
      validSlot = LLVM::AllocaOp::create(rewriter, loc, ptr, i32, one);
    }
    Value mode = LLVM::ConstantOp::create(rewriter, loc, i32,
                                          abiShuffleMode(shuffle.getMode()));
    Value where = hostkernel::getLocationString(rewriter, loc, state.module);
    Value result = ContextAccess(rewriter, loc, contextArg)
                       .call(GPUMEM_RUNTIME_SERVICE(shuffle),
                             {contextArg, bits, shuffle.getOffset(),
                              shuffle.getWidth(), mode, validSlot, where});
    if (width < 64)
      result = arith::TruncIOp::create(rewriter, loc, intType, result);
    if (isa<FloatType>(type))
      result = arith::BitcastOp::create(rewriter, loc, type, result);
    Value valid = LLVM::LoadOp::create(rewriter, loc, i32, validSlot);
    Value zero = arith::ConstantIntOp::create(rewriter, loc, i32, 0);
    Value isValid = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, valid, zero);
    rewriter.replaceOp(shuffle, {result, isValid});
    return success();
  }
};

/// gpu.printf: libc's printf, with C's default argument promotions.
struct PrintfLowering : ServicePattern<gpu::PrintfOp> {
  using ServicePattern::ServicePattern;
  LogicalResult matchAndRewrite(gpu::PrintfOp printf,
                                PatternRewriter &rewriter) const override {
    Location loc = printf.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto i32 = rewriter.getI32Type();
    auto i64 = rewriter.getI64Type();
    auto printfDecl = dyn_cast_if_present<LLVM::LLVMFuncOp>(
        SymbolTable::lookupSymbolIn(state.module, "printf"));
    if (!printfDecl) {
      OpBuilder::InsertionGuard guard(rewriter);
      gpu::GPUModuleOp module = state.module;
      rewriter.setInsertionPointToStart(module.getBody());
      printfDecl = LLVM::LLVMFuncOp::create(
          rewriter, loc, "printf",
          LLVM::LLVMFunctionType::get(i32, {ptr}, /*isVarArg=*/true));
    }
    SmallVector<Value> args{hostkernel::getStringPointer(
        rewriter, loc, state.module, printf.getFormat())};
    for (Value arg : printf.getArgs()) {
      Type type = arg.getType();
      if (isa<IndexType>(type))
        arg = arith::IndexCastOp::create(rewriter, loc, i64, arg);
      else if (isa<FloatType>(type) && type.getIntOrFloatBitWidth() < 64)
        arg = arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), arg);
      else if (type.isInteger(1))
        arg = arith::ExtUIOp::create(rewriter, loc, i32, arg);
      else if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
        arg = arith::ExtSIOp::create(rewriter, loc, i32, arg);
      args.push_back(arg);
    }
    LLVM::CallOp::create(rewriter, loc, printfDecl, args);
    rewriter.eraseOp(printf);
    return success();
  }
};

/// gpu.dynamic_shared_memory: a 1-D byte memref over the launch's dynamic
/// shared memory, as long as the launch made it.
struct DynamicSharedMemoryLowering
    : ServicePattern<gpu::DynamicSharedMemoryOp> {
  using ServicePattern::ServicePattern;
  LogicalResult matchAndRewrite(gpu::DynamicSharedMemoryOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(op.getType());
    Value contextArg = contextOf(op);
    ContextAccess access(rewriter, loc, contextArg);
    Value base = access.loadPointer(kContextDynamicShared);
    Value bytes = access.load(contextArg, kContextDynamicSharedBytes,
                              rewriter.getI64Type());
    MemRefDescriptor descriptor = MemRefDescriptor::poison(
        rewriter, loc, state.converter.convertType(type));
    descriptor.setAllocatedPtr(rewriter, loc, base);
    descriptor.setAlignedPtr(rewriter, loc, base);
    descriptor.setConstantOffset(rewriter, loc, 0);
    descriptor.setSize(rewriter, loc, 0, bytes);
    descriptor.setConstantStride(rewriter, loc, 0, 1);
    rewriter.replaceOpWithNewOp<UnrealizedConversionCastOp>(op, type,
                                                            Value(descriptor));
    return success();
  }
};

/// memref.get_global of a workgroup global: its place in the arena.
struct WorkgroupGlobalLowering : ServicePattern<memref::GetGlobalOp> {
  using ServicePattern::ServicePattern;
  LogicalResult matchAndRewrite(memref::GetGlobalOp op,
                                PatternRewriter &rewriter) const override {
    auto it = state.globalOffsets.find(op.getNameAttr().getAttr());
    if (it == state.globalOffsets.end())
      return rewriter.notifyMatchFailure(op, "not a workgroup global");
    rewriter.replaceOp(op, arenaView(rewriter, op.getLoc(), contextOf(op),
                                     cast<MemRefType>(op.getType()), it->second,
                                     state.converter));
    return success();
  }
};

/// cf.assert: when it fails, the runtime's assertFail with the place CUDA's
/// message names, found as the NVVM lowering does.
struct AssertLowering : ServicePattern<cf::AssertOp> {
  using ServicePattern::ServicePattern;
  LogicalResult matchAndRewrite(cf::AssertOp assertOp,
                                PatternRewriter &rewriter) const override {
    Location loc = assertOp.getLoc();
    Value contextArg = contextOf(assertOp);
    Value one =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1);
    Value failed = arith::XOrIOp::create(rewriter, loc, assertOp.getArg(), one);
    auto ifOp = scf::IfOp::create(rewriter, loc, failed, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    AssertSite site = assertSite(loc);
    auto string = [&](StringRef text) {
      return hostkernel::getStringPointer(rewriter, loc, state.module, text);
    };
    Value message = string(assertOp.getMsg());
    Value file = string(site.file);
    Value line = arith::ConstantIntOp::create(rewriter, loc,
                                              rewriter.getI32Type(), site.line);
    Value function = string(site.function);
    ContextAccess(rewriter, loc, contextArg)
        .call(GPUMEM_RUNTIME_SERVICE(assertFail),
              {contextArg, message, file, line, function});
    rewriter.eraseOp(assertOp);
    return success();
  }
};

/// The calls LowerAsyncCopiesToCPU.cpp made for nvgpu's asynchronous
/// copies: the runtime's services, with the copy's location.
struct AsyncCopyCallLowering : ServicePattern<func::CallOp> {
  using ServicePattern::ServicePattern;
  LogicalResult matchAndRewrite(func::CallOp call,
                                PatternRewriter &rewriter) const override {
    StringRef callee = call.getCallee();
    if (!callee.starts_with("__gpumem_async_"))
      return rewriter.notifyMatchFailure(call, "not an async copy call");
    Location loc = call.getLoc();
    Value context = contextOf(call);
    ContextAccess access(rewriter, loc, context);
    ValueRange args = call.getOperands();
    if (callee == "__gpumem_async_copy") {
      auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
      Value dst = LLVM::IntToPtrOp::create(rewriter, loc, ptr, args[0]);
      Value src = LLVM::IntToPtrOp::create(rewriter, loc, ptr, args[1]);
      Value where = hostkernel::getLocationString(rewriter, loc, state.module);
      access.call(GPUMEM_RUNTIME_SERVICE(asyncCopyIssue),
                  {context, dst, src, args[2], args[3], where});
    } else if (callee == "__gpumem_async_commit") {
      access.call(GPUMEM_RUNTIME_SERVICE(asyncCopyGroup), {context});
    } else if (callee == "__gpumem_async_wait") {
      access.call(GPUMEM_RUNTIME_SERVICE(asyncCopyWaitGroups),
                  {context, args[0]});
    } else {
      return rewriter.notifyMatchFailure(call, "not an async copy call");
    }
    rewriter.eraseOp(call);
    return success();
  }
};

} // namespace

Value ContextAccess::loadIndex(int64_t offset) {
  Value value = load(context, offset, builder.getI64Type());
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    value);
}

Value ContextAccess::dimension(int64_t fieldOffset, gpu::Dimension dim) {
  return loadIndex(fieldOffset + 8 * static_cast<int64_t>(dim));
}

Value ContextAccess::linearThreadId() {
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

Value ContextAccess::threadsPerBlock() {
  Value dimX = dimension(kContextBlockDim, gpu::Dimension::x);
  Value dimY = dimension(kContextBlockDim, gpu::Dimension::y);
  Value dimZ = dimension(kContextBlockDim, gpu::Dimension::z);
  return arith::MulIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, dimX, dimY), dimZ);
}

Value gpumem::cpu::arenaView(OpBuilder &builder, Location loc, Value context,
                             MemRefType type, int64_t offset,
                             const LLVMTypeConverter &converter) {
  ContextAccess access(builder, loc, context);
  Value base = access.address(access.loadPointer(kContextShared), offset);
  Value descriptor =
      MemRefDescriptor::fromStaticShape(builder, loc, converter, type, base);
  return UnrealizedConversionCastOp::create(builder, loc, type, descriptor)
      .getResult(0);
}

void gpumem::cpu::populateGPUToCPUServicesPatterns(
    RewritePatternSet &patterns, const ServicesLoweringState &state) {
  MLIRContext *context = patterns.getContext();
  patterns.add<DimensionLowering<gpu::ThreadIdOp, kContextThreadId>,
               DimensionLowering<gpu::BlockIdOp, kContextBlockId>,
               DimensionLowering<gpu::GridDimOp, kContextGridDim>,
               GlobalIdLowering, SubgroupQueryLowering<gpu::LaneIdOp>,
               SubgroupQueryLowering<gpu::SubgroupIdOp>,
               SubgroupQueryLowering<gpu::NumSubgroupsOp>,
               SubgroupQueryLowering<gpu::SubgroupSizeOp>>(context);
  patterns.add<BlockDimLowering, BarrierLowering, ShuffleLowering,
               PrintfLowering, DynamicSharedMemoryLowering,
               WorkgroupGlobalLowering, AssertLowering, AsyncCopyCallLowering>(
      context, state);
}
