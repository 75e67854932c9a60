//===----------------------------------------------------------------------===//
// gpumem-lower-sync-memory-ops: makes the gpu dialect's memory ops in host
// code lowerable by upstream's gpu-to-llvm, or reports, at the op, why one
// cannot be.
//
// 1. Checks. gpu-to-llvm turns gpu.memcpy and gpu.memset into one runtime
//    call on a contiguous block that starts at the memref's aligned pointer,
//    ignoring its offset and strides (a copy into a view lands in the wrong
//    place), and leaves ops it cannot lower for a later, unlocated failure.
//    So both memrefs of a copy and the memref of a fill must have the
//    identity layout, and a fill's elements must be 16 or 32 bits wide (the
//    runtimes have no other fill). Shapes and element types are checked by
//    the ops' own verifiers; dynamic sizes cannot be compared before run
//    time (the copy moves the source's bytes). Any error stops the pass
//    before it changes anything.
// 2. A synchronous gpu.alloc (not host_shared), gpu.memcpy, gpu.memset or
//    gpu.dealloc becomes its asynchronous form on a stream of its own:
//      %t = gpu.wait async [deps]; <op> async [%t]; gpu.wait [token]
//    which keeps the synchronous meaning and which gpu-to-llvm lowers.
// 3. gpu.alloc async host_shared, which gpu-to-llvm rejects (managed memory
//    has no stream-ordered allocation), becomes the synchronous allocation,
//    and its token `gpu.wait async [deps]`: ready when the dependencies are,
//    with the memory allocated at once (docs/decisions.md).
//===----------------------------------------------------------------------===//

#include "gpumem/Conversion/GPUMemToLLVM/GPUMemToLLVM.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERSYNCMEMORYOPSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// A fresh stream's token, ahead of `op`, that waits for `dependencies`:
/// upstream lowers async ops with exactly one dependency.
SmallVector<Value> streamFor(OpBuilder &builder, Operation *op,
                             ValueRange dependencies) {
  auto token = gpu::AsyncTokenType::get(builder.getContext());
  return {gpu::WaitOp::create(builder, op->getLoc(), token, dependencies)
              .getAsyncToken()};
}

/// Waits for `token` after the rewritten op and erases the original.
void finish(OpBuilder &builder, Operation *original, Value token) {
  gpu::WaitOp::create(builder, original->getLoc(), Type(), ValueRange{token});
  original->erase();
}

/// Reports a memref whose layout is not the identity, which gpu-to-llvm
/// copies or fills as if it were. `what` is what the op does.
LogicalResult checkContiguousFromStart(Operation *op, Value memref,
                                       StringRef role, StringRef what) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getLayout().isIdentity())
    return success();
  return op->emitOpError() << what << ", so the " << role
                           << " must have the identity layout, not " << type;
}

LogicalResult checkCopy(gpu::MemcpyOp copy) {
  StringRef what = "copies a contiguous block from the start of each memref";
  return success(
      succeeded(
          checkContiguousFromStart(copy, copy.getDst(), "destination", what)) &&
      succeeded(checkContiguousFromStart(copy, copy.getSrc(), "source", what)));
}

LogicalResult checkFill(gpu::MemsetOp fill) {
  if (failed(checkContiguousFromStart(
          fill, fill.getDst(), "destination",
          "fills a contiguous block from the start of the memref")))
    return failure();
  Type element = fill.getValue().getType();
  if (!element.isIntOrFloat())
    return fill.emitOpError()
           << "fills 16- or 32-bit integer or float elements, not " << element;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32)
    return fill.emitOpError() << "fills 16- or 32-bit elements; " << element
                              << " has " << bits << " bits";
  return success();
}

struct LowerSyncMemoryOpsPass
    : gpumem::impl::GPUMemLowerSyncMemoryOpsPassBase<LowerSyncMemoryOpsPass> {
  /// Every pipeline runs this pass on host code that gpu-to-llvm lowers
  /// later: the gpumem ops there lower through the interface registered here.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    gpumem::registerConvertGPUMemToLLVMInterface(registry);
  }

  void runOnOperation() override {
    auto token = gpu::AsyncTokenType::get(&getContext());
    SmallVector<Operation *> ops;
    bool checked = true;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip(); // device code has no such ops to lower
      if (auto copy = dyn_cast<gpu::MemcpyOp>(op))
        checked &= succeeded(checkCopy(copy));
      if (auto fill = dyn_cast<gpu::MemsetOp>(op))
        checked &= succeeded(checkFill(fill));
      if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
        bool async = bool(alloc.getAsyncToken());
        // Synchronous device memory, or stream-ordered managed memory.
        if (async == alloc.getHostShared())
          ops.push_back(op);
      } else if (isa<gpu::MemcpyOp, gpu::MemsetOp, gpu::DeallocOp>(op) &&
                 !cast<gpu::AsyncOpInterface>(op).getAsyncToken()) {
        ops.push_back(op);
      }
      return WalkResult::advance();
    });
    if (!checked)
      return signalPassFailure();

    for (Operation *op : ops) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
        if (alloc.getHostShared()) {
          auto sync = gpu::AllocOp::create(
              builder, loc, alloc.getType(), /*asyncToken=*/Type(),
              ValueRange(), alloc.getDynamicSizes(), alloc.getSymbolOperands(),
              /*hostShared=*/true);
          auto ready = gpu::WaitOp::create(builder, loc, token,
                                           alloc.getAsyncDependencies());
          alloc.getMemref().replaceAllUsesWith(sync.getMemref());
          alloc.getAsyncToken().replaceAllUsesWith(ready.getAsyncToken());
          alloc.erase();
          continue;
        }
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
            streamFor(builder, op, copy.getAsyncDependencies()), copy.getDst(),
            copy.getSrc());
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
