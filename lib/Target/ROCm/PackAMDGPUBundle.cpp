//===----------------------------------------------------------------------===//
// gpumem-pack-amdgpu-bundle: one clang offload bundle for a gpu.binary made
// for several AMD chips.
//
// Algorithm, per gpu.binary with HSA code objects (`bin` objects of a
// #rocdl.target) for more than one chip, after
// gpumem-link-hsa-code-objects:
//  1. The bundle gets an empty host entry, then one
//     `hipv4-amdgcn-amd-amdhsa--<chip>` entry per code object, in the
//     binary's order (gpumem-attach-rocdl-target's, oldest chip first),
//     written as clang-offload-bundler writes them (OffloadBundle.h).
//  2. The bundle is appended as a `fatbin` object of the last chip's
//     target, and #gpu.select_object embeds it; the code objects stay for
//     the register report and gpumem-objects.
// The rocm runtime picks the entry of its device's chip; HIP would too.
//===----------------------------------------------------------------------===//

#include "CodeObjects.h"

#include "gpumem/Runtime/OffloadBundle.h"
#include "gpumem/Target/ROCm/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMPACKAMDGPUBUNDLEPASS
#include "gpumem/Target/ROCm/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct PackAMDGPUBundlePass
    : gpumem::impl::GPUMemPackAMDGPUBundlePassBase<PackAMDGPUBundlePass> {
  void runOnOperation() override;
};

void PackAMDGPUBundlePass::runOnOperation() {
  MLIRContext *context = &getContext();
  getOperation().walk([&](gpu::BinaryOp binary) {
    SmallVector<gpumem::rocm::CodeObject> codeObjects =
        gpumem::rocm::getCodeObjects(binary);
    if (codeObjects.size() < 2)
      return;
    // The entries point into the ids, which therefore never move.
    std::vector<std::string> ids;
    ids.reserve(codeObjects.size());
    std::vector<gpumem::bundle::Entry> entries = {
        {gpumem::bundle::kHostId, ""}};
    for (const gpumem::rocm::CodeObject &code : codeObjects) {
      ids.push_back(std::string(gpumem::bundle::kAMDGPUPrefix) +
                    code.target.getChip().str());
      entries.push_back({ids.back(), code.object.getObject().getValue()});
    }
    SmallVector<Attribute> objects(binary.getObjects().getValue());
    objects.push_back(gpu::ObjectAttr::get(
        context, codeObjects.back().target, gpu::CompilationTarget::Fatbin,
        StringAttr::get(context, gpumem::bundle::write(entries)), nullptr,
        nullptr));
    binary.setObjectsAttr(ArrayAttr::get(context, objects));
    OpBuilder builder(binary);
    binary.setOffloadingHandlerAttr(gpu::SelectObjectAttr::get(
        context, builder.getI32IntegerAttr(objects.size() - 1)));
  });
}

} // namespace
