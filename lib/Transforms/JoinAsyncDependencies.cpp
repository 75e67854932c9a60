//===----------------------------------------------------------------------===//
// gpumem-join-async-dependencies: every asynchronous gpu op of host code that
// upstream's gpu-to-llvm lowers only with exactly one async dependency gets
// exactly one.
//
// gpu-to-llvm runs an async gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset
// or gpu.launch_func on the stream of its one dependency; with none or with
// several it leaves the op alone, and compiling fails later without saying
// why. For such an op this pass inserts
//   %s = gpu.wait async [deps]
// (a fresh stream that waits for every dependency, or for none) and makes
// %s the op's only dependency: the op still starts after all its
// dependencies, and nothing else is ordered by it. gpu.launch is handled
// the same way before outlining, which hands the dependency on to its
// gpu.launch_func. A synchronous launch with dependencies waits for them
// (gpu.wait [deps]) and keeps none; synchronous memory ops with
// dependencies are gpumem-lower-sync-memory-ops' business. gpu.wait takes
// any number of dependencies and stays as it is.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/TypeSwitch.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMJOINASYNCDEPENDENCIESPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// Gives `op` one dependency (async) or none (synchronous), waiting for its
/// current ones ahead of it.
template <typename OpTy> void join(OpTy op) {
  ValueRange dependencies = op.getAsyncDependencies();
  bool async = bool(op.getAsyncToken());
  if (async ? dependencies.size() == 1 : dependencies.empty())
    return;
  // A synchronous alloc or copy with dependencies is given a stream by
  // gpumem-lower-sync-memory-ops.
  if (!async && !isa<gpu::LaunchOp, gpu::LaunchFuncOp>(op.getOperation()))
    return;
  // An alloc in managed memory has no stream; the sync-ops pass waits for
  // its dependencies.
  if constexpr (std::is_same_v<OpTy, gpu::AllocOp>)
    if (op.getHostShared())
      return;
  OpBuilder builder(op);
  Location loc = op.getLoc();
  if (!async) {
    gpu::WaitOp::create(builder, loc, Type(), dependencies);
    op.getAsyncDependenciesMutable().clear();
    return;
  }
  Value stream = gpu::WaitOp::create(builder, loc,
                                     gpu::AsyncTokenType::get(op.getContext()),
                                     dependencies)
                     .getAsyncToken();
  op.getAsyncDependenciesMutable().assign(stream);
}

struct JoinAsyncDependenciesPass
    : gpumem::impl::GPUMemJoinAsyncDependenciesPassBase<
          JoinAsyncDependenciesPass> {
  void runOnOperation() override {
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip(); // device code has no streams
      TypeSwitch<Operation *>(op)
          .Case<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp,
                gpu::LaunchOp, gpu::LaunchFuncOp>([](auto op) { join(op); });
      return WalkResult::advance();
    });
  }
};

} // namespace
