//===----------------------------------------------------------------------===//
// The rocm-emu lowering of single ROCDL ops, one rewrite pattern per op
// (populateROCDLToCPUPatterns, the entry point; the cross-lane ops are in
// ROCDLWarpOps.cpp, what both share in ROCDLOpLowering.h and
// ../HostKernel/DeviceOpLowering.h). AMDGPU
// semantics, from AMD's ISA manuals and LLVM's AMDGPU intrinsics:
//  - rocdl.workitem.id.*, workgroup.id.*, workgroup.dim.*
//    (__ockl_get_local_size) and grid.dim.* (__ockl_get_num_groups, in
//    workgroups) become loads of the thread context's threadId, blockId,
//    blockDim and gridDim, truncated to the op's type;
//  - rocdl.wavefrontsize is the chip's wavefront size (state.layout), 32
//    or 64;
//  - rocdl.mbcnt.lo/hi: with lane = linear work-item id mod the wavefront
//    size and ThreadMask = (1 << lane) - 1 over 64 bits,
//      mbcnt_lo(m, b) = b + popcount(m & ThreadMask[31:0])
//      mbcnt_hi(m, b) = b + popcount(m & ThreadMask[63:32])
//    (V_MBCNT_LO/HI_U32_B32; on wave32 ThreadMask[63:32] is 0, so hi
//    returns b), all arithmetic modulo 2^32;
//  - rocdl.barrier (HIP's __syncthreads: release fence, s_barrier,
//    acquire fence) and rocdl.s.barrier wait for every work-item of the
//    workgroup: the host-kernel layer's block-wide barrier,
//    services->barrier, after which a coroutine kernel suspends (with
//    barriers only, the barrier's location goes to ctx->barrierAt
//    instead); the runtime's barrier orders all memory accesses around it;
//  - s_waitcnt and gfx12's s_wait_*cnt wait for this wave's outstanding
//    memory operations, which host code completes in program order: they
//    go, as do the scheduling hints (s_nop, s_setprio, sched_barrier,
//    sched_group_barrier, iglp_opt);
//  - HIP's printf (__ockl_printf_begin/append_string_n/append_args, made
//    by convert-gpu-to-rocdl with runtime=HIP) passes every argument as 64
//    bits to a host formatter; the runtime has no such service (its
//    vprintf reads CUDA's packed buffer), so __ockl_printf_begin is refused
//    with a located error.
//===----------------------------------------------------------------------===//

#include "ROCDLOpLowering.h"
#include "ROCDLToCPU.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

#include <cstddef>

using namespace mlir;
using namespace gpumem::rocmemu;
using namespace gpumem::rocmemu::rocdlops;

namespace {

/// A ROCDL id or dimension op: the context field it reads.
struct ContextField {
  llvm::StringLiteral opName;
  int64_t offset;
  int dim;
};

constexpr ContextField kContextFields[] = {
    {"rocdl.workitem.id.x", offsetof(GPUMemThreadContext, threadId), 0},
    {"rocdl.workitem.id.y", offsetof(GPUMemThreadContext, threadId), 1},
    {"rocdl.workitem.id.z", offsetof(GPUMemThreadContext, threadId), 2},
    {"rocdl.workgroup.id.x", offsetof(GPUMemThreadContext, blockId), 0},
    {"rocdl.workgroup.id.y", offsetof(GPUMemThreadContext, blockId), 1},
    {"rocdl.workgroup.id.z", offsetof(GPUMemThreadContext, blockId), 2},
    {"rocdl.workgroup.dim.x", offsetof(GPUMemThreadContext, blockDim), 0},
    {"rocdl.workgroup.dim.y", offsetof(GPUMemThreadContext, blockDim), 1},
    {"rocdl.workgroup.dim.z", offsetof(GPUMemThreadContext, blockDim), 2},
    {"rocdl.grid.dim.x", offsetof(GPUMemThreadContext, gridDim), 0},
    {"rocdl.grid.dim.y", offsetof(GPUMemThreadContext, gridDim), 1},
    {"rocdl.grid.dim.z", offsetof(GPUMemThreadContext, gridDim), 2},
};

const ContextField *findContextField(StringRef opName) {
  for (const ContextField &field : kContextFields)
    if (field.opName == opName)
      return &field;
  return nullptr;
}

/// An id or dimension op: a load of its context field. One pattern per op
/// name.
class ContextFieldLowering : public RewritePattern {
public:
  ContextFieldLowering(const ContextField &field, MLIRContext *context,
                       DeviceFunctionState &state)
      : RewritePattern(field.opName, /*benefit=*/1, context), field(field),
        state(state) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, op, state);
    rewriter.replaceOp(op, emit.fromI64(emit.field(field.offset, field.dim),
                                        op->getResult(0).getType()));
    return success();
  }

private:
  const ContextField &field;
  DeviceFunctionState &state;
};

/// rocdl.wavefrontsize: the chip's wavefront size.
class WavefrontSizeLowering : public DevicePattern<ROCDL::WavefrontSizeOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(ROCDL::WavefrontSizeOp op,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, op, state);
    rewriter.replaceOp(op, emit.constant(op.getType(), state.layout.warpSize));
    return success();
  }
};

/// rocdl.mbcnt.lo and .hi: base + popcount(mask & a half of the lanes-below
/// mask).
template <typename MbcntOp, bool high>
class MbcntLowering : public DevicePattern<MbcntOp> {
public:
  using DevicePattern<MbcntOp>::DevicePattern;

  LogicalResult matchAndRewrite(MbcntOp op,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, op, this->state);
    Type i32Type = rewriter.getI32Type();
    Value lane = LLVM::URemOp::create(rewriter, emit.loc, emit.linearThreadId(),
                                      emit.i64(this->state.layout.warpSize));
    // ThreadMask = (1 << lane) - 1, lane < 64.
    Value below = LLVM::SubOp::create(
        rewriter, emit.loc,
        LLVM::ShlOp::create(rewriter, emit.loc, emit.i64(1), lane),
        emit.i64(1));
    if (high)
      below = LLVM::LShrOp::create(rewriter, emit.loc, below, emit.i64(32));
    Value half = LLVM::TruncOp::create(rewriter, emit.loc, i32Type, below);
    Value counted = LLVM::CtPopOp::create(
        rewriter, emit.loc, i32Type,
        LLVM::AndOp::create(rewriter, emit.loc, op.getIn0(), half));
    rewriter.replaceOpWithNewOp<LLVM::AddOp>(op, counted, op.getIn1());
    return success();
  }
};

/// Waits for this wave's memory counters and scheduling hints: nothing to
/// do on the host.
template <typename Op> class EraseLowering : public DevicePattern<Op> {
public:
  using DevicePattern<Op>::DevicePattern;

  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// A call of `callee` with `operands` operands, or null.
LLVM::CallOp matchCall(Operation *op, StringRef callee, unsigned operands) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  if (!call || call.getCallee().value_or("") != callee ||
      call.getArgOperands().size() != operands)
    return nullptr;
  return call;
}

/// The bytes (4 or 8) of each argument `format` reads from CUDA's vprintf
/// buffer, in order, as runtime/common/DevicePrintf.cpp reads them: 8 for
/// l/ll/z/j/t/L integers, floating-point conversions and %p, 4 for other
/// integers, %c and a `*` width or precision; other conversions read none.
/// A %s (a string HIP appends separately) makes it fail.
FailureOr<SmallVector<unsigned>> vprintfArgumentSizes(StringRef format) {
  format = format.take_until([](char c) { return c == '\0'; });
  SmallVector<unsigned> sizes;
  size_t i = 0, n = format.size();
  auto number = [&]() {
    if (i < n && format[i] == '*') {
      sizes.push_back(4);
      ++i;
      return;
    }
    while (i < n && llvm::isDigit(format[i]))
      ++i;
  };
  while (i < n) {
    if (format[i] != '%') {
      ++i;
      continue;
    }
    if (i + 1 < n && format[i + 1] == '%') {
      i += 2;
      continue;
    }
    ++i;
    while (i < n && StringRef("-+ #0").contains(format[i]))
      ++i;
    number();
    if (i < n && format[i] == '.') {
      ++i;
      number();
    }
    bool wide = false;
    while (i < n && StringRef("hlzjtL").contains(format[i]))
      wide |= StringRef("lzjtL").contains(format[++i - 1]);
    if (i == n)
      break;
    char conversion = format[i++];
    if (conversion == 's')
      return failure();
    if (StringRef("diuxXo").contains(conversion))
      sizes.push_back(wide ? 8 : 4);
    else if (conversion == 'c')
      sizes.push_back(4);
    else if (StringRef("fFeEgGaAp").contains(conversion))
      sizes.push_back(8);
  }
  return sizes;
}

/// llvm.call @__ockl_printf_begin: HIP's printf starts; its descriptor is
/// not needed.
class OcklPrintfBeginLowering : public DevicePattern<LLVM::CallOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(LLVM::CallOp call,
                                PatternRewriter &rewriter) const override {
    if (!matchCall(call, "__ockl_printf_begin", 1))
      return rewriter.notifyMatchFailure(call, "not __ockl_printf_begin");
    Emitter emit(rewriter, call, state);
    rewriter.replaceOp(call, emit.i64(0));
    return success();
  }
};

/// llvm.call @__ockl_printf_append_string_n(descriptor, format, length,
/// last): the descriptor becomes the format's address, which
/// __ockl_printf_append_args reads; with no arguments, services->vprintf.
class OcklPrintfStringLowering : public DevicePattern<LLVM::CallOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(LLVM::CallOp call,
                                PatternRewriter &rewriter) const override {
    if (!matchCall(call, "__ockl_printf_append_string_n", 4))
      return rewriter.notifyMatchFailure(call, "not a printf format");
    ValueRange args = call.getArgOperands();
    Emitter emit(rewriter, call, state);
    Value format = args[1];
    if (matchPattern(args[3], m_One())) {
      auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
      emit.access.call(GPUMEM_RUNTIME_SERVICE(vprintf),
                       {emit.context, format,
                        LLVM::ZeroOp::create(rewriter, emit.loc, ptr)});
    }
    rewriter.replaceOpWithNewOp<LLVM::PtrToIntOp>(call, rewriter.getI64Type(),
                                                  format);
    return success();
  }
};

/// llvm.call @__ockl_printf_append_args(descriptor, count, a0..a6, last),
/// the printf's only and last arguments (each 64 bits, floats as doubles):
/// they are packed as CUDA's vprintf buffer for the conversions of the
/// constant format, and services->vprintf formats them.
class OcklPrintfArgsLowering : public DevicePattern<LLVM::CallOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(LLVM::CallOp call,
                                PatternRewriter &rewriter) const override {
    if (!matchCall(call, "__ockl_printf_append_args", 10))
      return rewriter.notifyMatchFailure(call, "not printf arguments");
    ValueRange args = call.getArgOperands();
    APInt count;
    auto descriptor = args[0].getDefiningOp<LLVM::PtrToIntOp>();
    if (!descriptor || !matchPattern(args[9], m_One()) ||
        !matchPattern(args[1], m_ConstantInt(&count)) || count.ugt(7))
      return refuse(call, "with more than 7 arguments");
    Value format = descriptor.getArg();
    // convert-gpu-to-rocdl passes the global's first character.
    Value start = format;
    if (auto gep = start.getDefiningOp<LLVM::GEPOp>())
      if (gep.getDynamicIndices().empty() &&
          llvm::all_of(gep.getRawConstantIndices(),
                       [](int32_t index) { return index == 0; }))
        start = gep.getBase();
    auto address = start.getDefiningOp<LLVM::AddressOfOp>();
    auto global = address
                      ? SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(
                            call, address.getGlobalNameAttr())
                      : nullptr;
    auto text = global ? dyn_cast_or_null<StringAttr>(global.getValueOrNull())
                       : nullptr;
    if (!text)
      return refuse(call, "whose format is not a constant string");
    FailureOr<SmallVector<unsigned>> sizes =
        vprintfArgumentSizes(text.getValue());
    if (failed(sizes))
      return refuse(call, "with a %s conversion");
    if (sizes->size() > count.getZExtValue())
      return refuse(call, "whose format reads more arguments than it passes");

    Emitter emit(rewriter, call, state);
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    Type i8Type = rewriter.getI8Type();
    int32_t bytes = 0;
    SmallVector<int32_t> offsets;
    for (unsigned size : *sizes) {
      bytes = int32_t(llvm::alignTo(bytes, size));
      offsets.push_back(bytes);
      bytes += size;
    }
    Value buffer;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      auto func = call->getParentOfType<LLVM::LLVMFuncOp>();
      rewriter.setInsertionPointToStart(&func.getBody().front());
      buffer = LLVM::AllocaOp::create(rewriter, emit.loc, ptr, i8Type,
                                      emit.i64(std::max<int32_t>(bytes, 8)),
                                      /*alignment=*/8);
    }
    for (auto [k, size] : llvm::enumerate(*sizes)) {
      Value value = args[2 + k];
      if (size == 4)
        value = LLVM::TruncOp::create(rewriter, emit.loc, rewriter.getI32Type(),
                                      value);
      Value slot = LLVM::GEPOp::create(rewriter, emit.loc, ptr, i8Type, buffer,
                                       ArrayRef<LLVM::GEPArg>{offsets[k]});
      LLVM::StoreOp::create(rewriter, emit.loc, value, slot);
    }
    Value written = emit.access.call(GPUMEM_RUNTIME_SERVICE(vprintf),
                                     {emit.context, format, buffer});
    rewriter.replaceOpWithNewOp<LLVM::ZExtOp>(call, rewriter.getI64Type(),
                                              written);
    return success();
  }

private:
  LogicalResult refuse(LLVM::CallOp call, StringRef what) const {
    state.failed = true;
    return call->emitOpError() << "(HIP's printf) " << what
                               << " has no lowering on the rocm-emu target";
  }
};

} // namespace

bool gpumem::rocmemu::isBlockBarrierROCDLOp(Operation *op) {
  return isa<ROCDL::BarrierOp, ROCDL::SBarrierOp>(op);
}

bool gpumem::rocmemu::isSynchronizingROCDLOp(Operation *op) {
  return isBlockBarrierROCDLOp(op) || isCrossLaneOp(op);
}

bool gpumem::rocmemu::isSupportedROCDLOp(Operation *op) {
  if (isSynchronizingROCDLOp(op) ||
      findContextField(op->getName().getStringRef()))
    return true;
  return isa<ROCDL::WavefrontSizeOp, ROCDL::MbcntLoOp, ROCDL::MbcntHiOp,
             ROCDL::SWaitcntOp, ROCDL::WaitDscntOp, ROCDL::WaitLoadcntOp,
             ROCDL::WaitStorecntOp, ROCDL::WaitExpcntOp, ROCDL::SNopOp,
             ROCDL::SetPrioOp, ROCDL::SchedBarrier, ROCDL::SchedGroupBarrier,
             ROCDL::IglpOpt>(op);
}

void gpumem::rocmemu::populateROCDLToCPUPatterns(RewritePatternSet &patterns,
                                                 DeviceFunctionState &state) {
  MLIRContext *context = patterns.getContext();
  for (const ContextField &field : kContextFields)
    patterns.add<ContextFieldLowering>(field, context, state);
  patterns.add<
      BlockBarrierPattern<ROCDL::BarrierOp>,
      BlockBarrierPattern<ROCDL::SBarrierOp>, WavefrontSizeLowering,
      MbcntLowering<ROCDL::MbcntLoOp, false>,
      MbcntLowering<ROCDL::MbcntHiOp, true>, EraseLowering<ROCDL::SWaitcntOp>,
      EraseLowering<ROCDL::WaitDscntOp>, EraseLowering<ROCDL::WaitLoadcntOp>,
      EraseLowering<ROCDL::WaitStorecntOp>, EraseLowering<ROCDL::WaitExpcntOp>,
      EraseLowering<ROCDL::SNopOp>, EraseLowering<ROCDL::SetPrioOp>,
      EraseLowering<ROCDL::SchedBarrier>,
      EraseLowering<ROCDL::SchedGroupBarrier>, EraseLowering<ROCDL::IglpOpt>,
      OcklPrintfBeginLowering, OcklPrintfStringLowering,
      OcklPrintfArgsLowering>(context, state);
  populateCrossLanePatterns(patterns, state);
}
