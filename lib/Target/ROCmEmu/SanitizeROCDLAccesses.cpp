//===----------------------------------------------------------------------===//
// gpumem-sanitize-rocdl-accesses: --sanitize on the rocm-emu target.
//
// After gpumem-lower-rocdl-to-cpu a kernel's LDS accesses go to the
// block's arena and its global accesses to device memory, by host address,
// as on cuda-emu: the host-kernel layer's instrumentAccessesByAddress
// (../HostKernel/SanitizeAccesses.cpp) calls the runtime's addressAccess
// service before each load, store and atomic, which reports out-of-bounds
// accesses, use after free, races and uninitialized reads with the same
// text as on cuda-emu. gpumem-lower-rocdl-to-cpu records the checks in the
// kernel table (synccheck, device memory shadows).
//===----------------------------------------------------------------------===//

#include "../HostKernel/SanitizeAccesses.h"

#include "gpumem/Target/ROCmEmu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMSANITIZEROCDLACCESSESPASS
#include "gpumem/Target/ROCmEmu/Passes.h.inc"
} // namespace gpumem

namespace {

struct SanitizeROCDLAccessesPass
    : gpumem::impl::GPUMemSanitizeROCDLAccessesPassBase<
          SanitizeROCDLAccessesPass> {
  using Base::Base;

  void runOnOperation() override {
    gpumem::hostkernel::instrumentAccessesByAddress(getOperation(),
                                                    checks.getValue().flags);
  }
};

} // namespace
