//===----------------------------------------------------------------------===//
// gpumem-read-dynamic-shared-size-nvvm: `memref.dim` of
// gpu.dynamic_shared_memory reads the launch's dynamic shared memory size
// from PTX's %dynamic_smem_size register.
//
// Upstream's NVVM lowering builds the descriptor of gpu.dynamic_shared_memory
// with a size of 0, so `memref.dim` of it is 0 on the GPU while the CPU
// target gives the launch's bytes. Algorithm, on a gpu.module before the
// NVVM lowering: every `memref.dim` whose source is a
// gpu.dynamic_shared_memory becomes
//   arith.index_castui (llvm.call_intrinsic
//                       "llvm.nvvm.read.ptx.sreg.dynamic_smem_size")
//===----------------------------------------------------------------------===//

#include "gpumem/Target/CUDA/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMREADDYNAMICSHAREDSIZENVVMPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct ReadDynamicSharedSizeNVVMPass
    : gpumem::impl::GPUMemReadDynamicSharedSizeNVVMPassBase<
          ReadDynamicSharedSizeNVVMPass> {
  void runOnOperation() override {
    SmallVector<memref::DimOp> dims;
    getOperation().walk([&](memref::DimOp dim) {
      if (dim.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
        dims.push_back(dim);
    });
    for (memref::DimOp dim : dims) {
      OpBuilder builder(dim);
      auto size = LLVM::CallIntrinsicOp::create(
          builder, dim.getLoc(), builder.getI32Type(),
          builder.getStringAttr("llvm.nvvm.read.ptx.sreg.dynamic_smem_size"),
          ValueRange());
      Value bytes = arith::IndexCastUIOp::create(
          builder, dim.getLoc(), builder.getIndexType(), size.getResult(0));
      dim.replaceAllUsesWith(bytes);
      dim.erase();
    }
  }
};

} // namespace
