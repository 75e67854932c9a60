//===----------------------------------------------------------------------===//
// gpumem-check-launch-bounds: constant block and grid sizes of gpu.launch and
// gpu.launch_func are checked against the limits all NVIDIA GPUs since sm_70
// share (the cpu runtime enforces the same at run time).
//===----------------------------------------------------------------------===//

#include "gpumem/Runtime/Limits.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCHECKLAUNCHBOUNDSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

constexpr int64_t kMaxThreadsPerBlock = GPUMEM_MAX_THREADS_PER_BLOCK;
constexpr int64_t kMaxBlockDims[3] = {
    GPUMEM_MAX_BLOCK_DIM_X, GPUMEM_MAX_BLOCK_DIM_Y, GPUMEM_MAX_BLOCK_DIM_Z};
constexpr int64_t kMaxGridDims[3] = {
    GPUMEM_MAX_GRID_DIM_X, GPUMEM_MAX_GRID_DIM_Y, GPUMEM_MAX_GRID_DIM_Z};

/// Checks one launch's sizes; emits an error at `launch` on a violation.
LogicalResult checkSizes(Operation *launch, const char *what,
                         ArrayRef<Value> sizes, const int64_t limits[3]) {
  std::optional<int64_t> values[3];
  for (int d = 0; d < 3; ++d) {
    values[d] = getConstantIntValue(sizes[d]);
    if (!values[d])
      continue;
    if (*values[d] < 1)
      return launch->emitOpError()
             << "asks for a " << what << " size of " << *values[d]
             << " in dimension " << "xyz"[d] << "; sizes are at least 1";
    if (*values[d] > limits[d])
      return launch->emitOpError() << "asks for a " << what << " size of "
                                   << *values[d] << " in dimension " << "xyz"[d]
                                   << "; GPUs allow at most " << limits[d];
  }
  if (limits == kMaxBlockDims && values[0] && values[1] && values[2] &&
      *values[0] * *values[1] * *values[2] > kMaxThreadsPerBlock)
    return launch->emitOpError()
           << "asks for blocks of " << *values[0] << " x " << *values[1]
           << " x " << *values[2] << " = "
           << *values[0] * *values[1] * *values[2]
           << " threads; a block has at most " << kMaxThreadsPerBlock;
  return success();
}

struct CheckLaunchBoundsPass
    : gpumem::impl::GPUMemCheckLaunchBoundsPassBase<CheckLaunchBoundsPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](Operation *op) {
      SmallVector<Value, 3> block, grid;
      if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
        block = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                 launch.getBlockSizeZ()};
        grid = {launch.getGridSizeX(), launch.getGridSizeY(),
                launch.getGridSizeZ()};
      } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
        block = {launch.getBlockSizeX(), launch.getBlockSizeY(),
                 launch.getBlockSizeZ()};
        grid = {launch.getGridSizeX(), launch.getGridSizeY(),
                launch.getGridSizeZ()};
      } else {
        return;
      }
      if (mlir::failed(checkSizes(op, "block", block, kMaxBlockDims)) ||
          mlir::failed(checkSizes(op, "grid", grid, kMaxGridDims)))
        failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
