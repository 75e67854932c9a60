//===----------------------------------------------------------------------===//
// The cuda-emu lowering of PTX's asynchronous copies
// (populateAsyncCopyPatterns, called by populateNVVMToCPUPatterns in
// NVVMOps.cpp): nvvm.cp.async.shared.global, nvvm.cp.async.commit.group,
// and nvvm.cp.async.wait.group become calls of the
// runtime's services->asyncCopy, asyncCopyCommit and asyncCopyWait
// (runtime/cpu/PTXAsyncCopies.cpp), which delay each copy until a wait
// covers its group. Their state is one queue per thread: a stack slot of
// GPUMEM_ASYNC_COPY_QUEUE_BYTES made once in the entry block of the
// function (the kernel: callees that copy are inlined, as those that
// synchronize are) and zeroed there. A copy's size is its cp-size, the
// bytes read its src-size operand when it has one (zero-fill). Under
// --sanitize the copies go to the runtime's located services instead
// (asyncCopyIssue, asyncCopyGroup, asyncCopyWaitGroups, as on the cpu
// target): the same semantics, with the runtime holding the queue and
// each copy's line, so racecheck reports the copy's destination read, or
// its source written, before the wait, in the cpu target's words.
//===----------------------------------------------------------------------===//

#include "NVVMOpLowering.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace gpumem::cudaemu;
using namespace gpumem::cudaemu::nvvmops;

namespace {

constexpr llvm::StringLiteral kQueueAttr = "gpumem.async_copy_queue";

/// The function's queue of asynchronous copies, made and zeroed at its
/// entry the first time.
Value queueOf(Emitter &emit) {
  auto func = emit.op->getParentOfType<LLVM::LLVMFuncOp>();
  Block &entry = func.getBody().front();
  for (Operation &op : entry)
    if (op.hasAttr(kQueueAttr))
      return op.getResult(0);
  OpBuilder::InsertionGuard guard(emit.builder);
  emit.builder.setInsertionPointToStart(&entry);
  auto ptr = LLVM::LLVMPointerType::get(emit.builder.getContext());
  auto queue = LLVM::AllocaOp::create(
      emit.builder, emit.loc, ptr, emit.builder.getI64Type(),
      emit.i64((GPUMEM_ASYNC_COPY_QUEUE_BYTES + 7) / 8), 8);
  queue->setAttr(kQueueAttr, emit.builder.getUnitAttr());
  // Only the counts at its start need zeroing.
  LLVM::StoreOp::create(emit.builder, emit.loc, emit.i64(0), queue);
  return queue;
}

class CpAsyncLowering : public DevicePattern<NVVM::CpAsyncOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::CpAsyncOp copy,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, copy, state);
    Value bytes = emit.i32(copy.getSize());
    Value srcBytes = bytes;
    if (Value size = copy.getCpSize()) {
      unsigned width = size.getType().getIntOrFloatBitWidth();
      srcBytes = width == 32 ? size
                 : width < 32
                     ? LLVM::ZExtOp::create(rewriter, emit.loc,
                                            rewriter.getI32Type(), size)
                           .getResult()
                     : LLVM::TruncOp::create(rewriter, emit.loc,
                                             rewriter.getI32Type(), size)
                           .getResult();
    }
    if (state.sanitizerChecks)
      emit.access.call(GPUMEM_RUNTIME_SERVICE(asyncCopyIssue),
                       {emit.context, copy.getDst(), copy.getSrc(), bytes,
                        srcBytes, emit.location()});
    else
      emit.access.call(GPUMEM_RUNTIME_SERVICE(asyncCopy),
                       {emit.context, queueOf(emit), copy.getDst(),
                        copy.getSrc(), bytes, srcBytes});
    rewriter.eraseOp(copy);
    return success();
  }
};

class CpAsyncCommitLowering : public DevicePattern<NVVM::CpAsyncCommitGroupOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::CpAsyncCommitGroupOp commit,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, commit, state);
    if (state.sanitizerChecks)
      emit.access.call(GPUMEM_RUNTIME_SERVICE(asyncCopyGroup), {emit.context});
    else
      emit.access.call(GPUMEM_RUNTIME_SERVICE(asyncCopyCommit),
                       {emit.context, queueOf(emit)});
    rewriter.eraseOp(commit);
    return success();
  }
};

/// cp.async.wait_group n (NVVM has no wait_all: nvgpu waits for group 0).
class CpAsyncWaitLowering : public DevicePattern<NVVM::CpAsyncWaitGroupOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::CpAsyncWaitGroupOp wait,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, wait, state);
    if (state.sanitizerChecks)
      emit.access.call(GPUMEM_RUNTIME_SERVICE(asyncCopyWaitGroups),
                       {emit.context, emit.i32(int32_t(wait.getN()))});
    else
      emit.access.call(
          GPUMEM_RUNTIME_SERVICE(asyncCopyWait),
          {emit.context, queueOf(emit), emit.i32(int32_t(wait.getN()))});
    rewriter.eraseOp(wait);
    return success();
  }
};

} // namespace

bool gpumem::cudaemu::isAsyncCopyOp(Operation *op) {
  return isa<NVVM::CpAsyncOp, NVVM::CpAsyncCommitGroupOp,
             NVVM::CpAsyncWaitGroupOp>(op);
}

void gpumem::cudaemu::nvvmops::populateAsyncCopyPatterns(
    RewritePatternSet &patterns, DeviceFunctionState &state) {
  patterns.add<CpAsyncLowering, CpAsyncCommitLowering, CpAsyncWaitLowering>(
      patterns.getContext(), state);
}
