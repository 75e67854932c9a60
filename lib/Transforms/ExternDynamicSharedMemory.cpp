//===----------------------------------------------------------------------===//
// gpumem-extern-dynamic-shared-memory: every zero-size global in the
// workgroup address space (3) of an NVVM-lowered gpu.module gets external
// linkage, which the NVPTX backend prints as `.extern .shared ... name[]`:
// dynamic shared memory after all static shared memory, as CUDA's
// `extern __shared__`. Internal linkage made ptxas allocate one static byte
// there, overlapping the dynamic data with static buffers.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMEXTERNDYNAMICSHAREDMEMORYPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// NVVM's number for workgroup (shared) memory.
constexpr unsigned kSharedAddressSpace = 3;

struct ExternDynamicSharedMemoryPass
    : gpumem::impl::GPUMemExternDynamicSharedMemoryPassBase<
          ExternDynamicSharedMemoryPass> {
  void runOnOperation() override {
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() == kSharedAddressSpace && array &&
          array.getNumElements() == 0)
        global.setLinkage(LLVM::Linkage::External);
    }
  }
};

} // namespace
