//===----------------------------------------------------------------------===//
// gpumem-private-allocas-for-rocdl: a default-space memref.alloca in device
// code is private memory (docs: a kernel's default-space alloca is
// private); on AMD GPUs it must be allocated in address space 5.
//
// Upstream's ROCDL lowering keeps the memref's space and emits an
// `llvm.alloca` in address space 0, which AMDGPU's data layout does not
// allocate in (A5): a dynamic size stops the backend with
// `LLVM ERROR: Cannot select: dynamic_stackalloc`. Algorithm, on a
// gpu.module before the ROCDL lowering: every memref.alloca whose memory
// space is the default one (none, or the integer 0) becomes the same
// alloca in #gpu.address_space<private> followed by a
// memref.memory_space_cast to the original type, which its users keep.
// The backend's address-space inference turns the generic accesses back
// into scratch accesses.
//===----------------------------------------------------------------------===//

#include "gpumem/Target/ROCm/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMPRIVATEALLOCASFORROCDLPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct PrivateAllocasForROCDLPass
    : gpumem::impl::GPUMemPrivateAllocasForROCDLPassBase<
          PrivateAllocasForROCDLPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaOp> allocas;
    getOperation().walk([&](memref::AllocaOp alloca) {
      if (gpumem::getAddressSpaceNumber(alloca.getType().getMemorySpace()) == 0)
        allocas.push_back(alloca);
    });
    auto privateSpace = gpu::AddressSpaceAttr::get(
        &getContext(), gpu::GPUDialect::getPrivateAddressSpace());
    for (memref::AllocaOp alloca : allocas) {
      MemRefType type = alloca.getType();
      auto privateType = MemRefType::get(type.getShape(), type.getElementType(),
                                         type.getLayout(), privateSpace);
      OpBuilder builder(alloca);
      auto replacement = memref::AllocaOp::create(
          builder, alloca.getLoc(), privateType, alloca.getDynamicSizes(),
          alloca.getSymbolOperands(), alloca.getAlignmentAttr());
      auto cast = memref::MemorySpaceCastOp::create(builder, alloca.getLoc(),
                                                    type, replacement);
      alloca.replaceAllUsesWith(cast.getResult());
      alloca.erase();
    }
  }
};

} // namespace
