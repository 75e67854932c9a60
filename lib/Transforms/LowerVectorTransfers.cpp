//===----------------------------------------------------------------------===//
// gpumem-lower-vector-transfers: vector.transfer_read/write in a gpu.module
// as vector loads and stores.
//
// Two targets need it. Upstream's convert-gpu-to-nvvm lowers vector.load,
// vector.store and their masked forms with its memory-space-aware type
// converter, but not transfer ops, which only convert-vector-to-llvm
// rewrites first; run over the whole module, that pass converts workgroup
// memrefs without the GPU memory space mapping ("conversion of memref
// memory space ... failed") and the module cannot be translated. And the
// cpu target's --sanitize instruments loads and stores, so a transfer_write
// it did not see left bytes "uninitialized" for a later load. Algorithm: one
// greedy rewrite with upstream's patterns: a transfer that may run out of
// bounds gets an explicit mask (vector.create_mask of the elements in bounds,
// materialized as a comparison with a step vector), then 1-D minor-identity
// transfers become vector.load/store or vector.maskedload/maskedstore.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERVECTORTRANSFERSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct LowerVectorTransfersPass
    : gpumem::impl::GPUMemLowerVectorTransfersPassBase<
          LowerVectorTransfersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // 32-bit indices, as NVPTX prefers for the mask's comparison.
    vector::populateVectorMaskMaterializationPatterns(
        patterns, /*force32BitVectorIndices=*/true);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      getOperation().emitError()
          << "vector transfers did not settle into loads and stores";
  }
};

} // namespace
