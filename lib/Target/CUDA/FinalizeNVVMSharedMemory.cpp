//===----------------------------------------------------------------------===//
// gpumem-finalize-nvvm-shared-memory: the workgroup (address space 3)
// globals of an NVVM-lowered gpu.module, fixed up in one walk:
//  - a zero-size one (gpu.dynamic_shared_memory) gets external linkage,
//    which the NVPTX backend prints as `.extern .shared ... name[]`: dynamic
//    shared memory after all static shared memory, as CUDA's
//    `extern __shared__`. Internal linkage made ptxas allocate one static
//    byte there, overlapping the dynamic data with static buffers;
//  - every one is aligned to at least 16 bytes (vector accesses), and the
//    dynamic one to what the gpu.module's buffers and views in dynamic
//    shared memory ask for (getDynamicSharedAlignment).
//===----------------------------------------------------------------------===//

#include "gpumem/Target/CUDA/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMFINALIZENVVMSHAREDMEMORYPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// NVVM's number for workgroup (shared) memory.
constexpr unsigned kSharedAddressSpace = 3;

struct FinalizeNVVMSharedMemoryPass
    : gpumem::impl::GPUMemFinalizeNVVMSharedMemoryPassBase<
          FinalizeNVVMSharedMemoryPass> {
  void runOnOperation() override {
    gpumem::finalizeSharedGlobals(getOperation(), kSharedAddressSpace);
  }
};

} // namespace
