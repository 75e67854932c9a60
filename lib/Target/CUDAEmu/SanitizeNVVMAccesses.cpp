//===----------------------------------------------------------------------===//
// gpumem-sanitize-nvvm-accesses: --sanitize on the cuda-emu target.
//
// cuda-emu kernels are LLVM dialect with pointers, so checks go by address,
// as compute-sanitizer's do: the host-kernel layer's
// instrumentAccessesByAddress (../HostKernel/SanitizeAccesses.cpp), which
// rocm-emu shares, calls the runtime's addressAccess service before each
// load, store and atomic of the code gpumem-lower-nvvm-to-cpu made; the
// runtime tells shared memory, device allocations, their redzones and freed
// memory apart and reports out-of-bounds accesses, use after free, races
// and uninitialized reads. (gpumem-lower-nvvm-to-cpu records the checks in
// the kernel table.)
//===----------------------------------------------------------------------===//

#include "../HostKernel/SanitizeAccesses.h"

#include "gpumem/Target/CUDAEmu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMSANITIZENVVMACCESSESPASS
#include "gpumem/Target/CUDAEmu/Passes.h.inc"
} // namespace gpumem

namespace {

struct SanitizeNVVMAccessesPass
    : gpumem::impl::GPUMemSanitizeNVVMAccessesPassBase<
          SanitizeNVVMAccessesPass> {
  using Base::Base;

  void runOnOperation() override {
    gpumem::hostkernel::instrumentAccessesByAddress(getOperation(),
                                                    checks.getValue().flags);
  }
};

} // namespace
