//===----------------------------------------------------------------------===//
// gpumem-read-dynamic-shared-size-rocdl: `memref.dim` of
// gpu.dynamic_shared_memory reads the launch's dynamic LDS size on AMD GPUs.
//
// Upstream's ROCDL lowering builds the descriptor of gpu.dynamic_shared_memory
// with a size of 0. AMD GPUs have no register holding the dynamic size, but
// the HSA kernel dispatch packet holds the workgroup's whole LDS allocation,
// `group_segment_size` (a u32 at byte 28: the kernel's static LDS plus what
// the launch asked for), and the dynamic region is the rest of it after its
// start, whose LDS address is the dynamic buffer's address. Algorithm, on a
// gpu.module before the ROCDL lowering: every `memref.dim` whose source is a
// gpu.dynamic_shared_memory becomes
//   index_castui(load invariant (llvm.amdgcn.dispatch.ptr + 28))
//     - extract_aligned_pointer_as_index(dynamic buffer)
//===----------------------------------------------------------------------===//

#include "gpumem/Target/ROCm/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMREADDYNAMICSHAREDSIZEROCDLPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// AMDGPU's constant address space, where the dispatch packet lives.
constexpr unsigned kConstantAddressSpace = 4;
/// Byte offset of `group_segment_size` in hsa_kernel_dispatch_packet_t.
constexpr int32_t kGroupSegmentSizeOffset = 28;

struct ReadDynamicSharedSizeROCDLPass
    : gpumem::impl::GPUMemReadDynamicSharedSizeROCDLPassBase<
          ReadDynamicSharedSizeROCDLPass> {
  void runOnOperation() override {
    SmallVector<memref::DimOp> dims;
    getOperation().walk([&](memref::DimOp dim) {
      if (dim.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
        dims.push_back(dim);
    });
    for (memref::DimOp dim : dims) {
      OpBuilder builder(dim);
      Location loc = dim.getLoc();
      auto constantPtr =
          LLVM::LLVMPointerType::get(&getContext(), kConstantAddressSpace);
      auto packet = LLVM::CallIntrinsicOp::create(
          builder, loc, constantPtr,
          builder.getStringAttr("llvm.amdgcn.dispatch.ptr"), ValueRange());
      auto field = LLVM::GEPOp::create(
          builder, loc, constantPtr, builder.getI8Type(), packet.getResult(0),
          ArrayRef<LLVM::GEPArg>{kGroupSegmentSizeOffset});
      auto total = LLVM::LoadOp::create(
          builder, loc, builder.getI32Type(), field, /*alignment=*/4,
          /*isVolatile=*/false, /*isNonTemporal=*/false,
          /*isInvariant=*/true);
      Value totalBytes = arith::IndexCastUIOp::create(
          builder, loc, builder.getIndexType(), total);
      Value start = memref::ExtractAlignedPointerAsIndexOp::create(
          builder, loc, dim.getSource());
      Value bytes = arith::SubIOp::create(builder, loc, totalBytes, start);
      dim.replaceAllUsesWith(bytes);
      dim.erase();
    }
  }
};

} // namespace
