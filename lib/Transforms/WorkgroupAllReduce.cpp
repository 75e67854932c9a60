//===----------------------------------------------------------------------===//
// gpu.all_reduce through workgroup memory, for targets whose subgroups are
// not 32 lanes wide.
//
// gpumem's shared lowering of gpu.all_reduce (upstream's rewriter) assumes
// 32-lane subgroups, which a Vulkan device need not have (lavapipe has 8)
// nor an AMD wave64 chip, and Vulkan has no workgroup-scope group
// operations. So each all_reduce
// of a kernel gets a workgroup array S of one element per thread the block
// can have (known_block_size, else the device limit the target assumes),
// and with t the thread's linear id and n the block's thread count:
//   S[t] = x; barrier
//   for s = P/2, P/4, ..., 1 (P: the next power of two of S's length):
//     if t < s and t + s < n: S[t] = S[t] op S[t + s]
//     barrier
//   result = S[0]; barrier   (so a later all_reduce may reuse nothing early)
// `op` is the op's reduction kind or its region. log2(P) + 2 barriers, no
// subgroup operation.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/WorkgroupAllReduce.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace {

/// `a op b` for `reduce`: its region cloned, or its operation.
Value combine(OpBuilder &builder, Location loc, gpu::AllReduceOp reduce,
              Value a, Value b) {
  if (std::optional<gpu::AllReduceOperation> kind = reduce.getOp())
    return vector::makeArithReduction(builder, loc,
                                      gpu::convertReductionKind(*kind), a, b);
  Block &body = reduce.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), a);
  mapping.map(body.getArgument(1), b);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  return mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
}

/// The thread's linear id in its block and the block's thread count.
std::pair<Value, Value> linearThread(OpBuilder &builder, Location loc) {
  auto id = [&](gpu::Dimension d) {
    return gpu::ThreadIdOp::create(builder, loc, d).getResult();
  };
  auto dim = [&](gpu::Dimension d) {
    return gpu::BlockDimOp::create(builder, loc, d).getResult();
  };
  Value x = dim(gpu::Dimension::x), y = dim(gpu::Dimension::y);
  Value zPart = arith::MulIOp::create(builder, loc, id(gpu::Dimension::z), y);
  Value yz = arith::AddIOp::create(builder, loc, id(gpu::Dimension::y), zPart);
  Value t = arith::AddIOp::create(builder, loc, id(gpu::Dimension::x),
                                  arith::MulIOp::create(builder, loc, yz, x));
  Value n = arith::MulIOp::create(builder, loc,
                                  arith::MulIOp::create(builder, loc, x, y),
                                  dim(gpu::Dimension::z));
  return {t, n};
}

} // namespace

LogicalResult
gpumem::lowerAllReduceThroughWorkgroupMemory(gpu::GPUFuncOp kernel,
                                             int64_t maxBlockThreads) {
  SmallVector<gpu::AllReduceOp> reduces;
  kernel.walk([&](gpu::AllReduceOp op) { reduces.push_back(op); });
  if (reduces.empty())
    return success();
  int64_t slots = maxBlockThreads;
  if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize())
    slots = int64_t((*known)[0]) * (*known)[1] * (*known)[2];
  Attribute workgroup = gpu::AddressSpaceAttr::get(
      kernel.getContext(), gpu::AddressSpace::Workgroup);
  for (gpu::AllReduceOp reduce : reduces) {
    Type type = reduce.getType();
    if (!type.isIntOrFloat())
      return reduce.emitOpError()
             << "of " << type
             << " has no lowering through workgroup memory (integers and "
                "floats have)";
    Location loc = reduce.getLoc();
    Value scratch = kernel.addWorkgroupAttribution(
        MemRefType::get({slots}, type, MemRefLayoutAttrInterface(), workgroup),
        loc);
    OpBuilder builder(reduce);
    auto [t, n] = linearThread(builder, loc);
    memref::StoreOp::create(builder, loc, reduce.getValue(), scratch, t);
    gpu::BarrierOp::create(builder, loc);
    for (int64_t stride = int64_t(llvm::PowerOf2Ceil(uint64_t(slots))) / 2;
         stride >= 1; stride /= 2) {
      Value s = arith::ConstantIndexOp::create(builder, loc, stride);
      Value partner = arith::AddIOp::create(builder, loc, t, s);
      Value lower =
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, t, s);
      Value inside = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, partner, n);
      Value active = arith::AndIOp::create(builder, loc, lower, inside);
      auto step = scf::IfOp::create(builder, loc, active, /*withElse=*/false);
      {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(&step.getThenRegion().front());
        Value a = memref::LoadOp::create(builder, loc, scratch, t);
        Value b = memref::LoadOp::create(builder, loc, scratch, partner);
        memref::StoreOp::create(
            builder, loc, combine(builder, loc, reduce, a, b), scratch, t);
      }
      gpu::BarrierOp::create(builder, loc);
    }
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value result = memref::LoadOp::create(builder, loc, scratch, zero);
    gpu::BarrierOp::create(builder, loc);
    reduce.replaceAllUsesWith(result);
    reduce.erase();
  }
  return success();
}
