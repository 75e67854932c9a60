//===----------------------------------------------------------------------===//
// The cuda-emu lowering of single ops, one rewrite pattern per op
// (populateNVVMToCPUPatterns, the entry point; the warp-level ops are in
// NVVMWarpOps.cpp, what both share in NVVMOpLowering.h):
//  - NVVM special registers (nvvm.read.ptx.sreg.* ops and intrinsics)
//    become loads from the thread context (ids, dimensions, dynamic shared
//    bytes), arithmetic on the linear thread id (lane, warp, lane masks) or
//    constants (warp size, warps per SM, a cluster of one block);
//  - block-synchronizing instructions (bar.sync, barrier0) become calls of
//    the runtime's PTX services (barrier0 is the host-kernel layer's
//    block-wide barrier: in a coroutine kernel with barriers only, a store
//    of the barrier's location to ctx->barrierAt), after which a coroutine
//    kernel suspends;
//  - vprintf and __assertfail calls become the runtime's CUDA-compatible
//    services, and fences become sequentially consistent host fences.
//===----------------------------------------------------------------------===//

#include "NVVMOpLowering.h"
#include "NVVMToCPU.h"

#include "../HostKernel/HostCode.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstddef>

using namespace mlir;
using namespace gpumem::cudaemu;
using namespace gpumem::cudaemu::nvvmops;

namespace {

constexpr llvm::StringLiteral kSregPrefix = "nvvm.read.ptx.sreg.";
constexpr llvm::StringLiteral kSregIntrinsicPrefix = "llvm.nvvm.read.ptx.sreg.";

/// Context fields of the special registers with .x/.y/.z forms.
std::optional<int64_t> dimensionField(StringRef name) {
  return llvm::StringSwitch<std::optional<int64_t>>(name)
      .Case("tid", offsetof(GPUMemThreadContext, threadId))
      .Case("ntid", offsetof(GPUMemThreadContext, blockDim))
      .Cases({"ctaid", "clusterid"}, offsetof(GPUMemThreadContext, blockId))
      .Cases({"nctaid", "nclusterid"}, offsetof(GPUMemThreadContext, gridDim))
      .Default(std::nullopt);
}

/// The register's name without prefix and with dots ("dynamic.smem.size").
std::string registerName(StringRef opName) {
  if (opName.consume_front(kSregPrefix))
    return opName.str();
  if (opName.consume_front(kSregIntrinsicPrefix)) {
    std::string name = opName.str();
    std::replace(name.begin(), name.end(), '_', '.');
    return name;
  }
  return "";
}

bool isKnownRegister(StringRef name) {
  auto [base, dim] = name.rsplit('.');
  if (dim == "x" || dim == "y" || dim == "z") {
    if (dimensionField(base) || base == "cluster.ctaid" ||
        base == "cluster.nctaid")
      return true;
  }
  return llvm::is_contained(
      {"laneid", "warpid", "nwarpid", "warpsize", "lanemask.eq", "lanemask.le",
       "lanemask.lt", "lanemask.ge", "lanemask.gt", "dynamic.smem.size",
       "total.smem.size", "cluster.ctarank", "cluster.nctarank"},
      name);
}

} // namespace

Value Emitter::specialRegister(StringRef name) {
  Type i64Type = builder.getI64Type();
  auto [base, dim] = name.rsplit('.');
  int d = llvm::StringSwitch<int>(dim)
              .Case("x", 0)
              .Case("y", 1)
              .Case("z", 2)
              .Default(-1);
  if (d >= 0) {
    if (std::optional<int64_t> field = dimensionField(base))
      return access.load(context, *field + 8 * d, i64Type);
    if (base == "cluster.ctaid")
      return i64(0);
    if (base == "cluster.nctaid")
      return i64(1);
  }
  if (name == "cluster.ctarank")
    return i64(0);
  if (name == "cluster.nctarank")
    return i64(1);
  if (name == "warpsize")
    return i64(GPUMEM_WARP_SIZE);
  if (name == "nwarpid")
    return i64(layout.maxWarpsPerSM);
  int64_t dynamicBytes = offsetof(GPUMemThreadContext, dynamicSharedBytes);
  if (name == "dynamic.smem.size")
    return access.load(context, dynamicBytes, i64Type);
  if (name == "total.smem.size")
    return LLVM::AddOp::create(
        builder, loc, access.load(context, dynamicBytes, i64Type),
        i64(int64_t(
            llvm::alignTo(layout.staticBytes, GPUMEM_SHARED_ALIGNMENT))));
  Value linear = linearThreadId();
  if (name == "warpid")
    return LLVM::UDivOp::create(builder, loc, linear, i64(GPUMEM_WARP_SIZE));
  Value lane =
      LLVM::URemOp::create(builder, loc, linear, i64(GPUMEM_WARP_SIZE));
  if (name == "laneid")
    return lane;
  // lanemask.*: bit masks relative to the lane, in 32 bits.
  Value bit = LLVM::ShlOp::create(builder, loc, i64(1), lane);
  Value lt = LLVM::SubOp::create(builder, loc, bit, i64(1));
  Value le = LLVM::OrOp::create(builder, loc, lt, bit);
  Value all = i64(0xffffffff);
  if (name == "lanemask.eq")
    return bit;
  if (name == "lanemask.lt")
    return lt;
  if (name == "lanemask.le")
    return le;
  if (name == "lanemask.ge")
    return LLVM::XOrOp::create(builder, loc, lt, all);
  return LLVM::XOrOp::create(builder, loc, le, all); // lanemask.gt
}

namespace {

/// Replaces `op` by the special register `name` (dotted, without prefix),
/// or reports that the target has no such register.
LogicalResult lowerSpecialRegister(Operation *op, StringRef name,
                                   PatternRewriter &rewriter,
                                   DeviceFunctionState &state) {
  if (!isKnownRegister(name)) {
    state.failed = true;
    return op->emitOpError()
           << "reads a special register the cuda-emu target does not have";
  }
  Emitter emit(rewriter, op, state);
  rewriter.replaceOp(
      op, emit.fromI64(emit.specialRegister(name), op->getResult(0).getType()));
  return success();
}

/// nvvm.read.ptx.sreg.*: a context load or a constant. One pattern per op
/// name.
class SpecialRegisterLowering : public RewritePattern {
public:
  SpecialRegisterLowering(StringRef opName, MLIRContext *context,
                          DeviceFunctionState &state)
      : RewritePattern(opName, /*benefit=*/1, context), state(state) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    return lowerSpecialRegister(op, registerName(op->getName().getStringRef()),
                                rewriter, state);
  }

private:
  DeviceFunctionState &state;
};

/// The same registers read with llvm.call_intrinsic
/// "llvm.nvvm.read.ptx.sreg.*".
class SpecialRegisterIntrinsicLowering
    : public DevicePattern<LLVM::CallIntrinsicOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(LLVM::CallIntrinsicOp op,
                                PatternRewriter &rewriter) const override {
    std::string name = registerName(op.getIntrin());
    if (name.empty())
      return rewriter.notifyMatchFailure(op, "reads no special register");
    return lowerSpecialRegister(op, name, rewriter, state);
  }
};

/// nvvm.barrier (bar.sync id, count): services->barrierSync.
class BarrierLowering : public DevicePattern<NVVM::BarrierOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::BarrierOp barrier,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, barrier, state);
    Value id = barrier.getBarrierId() ? barrier.getBarrierId() : emit.i32(0);
    Value count = barrier.getNumberOfThreads() ? barrier.getNumberOfThreads()
                                               : emit.i32(-1);
    emit.access.call(GPUMEM_RUNTIME_SERVICE(barrierSync),
                     {emit.context, id, count, emit.location()});
    emit.suspendAfterLastCall();
    rewriter.eraseOp(barrier);
    return success();
  }
};

/// nvvm.membar and nvvm.fence.sc.cluster: a sequentially consistent host
/// fence.
template <typename FenceOp>
class FenceLowering : public DevicePattern<FenceOp> {
public:
  using DevicePattern<FenceOp>::DevicePattern;

  LogicalResult matchAndRewrite(FenceOp fence,
                                PatternRewriter &rewriter) const override {
    rewriter.setInsertionPoint(fence);
    LLVM::FenceOp::create(rewriter, fence.getLoc(),
                          LLVM::AtomicOrdering::seq_cst);
    rewriter.eraseOp(fence);
    return success();
  }
};

/// llvm.call @vprintf(format, args): services->vprintf.
class VprintfLowering : public DevicePattern<LLVM::CallOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(LLVM::CallOp call,
                                PatternRewriter &rewriter) const override {
    ValueRange args = call.getArgOperands();
    if (call.getCallee().value_or("") != "vprintf" || args.size() != 2)
      return rewriter.notifyMatchFailure(call, "not vprintf(format, args)");
    Emitter emit(rewriter, call, state);
    rewriter.replaceOp(call,
                       emit.access.call(GPUMEM_RUNTIME_SERVICE(vprintf),
                                        {emit.context, args[0], args[1]}));
    return success();
  }
};

/// llvm.call @__assertfail(message, file, line, function, charSize):
/// services->cudaAssertFail.
class AssertFailLowering : public DevicePattern<LLVM::CallOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(LLVM::CallOp call,
                                PatternRewriter &rewriter) const override {
    ValueRange args = call.getArgOperands();
    if (call.getCallee().value_or("") != "__assertfail" || args.size() != 5)
      return rewriter.notifyMatchFailure(call, "not __assertfail with 5 "
                                               "arguments");
    Emitter emit(rewriter, call, state);
    emit.access.call(GPUMEM_RUNTIME_SERVICE(cudaAssertFail),
                     {emit.context, args[0], args[1], args[2], args[3]});
    rewriter.eraseOp(call);
    return success();
  }
};

} // namespace

int64_t gpumem::cudaemu::maxWarpsPerSM(StringRef chip) {
  // Resident threads per SM / 32, from NVIDIA's tables of compute
  // capabilities: 1024 on 7.5, 1536 on 8.6, 8.7, 8.9 and 12.x, 2048 else.
  if (chip.starts_with("sm_75"))
    return 32;
  if (chip.starts_with("sm_86") || chip.starts_with("sm_87") ||
      chip.starts_with("sm_89") || chip.starts_with("sm_12"))
    return 48;
  return 64;
}

bool gpumem::cudaemu::isSpecialRegister(StringRef opName) {
  return opName.starts_with(kSregPrefix) &&
         isKnownRegister(registerName(opName));
}

bool gpumem::cudaemu::isSpecialRegisterIntrinsic(StringRef intrinsic) {
  return intrinsic.starts_with(kSregIntrinsicPrefix) &&
         isKnownRegister(registerName(intrinsic));
}

void gpumem::cudaemu::populateNVVMToCPUPatterns(RewritePatternSet &patterns,
                                                DeviceFunctionState &state) {
  MLIRContext *context = patterns.getContext();
  for (RegisteredOperationName name : context->getRegisteredOperations())
    if (name.getStringRef().starts_with(kSregPrefix))
      patterns.add<SpecialRegisterLowering>(name.getStringRef(), context,
                                            state);
  patterns
      .add<BlockBarrierPattern<NVVM::Barrier0Op>,
           SpecialRegisterIntrinsicLowering, BarrierLowering,
           FenceLowering<NVVM::MembarOp>, FenceLowering<NVVM::FenceScClusterOp>,
           VprintfLowering, AssertFailLowering>(context, state);
  populateWarpOpPatterns(patterns, state);
  populateMatrixOpPatterns(patterns, state);
  populateAsyncCopyPatterns(patterns, state);
}
