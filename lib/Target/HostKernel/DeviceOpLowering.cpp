//===----------------------------------------------------------------------===//
// What the per-op lowerings of device ops share (DeviceOpLowering.h): the
// linear thread id, services->warpSync in the function's waiting mode, and
// block-wide barriers.
//===----------------------------------------------------------------------===//

#include "DeviceOpLowering.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include <cstddef>

using namespace mlir;
using namespace gpumem::hostkernel;

namespace {

/// The C type of warpSync's member mask: its width is the ABI's.
template <typename F> struct MemberMaskOf;
template <typename R, typename Context, typename Op, typename Mask,
          typename... Rest>
struct MemberMaskOf<R (*)(Context, Op, Mask, Rest...)> {
  using type = Mask;
};
constexpr unsigned kMemberMaskBits =
    8 * sizeof(MemberMaskOf<decltype(GPUMemRuntimeServices::warpSync)>::type);

} // namespace

Value DeviceOpEmitter::linearThreadId() {
  int64_t tid = offsetof(GPUMemThreadContext, threadId);
  int64_t ntid = offsetof(GPUMemThreadContext, blockDim);
  Value zy = LLVM::AddOp::create(
      builder, loc,
      LLVM::MulOp::create(builder, loc, field(tid, 2), field(ntid, 1)),
      field(tid, 1));
  return LLVM::AddOp::create(
      builder, loc, LLVM::MulOp::create(builder, loc, zy, field(ntid, 0)),
      field(tid, 0));
}

Value DeviceOpEmitter::warpSync(int32_t warpOp, Value mask, Value value,
                                Value b, Value c, Value *predicate) {
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  Value slot;
  if (predicate) {
    OpBuilder::InsertionGuard guard(builder);
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    builder.setInsertionPointToStart(&func.getBody().front());
    slot =
        LLVM::AllocaOp::create(builder, loc, ptr, builder.getI32Type(), i64(1));
  } else {
    slot = LLVM::ZeroOp::create(builder, loc, ptr);
  }
  // The call's operands must have the service's C types: an indirect call
  // takes its signature from them.
  if (mask.getType().getIntOrFloatBitWidth() < kMemberMaskBits)
    mask = LLVM::ZExtOp::create(builder, loc,
                                builder.getIntegerType(kMemberMaskBits), mask);
  Value result =
      access.call(GPUMEM_RUNTIME_SERVICE(warpSync),
                  {context, i32(warpOp), mask, value, b, c, slot, location()});
  if (coroutine) {
    suspendAfterLastCall();
    result =
        access.call(GPUMEM_RUNTIME_SERVICE(warpSyncResult), {context, slot});
  }
  if (predicate) {
    Value raw = LLVM::LoadOp::create(builder, loc, builder.getI32Type(), slot);
    *predicate = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne,
                                      raw, i32(0));
  }
  return result;
}

void gpumem::hostkernel::emitBlockBarrier(DeviceOpEmitter &emit,
                                          Waiting waiting) {
  if (waiting == Waiting::BarrierCoroutine)
    LLVM::StoreOp::create(
        emit.builder, emit.loc, emit.location(),
        emit.access.address(emit.context,
                            offsetof(GPUMemThreadContext, barrierAt)));
  else
    emit.access.call(GPUMEM_RUNTIME_SERVICE(barrier),
                     {emit.context, emit.location()});
  emit.suspendAfterLastCall();
}
