//===----------------------------------------------------------------------===//
// gpumem-attach-vulkan-target: every gpu.module without a target gets
// #gpumem.vulkan (one made for another GPU is refused:
// gpumem/Transforms/ModuleTargets.h), and every one without a
// spirv.target_env the one upstream's SPIR-V conversions read (version,
// capabilities, extensions, limits), built from the options. Device code
// of NVIDIA's or AMD's dialects and tensor-core fragments are refused at
// their op.
// Index constants and scf.index_switch cases in its kernels must fit the
// shaders' 32-bit index: upstream's conversion fails on one that does not,
// without a location once greedy rewrites have moved the constant.
//===----------------------------------------------------------------------===//

#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"
#include "gpumem/Runtime/Limits.h"
#include "gpumem/Target/Vulkan/Passes.h"
#include "gpumem/Target/Vulkan/Target.h"
#include "gpumem/Transforms/ModuleTargets.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMATTACHVULKANTARGETPASS
#include "gpumem/Target/Vulkan/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// Atomics on 64-bit elements need SPIR-V's Int64Atomics capability
/// (VK_KHR_shader_atomic_int64), which the target environment does not
/// declare: upstream's conversion would emit them anyway and spirv-val
/// refuse the module. Refused at the op instead.
LogicalResult refuseWideAtomics(ModuleOp module) {
  WalkResult result = module.walk([](gpu::GPUModuleOp gpuModule) {
    return gpuModule.walk([](Operation *op) -> WalkResult {
      Value memref;
      if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op))
        memref = rmw.getMemref();
      else if (auto generic = dyn_cast<memref::GenericAtomicRMWOp>(op))
        memref = generic.getMemref();
      if (!memref)
        return WalkResult::advance();
      Type element = cast<MemRefType>(memref.getType()).getElementType();
      if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() <= 32)
        return WalkResult::advance();
      return op->emitOpError()
             << "updates " << element
             << " elements atomically, which needs SPIR-V's Int64Atomics "
                "capability (VK_KHR_shader_atomic_int64); the vulkan target "
                "does not use it yet, the cpu, cuda-emu, rocm-emu, cuda and "
                "rocm targets run it";
    });
  });
  return failure(result.wasInterrupted());
}

/// What a Vulkan 1.1 compute device with 64-bit types, 8-bit integers and
/// subgroup operations offers; spirv-update-vce keeps what a module uses,
/// and the runtime refuses a module that needs what its device lacks.
constexpr const char *kCapabilities =
    "Shader, Int64, Float64, Int16, Int8, StorageBuffer8BitAccess, "
    "GroupNonUniform, GroupNonUniformVote, "
    "GroupNonUniformBallot, GroupNonUniformShuffle, "
    "GroupNonUniformShuffleRelative, GroupNonUniformArithmetic";
constexpr const char *kExtensions =
    "SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage";

/// Reports each index constant and scf.index_switch case in `module` whose
/// value the shaders' 32-bit index cannot hold (upstream's conversion takes
/// a value that fits 32 bits unsigned or signed); returns whether there was
/// one.
bool checkIndexConstants(gpu::GPUModuleOp module) {
  bool failed = false;
  module.walk([&](Operation *op) {
    SmallVector<APInt> values;
    StringRef what = "index value";
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (!getElementTypeOrSelf(constant.getType()).isIndex())
        return;
      if (auto integer = dyn_cast<IntegerAttr>(constant.getValue()))
        values.push_back(integer.getValue());
      else if (auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue()))
        llvm::append_range(values, dense.getValues<APInt>());
    } else if (auto indexSwitch = dyn_cast<scf::IndexSwitchOp>(op)) {
      what = "case";
      for (int64_t value : indexSwitch.getCases())
        values.push_back(APInt(64, value, /*isSigned=*/true));
    }
    for (const APInt &value : values) {
      if (value.isIntN(32) || value.isSignedIntN(32))
        continue;
      op->emitOpError() << "has " << what << " " << value.getSExtValue()
                        << ", which does not fit the 32-bit index of a "
                           "vulkan shader";
      failed = true;
      return;
    }
  });
  return failed;
}

struct AttachVulkanTargetPass
    : gpumem::impl::GPUMemAttachVulkanTargetPassBase<AttachVulkanTargetPass> {
  using Base::Base;

  /// The attribute this pass attaches serializes through an external model:
  /// every pipeline that attaches it can also serialize it.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    gpumem::registerVulkanTargetInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    static const char *versions[] = {"1.0", "1.1", "1.2", "1.3",
                                     "1.4", "1.5", "1.6"};
    if (!llvm::is_contained(versions, StringRef(spirvVersion))) {
      emitError(getOperation().getLoc())
          << "unknown spirv-version '" << spirvVersion.getValue()
          << "'; expected 1.0 to 1.6";
      return signalPassFailure();
    }
    if (!llvm::isPowerOf2_32(subgroupSize) ||
        subgroupSize > GPUMEM_MAX_SUBGROUP_SIZE) {
      emitError(getOperation().getLoc())
          << "subgroup-size " << subgroupSize.getValue()
          << " is not a power of two from 1 to " << GPUMEM_MAX_SUBGROUP_SIZE;
      return signalPassFailure();
    }
    if (maxSharedMemory < 16384) {
      emitError(getOperation().getLoc())
          << "max-shared-memory " << maxSharedMemory.getValue()
          << " is below Vulkan's minimum of 16384 bytes";
      return signalPassFailure();
    }
    std::string text = llvm::formatv(
        "#spirv.target_env<#spirv.vce<v{0}, [{1}], [{2}]>, api=Vulkan, "
        "#spirv.resource_limits<max_compute_shared_memory_size = {3}, "
        "max_compute_workgroup_invocations = {5}, "
        "max_compute_workgroup_size = [{6}, {7}, {8}], "
        "subgroup_size = {4}>>",
        spirvVersion.getValue(), kCapabilities, kExtensions,
        maxSharedMemory.getValue(), subgroupSize.getValue(),
        GPUMEM_MAX_THREADS_PER_BLOCK, GPUMEM_MAX_BLOCK_DIM_X,
        GPUMEM_MAX_BLOCK_DIM_Y, GPUMEM_MAX_BLOCK_DIM_Z);
    Attribute targetEnv = parseAttribute(text, &getContext());
    if (!targetEnv) {
      emitError(getOperation().getLoc())
          << "cannot build the SPIR-V target environment " << text;
      return signalPassFailure();
    }
    auto target = gpumem::VulkanTargetAttr::get(&getContext());
    if (failed(gpumem::attachOwnTarget(getOperation(), target, "vulkan")))
      return signalPassFailure();
    // Device code of one vendor's GPU, and tensor-core fragments, which
    // SPIR-V reaches through VK_KHR_cooperative_matrix only.
    if (failed(gpumem::refuseForeignDeviceCode(
            getOperation(), {"nvvm", "nvgpu"}, "NVIDIA", "vulkan")) ||
        failed(gpumem::refuseForeignDeviceCode(
            getOperation(), {"rocdl", "amdgpu"}, "AMD", "vulkan")) ||
        failed(gpumem::refuseTensorCoreFragments(
            getOperation(), "vulkan",
            "SPIR-V has them only as cooperative matrices "
            "(VK_KHR_cooperative_matrix), which the vulkan target does not "
            "use and Mesa's lavapipe does not have")) ||
        failed(refuseWideAtomics(getOperation())))
      return signalPassFailure();
    bool indexErrors = false;
    getOperation().walk([&](gpu::GPUModuleOp module) {
      if (module->hasAttr(spirv::getTargetEnvAttrName()))
        return;
      module->setAttr(spirv::getTargetEnvAttrName(), targetEnv);
      indexErrors |= checkIndexConstants(module);
    });
    if (indexErrors)
      signalPassFailure();
  }
};

} // namespace
