//===----------------------------------------------------------------------===//
// gpumem-lower-sync-memory-ops: a synchronous gpu.alloc (not host_shared),
// gpu.memcpy, gpu.memset or gpu.dealloc in host code becomes its
// asynchronous form on a stream of its own:
//   %t = gpu.wait async; <op> async [%t, deps...]; gpu.wait [token]
// which keeps the synchronous meaning and which upstream's gpu-to-llvm lowers.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERSYNCMEMORYOPSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// A fresh stream's token, ahead of `op`, on top of `op`'s own dependencies.
SmallVector<Value> streamFor(OpBuilder &builder, Operation *op,
                             ValueRange dependencies) {
  auto token = gpu::AsyncTokenType::get(builder.getContext());
  SmallVector<Value> deps{
      gpu::WaitOp::create(builder, op->getLoc(), token, ValueRange())
          .getAsyncToken()};
  llvm::append_range(deps, dependencies);
  return deps;
}

/// Waits for `token` after the rewritten op and erases the original.
void finish(OpBuilder &builder, Operation *original, Value token) {
  gpu::WaitOp::create(builder, original->getLoc(), Type(), ValueRange{token});
  original->erase();
}

struct LowerSyncMemoryOpsPass
    : gpumem::impl::GPUMemLowerSyncMemoryOpsPassBase<LowerSyncMemoryOpsPass> {
  void runOnOperation() override {
    auto token = gpu::AsyncTokenType::get(&getContext());
    SmallVector<Operation *> ops;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip(); // device code has no such ops to lower
      if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
        if (!alloc.getAsyncToken() && !alloc.getHostShared())
          ops.push_back(op);
      } else if (isa<gpu::MemcpyOp, gpu::MemsetOp, gpu::DeallocOp>(op) &&
                 !cast<gpu::AsyncOpInterface>(op).getAsyncToken()) {
        ops.push_back(op);
      }
      return WalkResult::advance();
    });
    for (Operation *op : ops) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
        auto async = gpu::AllocOp::create(
            builder, loc, alloc.getType(), token,
            streamFor(builder, op, alloc.getAsyncDependencies()),
            alloc.getDynamicSizes(), alloc.getSymbolOperands(),
            /*hostShared=*/false);
        alloc.getMemref().replaceAllUsesWith(async.getMemref());
        finish(builder, op, async.getAsyncToken());
      } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
        auto async = gpu::MemcpyOp::create(
            builder, loc, token,
            streamFor(builder, op, copy.getAsyncDependencies()),
            copy.getDst(), copy.getSrc());
        finish(builder, op, async.getAsyncToken());
      } else if (auto set = dyn_cast<gpu::MemsetOp>(op)) {
        auto async = gpu::MemsetOp::create(
            builder, loc, token,
            streamFor(builder, op, set.getAsyncDependencies()), set.getDst(),
            set.getValue());
        finish(builder, op, async.getAsyncToken());
      } else {
        auto dealloc = cast<gpu::DeallocOp>(op);
        auto async = gpu::DeallocOp::create(
            builder, loc, token,
            streamFor(builder, op, dealloc.getAsyncDependencies()),
            dealloc.getMemref());
        finish(builder, op, async.getAsyncToken());
      }
    }
  }
};

} // namespace
