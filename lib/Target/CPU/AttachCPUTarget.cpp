//===----------------------------------------------------------------------===//
// gpumem-attach-cpu-target: every gpu.module without a target gets
// #gpumem.cpu, so gpu-module-to-binary compiles it for the host; one made
// for another GPU is refused (gpumem/Transforms/ModuleTargets.h).
//===----------------------------------------------------------------------===//

#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Support/HostCPU.h"
#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Target/CPU/Target.h"
#include "gpumem/Transforms/ModuleTargets.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMATTACHCPUTARGETPASS
#include "gpumem/Target/CPU/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct AttachCPUTargetPass
    : gpumem::impl::GPUMemAttachCPUTargetPassBase<AttachCPUTargetPass> {
  using Base::Base;

  /// The attribute this pass attaches serializes through an external model:
  /// every pipeline that attaches it can also serialize it.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    gpumem::registerCPUTargetInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    if (optLevel > 3) {
      emitError(getOperation().getLoc()) << "opt-level " << optLevel.getValue()
                                         << " is out of range; expected 0 to 3";
      return signalPassFailure();
    }
    if (!gpumem::isKnownHostCPU(cpu)) {
      emitError(getOperation().getLoc())
          << "unknown cpu '" << cpu.getValue()
          << "' for this machine's target; for example x86-64, or empty for "
             "this machine's CPU";
      return signalPassFailure();
    }
    auto target = gpumem::CPUTargetAttr::get(&getContext(), optLevel, cpu, "");
    if (failed(gpumem::attachOwnTarget(getOperation(), target, "cpu")))
      signalPassFailure();
  }
};

} // namespace
