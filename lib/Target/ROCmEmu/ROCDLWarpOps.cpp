//===----------------------------------------------------------------------===//
// The rocm-emu lowering of the cross-lane ROCDL ops, one rewrite pattern
// per op (populateCrossLanePatterns, called by populateROCDLToCPUPatterns
// in ROCDLOps.cpp). Each becomes services->warpSync over the wavefront, in
// the function's waiting mode (in a coroutine kernel the thread suspends
// after the call and reads the result with services->warpSyncResult).
//
// The wavefront is the runtime's warp of the chip's wavefront size W
// (state.layout.warpSize, 32 or 64; the kernel table tells the runtime):
// lane = linear work-item id mod W. The member mask is every lane of the
// wavefront that exists (the workgroup's last wavefront may be partial),
// built in 64 bits; the kernel runs in the runtime's execution-mask mode
// (exec_mask in the kernel table), so the op runs over the lanes that reach
// it, EXEC on a GPU: a lane that returned or waits elsewhere is inactive,
// and a read from it gives 0.
//
// AMDGPU semantics (AMD's ISA manuals; LLVM's AMDGPU intrinsics), each read
// of another lane's 32 bits being one SHFL_IDX of source lane b (in a
// 32-lane warp with clamp 31 and segment mask 0, so b[4:0]; a 64-lane
// warp's shuffles have no clamp or segment and take b mod 64), always
// valid, whose result is replaced by 0 where the source lane does not
// exist:
//  - ds_bpermute(addr, data): source = (addr / 4) mod W (high-order bits
//    ignored); an inactive source lane gives 0;
//  - ds_swizzle(data, offset), offset a 16-bit constant:
//      offset[15] = 0 (bit-mask mode, within groups of 32): with
//        and = offset[4:0], or = offset[9:5], xor = offset[14:10],
//        source = (lane & 32) | (((lane & and) | or) ^ xor) (lane & 32 is
//        0 on wave32);
//      offset[15:8] = 0x80 (quad-permute mode, within groups of 4):
//        source = (lane & ~3) | offset[2 * (lane & 3) + 1 : 2 * (lane & 3)];
//    an inactive source lane gives 0; other offsets (the FFT and rotate
//    modes of some chips) are refused;
//  - readlane(v, l): lane (l mod W)'s v (undefined on a GPU for an
//    inactive lane: 0 here); readfirstlane(v): the lowest active lane's v,
//    that lane the lowest bit of a ballot of the active lanes; any integer,
//    float or pointer of up to 64 bits (read as two 32-bit halves when wider
//    than 32), others refused;
//  - ballot(p): bit l set when active lane l's p holds: VOTE_BALLOT over
//    the active lanes (a 64-bit mask), zero-extended or truncated to the
//    op's i32 or i64.
// update.dpp, mov.dpp and permlane ops are not made by convert-gpu-to-rocdl
// for gpu.shuffle, gpu.subgroup_broadcast or (after gpumem's collectives
// lowering) gpu.subgroup_reduce, and have no lowering here.
//===----------------------------------------------------------------------===//

#include "ROCDLOpLowering.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringExtras.h"

#include <cstddef>

using namespace mlir;
using namespace gpumem::rocmemu;
using namespace gpumem::rocmemu::rocdlops;

namespace {

/// The caller's wavefront: its size W (32 or 64), its lane and how many
/// lanes exist (i32s), and their mask (the active lanes, EXEC; an i64).
struct Wavefront {
  int64_t size;
  Value lane, lanes, mask;
};

Wavefront describeWavefront(Emitter &emit) {
  OpBuilder &b = emit.builder;
  Location loc = emit.loc;
  Type i32Type = b.getI32Type();
  int64_t size = emit.layout.warpSize;
  int64_t ntid = offsetof(GPUMemThreadContext, blockDim);
  Value linear = emit.linearThreadId();
  Value lane = LLVM::URemOp::create(b, loc, linear, emit.i64(size));
  Value first = LLVM::SubOp::create(b, loc, linear, lane);
  Value threads = LLVM::MulOp::create(
      b, loc,
      LLVM::MulOp::create(b, loc, emit.field(ntid, 0), emit.field(ntid, 1)),
      emit.field(ntid, 2));
  Value rest = LLVM::SubOp::create(b, loc, threads, first);
  Value full = emit.i64(size);
  Value lanes = LLVM::SelectOp::create(
      b, loc,
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, rest, full), rest,
      full);
  // (1 << lanes) - 1 in 64 bits; LLVM's shift by 64 is poison, so a full
  // 64-lane wavefront's mask is all ones.
  Value mask = LLVM::SubOp::create(
      b, loc, LLVM::ShlOp::create(b, loc, emit.i64(1), lanes), emit.i64(1));
  if (size == 64)
    mask = LLVM::SelectOp::create(
        b, loc,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, lanes, full),
        emit.i64(-1), mask);
  return {size, LLVM::TruncOp::create(b, loc, i32Type, lane),
          LLVM::TruncOp::create(b, loc, i32Type, lanes), mask};
}

/// `lane` (an i32) modulo the wavefront size.
Value wrapLane(Emitter &emit, const Wavefront &wave, Value lane) {
  return LLVM::AndOp::create(emit.builder, emit.loc, lane,
                             emit.i32(wave.size - 1));
}

/// Lane `source`'s (an i32 in 0..W-1) `value` (an i32), or 0 when that lane
/// does not exist.
Value readLane(Emitter &emit, const Wavefront &wave, Value source,
               Value value) {
  OpBuilder &b = emit.builder;
  Location loc = emit.loc;
  Type i32Type = b.getI32Type();
  // c: in a 32-lane warp clamp 31 and segment mask 0; a 64-lane warp's
  // shuffles ignore it.
  Value raw = emit.warpSync(GPUMEM_WARP_SHFL_IDX, wave.mask, emit.toI64(value),
                            source, emit.i32(wave.size == 32 ? 0x1f : 0));
  Value read = LLVM::TruncOp::create(b, loc, i32Type, raw);
  Value present = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, source,
                                       wave.lanes);
  return LLVM::SelectOp::create(b, loc, present, read, emit.i32(0));
}

/// Whether readLaneOfType reads values of `type`; else reports at `op`.
LogicalResult checkLaneValueType(Operation *op, Type type,
                                 DeviceFunctionState &state) {
  if (isa<LLVM::LLVMPointerType>(type) ||
      (isa<IntegerType, FloatType>(type) && type.getIntOrFloatBitWidth() <= 64))
    return success();
  state.failed = true;
  return op->emitOpError()
         << "on values of type " << type
         << " has no lowering on the rocm-emu target (integers, floats and "
            "pointers of up to 64 bits have)";
}

/// readLane of a value of an integer, float or pointer type of up to 64
/// bits (checkLaneValueType), as two 32-bit halves when it is wider.
Value readLaneOfType(Emitter &emit, const Wavefront &wave, Value source,
                     Value value) {
  OpBuilder &b = emit.builder;
  Location loc = emit.loc;
  Type type = value.getType();
  Type i32Type = b.getI32Type(), i64Type = b.getI64Type();
  unsigned bits = 64;
  Value bitsValue;
  if (isa<LLVM::LLVMPointerType>(type)) {
    bitsValue = LLVM::PtrToIntOp::create(b, loc, i64Type, value);
  } else {
    bits = type.getIntOrFloatBitWidth();
    bitsValue = value;
    if (isa<FloatType>(type))
      bitsValue =
          LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), value);
  }
  Type bitsType = b.getIntegerType(bits);
  Value result;
  if (bits <= 32) {
    Value word = bits < 32 ? LLVM::ZExtOp::create(b, loc, i32Type, bitsValue)
                           : bitsValue;
    result = readLane(emit, wave, source, word);
    if (bits < 32)
      result = LLVM::TruncOp::create(b, loc, bitsType, result);
  } else {
    Value wide = bits < 64 ? LLVM::ZExtOp::create(b, loc, i64Type, bitsValue)
                           : bitsValue;
    Value low = readLane(emit, wave, source,
                         LLVM::TruncOp::create(b, loc, i32Type, wide));
    Value high = readLane(
        emit, wave, source,
        LLVM::TruncOp::create(
            b, loc, i32Type, LLVM::LShrOp::create(b, loc, wide, emit.i64(32))));
    result = LLVM::OrOp::create(
        b, loc, LLVM::ZExtOp::create(b, loc, i64Type, low),
        LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64Type, high),
                            emit.i64(32)));
    if (bits < 64)
      result = LLVM::TruncOp::create(b, loc, bitsType, result);
  }
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, result);
  if (isa<FloatType>(type))
    return LLVM::BitcastOp::create(b, loc, type, result);
  return result;
}

/// A pattern lowering the cross-lane op `Op`: refused where `check`
/// refuses it (before anything is built); else replaced by what `lower`
/// builds.
template <typename Op> class CrossLanePattern : public DevicePattern<Op> {
public:
  using DevicePattern<Op>::DevicePattern;

  LogicalResult matchAndRewrite(Op op, PatternRewriter &rewriter) const final {
    if (failed(check(op)))
      return failure();
    Emitter emit(rewriter, op, this->state);
    Wavefront wave = describeWavefront(emit);
    rewriter.replaceOp(op, lower(op, emit, wave));
    return success();
  }

protected:
  virtual LogicalResult check(Op op) const { return success(); }
  virtual Value lower(Op op, Emitter &emit, const Wavefront &wave) const = 0;
};

/// rocdl.ds_bpermute: lane (addr / 4) mod W's data.
class DsBpermuteLowering : public CrossLanePattern<ROCDL::DsBpermuteOp> {
public:
  using CrossLanePattern::CrossLanePattern;

protected:
  Value lower(ROCDL::DsBpermuteOp op, Emitter &emit,
              const Wavefront &wave) const override {
    Value source = wrapLane(emit, wave,
                            LLVM::LShrOp::create(emit.builder, emit.loc,
                                                 op.getIndex(), emit.i32(2)));
    return readLane(emit, wave, source, op.getSrc());
  }
};

/// ds_swizzle's modes.
enum class SwizzleMode { BitMask, QuadPermute, Other };

SwizzleMode swizzleMode(uint64_t offset) {
  if (offset <= 0xffff && !(offset & 0x8000))
    return SwizzleMode::BitMask;
  if ((offset & ~uint64_t(0xff)) == 0x8000)
    return SwizzleMode::QuadPermute;
  return SwizzleMode::Other;
}

/// rocdl.ds_swizzle: the lane its offset's bit-mask or quad-permute pattern
/// names.
class DsSwizzleLowering : public CrossLanePattern<ROCDL::DsSwizzleOp> {
public:
  using CrossLanePattern::CrossLanePattern;

protected:
  LogicalResult check(ROCDL::DsSwizzleOp op) const override {
    APInt offset;
    if (!matchPattern(op.getOffset(), m_ConstantInt(&offset))) {
      state.failed = true;
      return op->emitOpError()
             << "needs a constant offset on the rocm-emu target (the "
                "instruction encodes it)";
    }
    if (swizzleMode(offset.getZExtValue()) != SwizzleMode::Other)
      return success();
    state.failed = true;
    return op->emitOpError()
           << "with offset 0x" << llvm::utohexstr(offset.getZExtValue())
           << " has no lowering on the rocm-emu target, which runs the "
              "bit-mask (offset < 0x8000) and quad-permute (0x80xx) modes";
  }

  Value lower(ROCDL::DsSwizzleOp op, Emitter &emit,
              const Wavefront &wave) const override {
    OpBuilder &b = emit.builder;
    Location loc = emit.loc;
    APInt constant;
    (void)matchPattern(op.getOffset(), m_ConstantInt(&constant));
    uint64_t offset = constant.getZExtValue();
    Value source;
    if (swizzleMode(offset) == SwizzleMode::BitMask) {
      Value masked =
          LLVM::AndOp::create(b, loc, wave.lane, emit.i32(offset & 0x1f));
      Value ored =
          LLVM::OrOp::create(b, loc, masked, emit.i32((offset >> 5) & 0x1f));
      source =
          LLVM::XOrOp::create(b, loc, ored, emit.i32((offset >> 10) & 0x1f));
      // Within groups of 32: a wave64 lane keeps its half.
      if (wave.size == 64)
        source = LLVM::OrOp::create(
            b, loc, LLVM::AndOp::create(b, loc, wave.lane, emit.i32(32)),
            source);
    } else {
      Value quad = LLVM::AndOp::create(b, loc, wave.lane, emit.i32(~3));
      Value shift = LLVM::ShlOp::create(
          b, loc, LLVM::AndOp::create(b, loc, wave.lane, emit.i32(3)),
          emit.i32(1));
      Value select = LLVM::AndOp::create(
          b, loc, LLVM::LShrOp::create(b, loc, emit.i32(offset & 0xff), shift),
          emit.i32(3));
      source = LLVM::OrOp::create(b, loc, quad, select);
    }
    return readLane(emit, wave, source, op.getSrc());
  }
};

/// rocdl.readfirstlane: the lowest active lane's value, that lane found
/// from a ballot of the active lanes.
class ReadfirstlaneLowering : public CrossLanePattern<ROCDL::ReadfirstlaneOp> {
public:
  using CrossLanePattern::CrossLanePattern;

protected:
  LogicalResult check(ROCDL::ReadfirstlaneOp op) const override {
    return checkLaneValueType(op, op.getType(), state);
  }
  Value lower(ROCDL::ReadfirstlaneOp op, Emitter &emit,
              const Wavefront &wave) const override {
    OpBuilder &b = emit.builder;
    Value active = emit.warpSync(GPUMEM_WARP_VOTE_BALLOT, wave.mask,
                                 emit.i64(1), emit.i32(0), emit.i32(0));
    Value first = LLVM::CountTrailingZerosOp::create(
        b, emit.loc, b.getI64Type(), active, /*is_zero_poison=*/false);
    return readLaneOfType(
        emit, wave, LLVM::TruncOp::create(b, emit.loc, b.getI32Type(), first),
        op.getSrc());
  }
};

/// rocdl.readlane: lane (src1 mod W)'s value.
class ReadlaneLowering : public CrossLanePattern<ROCDL::ReadlaneOp> {
public:
  using CrossLanePattern::CrossLanePattern;

protected:
  LogicalResult check(ROCDL::ReadlaneOp op) const override {
    return checkLaneValueType(op, op.getType(), state);
  }
  Value lower(ROCDL::ReadlaneOp op, Emitter &emit,
              const Wavefront &wave) const override {
    return readLaneOfType(emit, wave, wrapLane(emit, wave, op.getSrc1()),
                          op.getSrc0());
  }
};

/// rocdl.ballot: the active lanes whose predicate holds.
class BallotLowering : public CrossLanePattern<ROCDL::BallotOp> {
public:
  using CrossLanePattern::CrossLanePattern;

protected:
  Value lower(ROCDL::BallotOp op, Emitter &emit,
              const Wavefront &wave) const override {
    Value raw =
        emit.warpSync(GPUMEM_WARP_VOTE_BALLOT, wave.mask,
                      emit.toI64(op.getPred()), emit.i32(0), emit.i32(0));
    return emit.fromI64(raw, op.getType());
  }
};

} // namespace

bool gpumem::rocmemu::rocdlops::isCrossLaneOp(Operation *op) {
  return isa<ROCDL::DsBpermuteOp, ROCDL::DsSwizzleOp, ROCDL::ReadfirstlaneOp,
             ROCDL::ReadlaneOp, ROCDL::BallotOp>(op);
}

void gpumem::rocmemu::rocdlops::populateCrossLanePatterns(
    RewritePatternSet &patterns, DeviceFunctionState &state) {
  patterns.add<DsBpermuteLowering, DsSwizzleLowering, ReadfirstlaneLowering,
               ReadlaneLowering, BallotLowering>(patterns.getContext(), state);
}
