//===----------------------------------------------------------------------===//
// gpumem-finalize-rocdl-kernels: the LDS globals and kernels of a
// ROCDL-lowered gpu.module, fixed up in one walk:
//  - a zero-size LDS (address space 3) global (gpu.dynamic_shared_memory)
//    gets external linkage, HIP's `extern __shared__`: the AMDGPU backend
//    places it after all static LDS and counts only the static bytes in the
//    kernel descriptor, the launch giving the rest;
//  - every LDS global is aligned to at least 16 bytes (vector accesses),
//    the dynamic one to what the gpu.module's views in dynamic shared
//    memory ask for (getDynamicSharedAlignment);
//  - a kernel with no `rocdl.flat_work_group_size` gets "1,1024": the
//    ROCDL translation would give it "1,256", and the backend compiles for
//    at most that many threads, so a larger launch would fail; one with
//    sizes the backend cannot read is an error at the kernel;
//  - an alloca in LDS (address space 3), or one cast to it, is an error:
//    the backend puts every alloca in private (address space 5) scratch,
//    which is not shared between threads.
//===----------------------------------------------------------------------===//

#include "gpumem/Target/ROCm/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMFINALIZEROCDLKERNELSPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// AMDGPU's numbers for LDS and private (scratch) memory.
constexpr unsigned kLDSAddressSpace = 3;
constexpr unsigned kPrivateAddressSpace = 5;
/// The most threads a HIP workgroup may have.
constexpr llvm::StringLiteral kAnyWorkgroupSize = "1,1024";

struct FinalizeROCDLKernelsPass
    : gpumem::impl::GPUMemFinalizeROCDLKernelsPassBase<
          FinalizeROCDLKernelsPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    gpumem::finalizeSharedGlobals(module, kLDSAddressSpace);

    auto *rocdl = getContext().getLoadedDialect<ROCDL::ROCDLDialect>();
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      if (!rocdl->getKernelAttrHelper().isAttrPresent(func))
        continue;
      auto flat = rocdl->getFlatWorkGroupSizeAttrHelper();
      if (!flat.isAttrPresent(func)) {
        flat.setAttr(func, StringAttr::get(&getContext(), kAnyWorkgroupSize));
        continue;
      }
      // The backend reads "min,max" itself and reports a bad one without a
      // location.
      StringRef sizes = flat.getAttr(func).getValue();
      auto [first, second] = sizes.split(',');
      unsigned least = 0, most = 0;
      if (first.trim().getAsInteger(10, least) ||
          second.trim().getAsInteger(10, most) || least < 1 || least > most ||
          most > 1024) {
        func.emitOpError() << "has rocdl.flat_work_group_size \"" << sizes
                           << "\"; AMD GPUs take \"min,max\" with 1 <= min "
                              "<= max <= 1024";
        return signalPassFailure();
      }
    }

    WalkResult result = module.walk([](Operation *op) {
      auto isLDS = [](Type type) {
        auto ptr = dyn_cast<LLVM::LLVMPointerType>(type);
        return ptr && ptr.getAddressSpace() == kLDSAddressSpace;
      };
      bool privateLDS = false;
      if (auto alloca = dyn_cast<LLVM::AllocaOp>(op))
        privateLDS = isLDS(alloca.getType());
      else if (auto cast = dyn_cast<LLVM::AddrSpaceCastOp>(op))
        privateLDS = isLDS(cast.getType()) &&
                     cast.getArg().getDefiningOp<LLVM::AllocaOp>();
      if (!privateLDS)
        return WalkResult::advance();
      op->emitOpError() << "makes workgroup memory of a stack allocation, "
                           "which AMD GPUs place in private (address space "
                        << kPrivateAddressSpace
                        << ") scratch memory, one copy per thread";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
