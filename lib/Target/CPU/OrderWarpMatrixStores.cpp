//===----------------------------------------------------------------------===//
// Warp-collective order of tensor-core stores on the cpu target.
//
// gpu.subgroup_mma_load_matrix and store_matrix are warp-collective: on a
// GPU every lane of the warp has loaded its fragment before any lane
// stores, and has stored before any lane loads again. The cpu target runs
// each lane alone (LowerMMAToCPU.cpp), so a lane could store a tile over
// bytes another lane of its warp has yet to load: an accumulator loaded at
// one tile and stored at an overlapping other one (C[0:16] in, D to
// C[8:24]) read values the warp had already overwritten. Where a store's
// buffer is also loaded as a fragment with other indices, each lane meets
// its warp at a shuffle right before and right after the store (the shuffle
// service waits for every live lane), which restores the GPU's order. A
// store at exactly the indices of its load (in-place accumulation of one
// tile) touches only bytes the lane loaded itself and needs no wait.
//===----------------------------------------------------------------------===//

#include "LowerMMAToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace {

/// The buffer `memref` views: through views and casts to their source.
Value rootOf(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

/// Whether `store` writes exactly the tile `load` reads.
bool sameTile(gpu::SubgroupMmaStoreMatrixOp store,
              gpu::SubgroupMmaLoadMatrixOp load) {
  return store.getDstMemref() == load.getSrcMemref() &&
         store.getIndices() == load.getIndices() &&
         store.getLeadDimension() == load.getLeadDimension() &&
         store.getTranspose() == load.getTranspose();
}

/// A shuffle every lane of the warp must reach, its result unused.
void meetWarp(OpBuilder &builder, Location loc) {
  auto i32 = builder.getI32Type();
  Value zero = arith::ConstantIntOp::create(builder, loc, i32, 0);
  Value width = arith::ConstantIntOp::create(builder, loc, i32, 32);
  gpu::ShuffleOp::create(builder, loc, zero, zero, width,
                         gpu::ShuffleMode::IDX);
}

} // namespace

void gpumem::cpu::orderWarpMatrixStores(gpu::GPUModuleOp module) {
  for (auto func : module.getOps<FunctionOpInterface>()) {
    SmallVector<gpu::SubgroupMmaLoadMatrixOp> loads;
    SmallVector<gpu::SubgroupMmaStoreMatrixOp> stores;
    func->walk([&](Operation *op) {
      if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op))
        loads.push_back(load);
      else if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
        stores.push_back(store);
    });
    for (gpu::SubgroupMmaStoreMatrixOp store : stores) {
      Value buffer = rootOf(store.getDstMemref());
      bool overlaps = llvm::any_of(loads, [&](auto load) {
        return rootOf(load.getSrcMemref()) == buffer && !sameTile(store, load);
      });
      if (!overlaps)
        continue;
      OpBuilder builder(store);
      meetWarp(builder, store.getLoc());
      builder.setInsertionPointAfter(store);
      meetWarp(builder, store.getLoc());
    }
  }
}
