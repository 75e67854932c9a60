//===----------------------------------------------------------------------===//
// The cuda-emu lowering of the warp-level NVVM ops, one rewrite pattern per
// op (populateWarpOpPatterns, called by populateNVVMToCPUPatterns in
// NVVMOps.cpp): nvvm.shfl.sync, nvvm.vote.sync, nvvm.redux.sync (integers),
// nvvm.match.sync and nvvm.bar.warp.sync each become one call of the
// runtime's services->warpSync with the op's kind, mask and value (both
// widened to i64: the service's member mask has a bit for each of up to 64
// lanes, and PTX's 32-lane mask is zero-extended). The runtime rendezvouses
// the warp's threads and computes the result (its semantics, the clamp and
// segment mask of shfl.sync included, live in runtime/cpu/PTXWarpOps.cpp);
// the result is truncated back to the op's type, and a predicate (shfl's valid
// bit, match.all's equality) is read from a stack slot the service writes. In a
// coroutine kernel the thread suspends after the call and reads the result with
// services->warpSyncResult when resumed (the host-kernel layer's
// DeviceOpEmitter::warpSync, which rocm-emu's cross-lane ops call too).
//===----------------------------------------------------------------------===//

#include "NVVMOpLowering.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace gpumem::cudaemu;
using namespace gpumem::cudaemu::nvvmops;

namespace {

/// nvvm.shfl.sync: services->warpSync, its value truncated back to the
/// shuffled type, with the valid bit when asked for.
class ShflLowering : public DevicePattern<NVVM::ShflOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::ShflOp shfl,
                                PatternRewriter &rewriter) const override {
    int32_t warpOp = GPUMEM_WARP_SHFL_IDX;
    switch (shfl.getKind()) {
    case NVVM::ShflKind::bfly:
      warpOp = GPUMEM_WARP_SHFL_BFLY;
      break;
    case NVVM::ShflKind::up:
      warpOp = GPUMEM_WARP_SHFL_UP;
      break;
    case NVVM::ShflKind::down:
      warpOp = GPUMEM_WARP_SHFL_DOWN;
      break;
    case NVVM::ShflKind::idx:
      break;
    }
    Emitter emit(rewriter, shfl, state);
    bool withValid = bool(shfl.getReturnValueAndIsValid());
    Value valid;
    Value raw = emit.warpSync(
        warpOp, shfl.getThreadMask(), emit.toI64(shfl.getVal()),
        shfl.getOffset(), shfl.getMaskAndClamp(), withValid ? &valid : nullptr);
    Type valueType = shfl.getVal().getType();
    Value value =
        LLVM::TruncOp::create(rewriter, emit.loc, rewriter.getI32Type(), raw);
    if (valueType != value.getType())
      value = LLVM::BitcastOp::create(rewriter, emit.loc, valueType, value);
    rewriter.replaceOp(shfl, withValid ? emit.pair(shfl.getType(), value, valid)
                                       : value);
    return success();
  }
};

/// nvvm.vote.sync: services->warpSync.
class VoteSyncLowering : public DevicePattern<NVVM::VoteSyncOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::VoteSyncOp vote,
                                PatternRewriter &rewriter) const override {
    int32_t warpOp = GPUMEM_WARP_VOTE_BALLOT;
    switch (vote.getKind()) {
    case NVVM::VoteSyncKind::any:
      warpOp = GPUMEM_WARP_VOTE_ANY;
      break;
    case NVVM::VoteSyncKind::all:
      warpOp = GPUMEM_WARP_VOTE_ALL;
      break;
    case NVVM::VoteSyncKind::uni:
      warpOp = GPUMEM_WARP_VOTE_UNI;
      break;
    case NVVM::VoteSyncKind::ballot:
      break;
    }
    Emitter emit(rewriter, vote, state);
    Value raw =
        emit.warpSync(warpOp, vote.getMask(), emit.toI64(vote.getPred()),
                      emit.i32(0), emit.i32(0), nullptr);
    rewriter.replaceOp(vote, emit.fromI64(raw, vote.getType()));
    return success();
  }
};

/// nvvm.redux.sync on integers: services->warpSync.
class ReduxLowering : public DevicePattern<NVVM::ReduxOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::ReduxOp redux,
                                PatternRewriter &rewriter) const override {
    int32_t warpOp = GPUMEM_WARP_REDUX_ADD;
    switch (redux.getKind()) {
    case NVVM::ReduxKind::ADD:
      break;
    case NVVM::ReduxKind::MIN:
      warpOp = GPUMEM_WARP_REDUX_MIN;
      break;
    case NVVM::ReduxKind::MAX:
      warpOp = GPUMEM_WARP_REDUX_MAX;
      break;
    case NVVM::ReduxKind::UMIN:
      warpOp = GPUMEM_WARP_REDUX_UMIN;
      break;
    case NVVM::ReduxKind::UMAX:
      warpOp = GPUMEM_WARP_REDUX_UMAX;
      break;
    case NVVM::ReduxKind::AND:
      warpOp = GPUMEM_WARP_REDUX_AND;
      break;
    case NVVM::ReduxKind::OR:
      warpOp = GPUMEM_WARP_REDUX_OR;
      break;
    case NVVM::ReduxKind::XOR:
      warpOp = GPUMEM_WARP_REDUX_XOR;
      break;
    default:
      state.failed = true;
      return redux->emitOpError()
             << "on floating-point values has no lowering on the cuda-emu "
                "target";
    }
    Emitter emit(rewriter, redux, state);
    Value raw = emit.warpSync(warpOp, redux.getMaskAndClamp(),
                              emit.toI64(redux.getVal()), emit.i32(0),
                              emit.i32(0), nullptr);
    rewriter.replaceOp(redux, emit.fromI64(raw, redux.getType()));
    return success();
  }
};

/// nvvm.match.sync: services->warpSync, with the predicate of `all`.
class MatchSyncLowering : public DevicePattern<NVVM::MatchSyncOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::MatchSyncOp match,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, match, state);
    bool all = match.getKind() == NVVM::MatchSyncKind::all;
    Value predicate;
    Value raw =
        emit.warpSync(all ? GPUMEM_WARP_MATCH_ALL : GPUMEM_WARP_MATCH_ANY,
                      match.getThreadMask(), emit.toI64(match.getVal()),
                      emit.i32(0), emit.i32(0), all ? &predicate : nullptr);
    Value mask = emit.fromI64(raw, rewriter.getI32Type());
    rewriter.replaceOp(match, all ? emit.pair(match.getType(), mask, predicate)
                                  : mask);
    return success();
  }
};

/// nvvm.bar.warp.sync: services->warpSync.
class SyncWarpLowering : public DevicePattern<NVVM::SyncWarpOp> {
public:
  using DevicePattern::DevicePattern;

  LogicalResult matchAndRewrite(NVVM::SyncWarpOp sync,
                                PatternRewriter &rewriter) const override {
    Emitter emit(rewriter, sync, state);
    emit.warpSync(GPUMEM_WARP_SYNC, sync.getMask(), emit.i64(0), emit.i32(0),
                  emit.i32(0), nullptr);
    rewriter.eraseOp(sync);
    return success();
  }
};

} // namespace

void gpumem::cudaemu::nvvmops::populateWarpOpPatterns(
    RewritePatternSet &patterns, DeviceFunctionState &state) {
  patterns.add<ShflLowering, VoteSyncLowering, ReduxLowering, MatchSyncLowering,
               SyncWarpLowering>(patterns.getContext(), state);
}
