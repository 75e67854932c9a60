//===----------------------------------------------------------------------===//
// gpumem-vulkan-pipeline: #gpumem.vulkan, then gpumem's SPIR-V conversion
// with its Vulkan kernel ABI, nested in the gpu.module, serialized and
// validated before any host pass runs.
//===----------------------------------------------------------------------===//

#include "PipelineSteps.h"
#include "gpumem/Target/Vulkan/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"

using namespace mlir;
using namespace gpumem::pipelines;

void gpumem::buildVulkanPipeline(OpPassManager &pm,
                                 const VulkanPipelineOptions &options) {
  addHostBuffersToDevice(pm, options.hostBuffers);
  // gpu.all_reduce stays for the vulkan target's own lowering, after device
  // functions are inlined; the other collectives assume the subgroup size
  // the target is compiled for, which the runtime checks at launch.
  // Constants are sunk into the kernels, so that sizes the host wrote as
  // constants (a private alloca's, say) are static in the shader, where
  // SPIR-V needs them.
  // Logical SPIR-V cannot view one workgroup array as another type: only
  // buffers of one type share bytes there.
  gpumem::GPUMemPlanWorkgroupMemoryPassOptions plan =
      getPlanOptions(options, "vulkan", "", options.maxSharedMemory);
  plan.byteViews = false;
  addOutliningWithHoisting(pm, options.dynamicSharedBoundsChecks, plan,
                           /*lowerAllReduce=*/false, /*sinkConstants=*/true,
                           /*recordMemoryCalls=*/false, options.subgroupSize);
  GPUMemAttachVulkanTargetPassOptions target;
  target.spirvVersion = options.spirvVersion;
  target.subgroupSize = options.subgroupSize;
  target.maxSharedMemory = options.maxSharedMemory;
  pm.addPass(createGPUMemAttachVulkanTargetPass(target));
  // Shaders need structured control flow: branches (from math-to-funcs'
  // helpers, say) become scf loops and ifs first.
  pm.addNestedPass<gpu::GPUModuleOp>(createLiftControlFlowToSCFPass());
  GPUMemConvertGPUToVulkanSPIRVPassOptions conversion;
  conversion.checkLoopCompletion = options.checkLoopCompletion;
  pm.addPass(createGPUMemConvertGPUToVulkanSPIRVPass(conversion));
  // (By name: spirv::ModuleOp's header, all of SPIR-V's ops, would double
  // this unit's compile time.)
  OpPassManager &spirvModule = pm.nest<gpu::GPUModuleOp>().nest("spirv.module");
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  // Serialized (and validated) before the host lowering: its rewrites run
  // over the whole module, and a greedy driver that reached into
  // spirv.module would fold and merge blocks there by rules written for
  // other dialects (it once merged the two targets of a conditional
  // branch, which made an scf.if take one branch in every thread).
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget =
      gpumem::stringifyBinaryFormat(gpumem::BinaryFormat::Bin).str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  addHostLowering(pm, gpumem::BinaryFormat::Bin, "");
}
