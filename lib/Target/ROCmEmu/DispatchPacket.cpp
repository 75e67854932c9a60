//===----------------------------------------------------------------------===//
// The HSA kernel dispatch packet on the host, for the rocm-emu target. AMD
// device code reads its launch from the packet that
// llvm.amdgcn.dispatch.ptr points to (hsa_kernel_dispatch_packet_t): gpumem's
// rocm target reads the workgroup's LDS size there
// (gpumem-read-dynamic-shared-size-rocdl), and ocml's work-item functions
// read the sizes. Algorithm: each call of the intrinsic becomes a 64-byte
// packet in the function's frame (an alloca in the entry block), filled
// where the call was from the thread context with the fields HSA defines:
//   offset  4, 6, 8  workgroup_size_x/y/z  (u16)  blockDim
//   offset 12, 16, 20 grid_size_x/y/z      (u32)  gridDim * blockDim
//   offset 24        private_segment_size (u32)  0
//   offset 28        group_segment_size   (u32)  static LDS + the launch's
//                                                 dynamic LDS
// The rest is 0. LDS addresses on the host are offsets in the block's
// arena (DeviceDialect::sharedPointersAreOffsets), so the dynamic LDS
// size the rocm target computes (group_segment_size minus the dynamic
// buffer's address) is the launch's.
//===----------------------------------------------------------------------===//

#include "ROCDLToCPU.h"

#include "../HostKernel/HostCode.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <cstddef>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kDispatchPtr = "llvm.amdgcn.dispatch.ptr";
constexpr int64_t kPacketBytes = 64;

class DispatchPacketLowering : public OpRewritePattern<LLVM::CallIntrinsicOp> {
public:
  DispatchPacketLowering(MLIRContext *context,
                         gpumem::hostkernel::DeviceFunctionState &state)
      : OpRewritePattern(context), state(state) {}

  LogicalResult matchAndRewrite(LLVM::CallIntrinsicOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getIntrin() != kDispatchPtr || op.getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not llvm.amdgcn.dispatch.ptr");
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    auto ptr = LLVM::LLVMPointerType::get(context);
    Type i8 = rewriter.getI8Type(), i16 = rewriter.getI16Type(),
         i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();

    // The packet: an 8-byte-aligned frame slot of the entry block.
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&func.getBody().front());
    Value bytes = LLVM::ConstantOp::create(
        rewriter, loc, i64, rewriter.getI64IntegerAttr(kPacketBytes));
    Value packet = LLVM::AllocaOp::create(rewriter, loc, ptr, i8, bytes,
                                          /*alignment=*/8);
    rewriter.setInsertionPoint(op);
    gpumem::hostkernel::ContextAccess access(rewriter, loc, state.context);
    auto field = [&](int64_t offset) { return access.address(packet, offset); };
    auto store = [&](Value value, int64_t offset) {
      LLVM::StoreOp::create(rewriter, loc, value, field(offset));
    };
    Value zero8 = LLVM::ConstantOp::create(rewriter, loc, i64,
                                           rewriter.getI64IntegerAttr(0));
    for (int64_t offset = 0; offset < kPacketBytes; offset += 8)
      store(zero8, offset);
    for (int d = 0; d < 3; ++d) {
      Value block = access.load(
          state.context, offsetof(GPUMemThreadContext, blockDim) + 8 * d, i64);
      Value grid = access.load(
          state.context, offsetof(GPUMemThreadContext, gridDim) + 8 * d, i64);
      store(LLVM::TruncOp::create(rewriter, loc, i16, block), 4 + 2 * d);
      Value items = LLVM::MulOp::create(rewriter, loc, block, grid);
      store(LLVM::TruncOp::create(rewriter, loc, i32, items), 12 + 4 * d);
    }
    int64_t staticBytes = int64_t(
        llvm::alignTo(state.layout.staticBytes, GPUMEM_SHARED_ALIGNMENT));
    Value dynamic = access.load(
        state.context, offsetof(GPUMemThreadContext, dynamicSharedBytes), i64);
    Value group = LLVM::AddOp::create(
        rewriter, loc, dynamic,
        LLVM::ConstantOp::create(rewriter, loc, i64,
                                 rewriter.getI64IntegerAttr(staticBytes)));
    store(LLVM::TruncOp::create(rewriter, loc, i32, group), 28);
    // The intrinsic's pointer is in the constant address space; the shared
    // lowering erases address spaces afterwards.
    Value result = packet;
    if (op.getResult(0).getType() != ptr)
      result = LLVM::AddrSpaceCastOp::create(rewriter, loc,
                                             op.getResult(0).getType(), packet);
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  gpumem::hostkernel::DeviceFunctionState &state;
};

} // namespace

bool gpumem::rocmemu::isDispatchPacketIntrinsic(StringRef intrinsic) {
  return intrinsic == kDispatchPtr;
}

void gpumem::rocmemu::populateDispatchPacketPatterns(
    RewritePatternSet &patterns,
    gpumem::hostkernel::DeviceFunctionState &state) {
  patterns.add<DispatchPacketLowering>(patterns.getContext(), state);
}
