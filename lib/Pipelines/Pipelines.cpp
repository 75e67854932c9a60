//===----------------------------------------------------------------------===//
// gpumem's pipelines. All share the front (workgroup hoisting before and
// after outlining) and the host side (structural lowering, gpu-to-llvm,
// gpu-module-to-binary); they differ in the target attached and in how
// gpu.module is lowered:
//   cuda:     checked NVVM target, then upstream's NVVM device lowering;
//   cuda-emu: the cuda target's device lowering unchanged, then
//             gpumem-lower-nvvm-to-cpu and #gpumem.cpu;
//   rocm:     checked ROCDL target, then upstream's ROCDL device lowering
//             around gpumem's AMD passes, HSA code objects linked by ld.lld;
//   rocm-emu: the rocm target's device lowering unchanged, then
//             gpumem-lower-rocdl-to-cpu and #gpumem.cpu;
//   cpu:      #gpumem.cpu, then gpumem's CPU kernel ABI lowering;
//   vulkan:   #gpumem.vulkan, then gpumem's SPIR-V conversion with its
//             Vulkan kernel ABI, nested in the gpu.module, serialized and
//             validated before any host pass runs.
// Device and host are lowered by separate pass managers so that host passes
// never see device types. The steps they share are in PipelineSteps.cpp,
// each target's pipelines in a file of their own (NVIDIAPipelines.cpp,
// AMDGPUPipelines.cpp, CPUPipeline.cpp, VulkanPipeline.cpp); this file
// registers them.
//===----------------------------------------------------------------------===//

#include "gpumem/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void gpumem::registerGPUMemPipelines() {
  PassPipelineRegistration<CudaPipelineOptions>(
      "gpumem-cuda-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "NVIDIA binary, with real shared memory for workgroup allocations",
      buildCudaPipeline);
  PassPipelineRegistration<CudaEmuPipelineOptions>(
      "gpumem-cuda-emu-pipeline",
      "Lower a module with gpu.launch or gpu.module as gpumem-cuda-pipeline "
      "does, then run the NVVM form of the kernels on CPU cores with PTX "
      "semantics (libgpumem_cpu_runtime.so)",
      buildCudaEmuPipeline);
  PassPipelineRegistration<ROCmPipelineOptions>(
      "gpumem-rocm-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with embedded "
      "AMDGPU assembly, workgroup memory in LDS",
      buildROCmPipeline);
  PassPipelineRegistration<ROCmEmuPipelineOptions>(
      "gpumem-rocm-emu-pipeline",
      "Lower a module with gpu.launch or gpu.module as gpumem-rocm-pipeline "
      "does, then run the ROCDL form of the kernels on CPU cores with AMDGPU "
      "semantics (libgpumem_cpu_runtime.so)",
      buildROCmEmuPipeline);
  PassPipelineRegistration<CpuPipelineOptions>(
      "gpumem-cpu-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "host shared object that libgpumem_cpu_runtime.so runs on CPU cores",
      buildCpuPipeline);
  PassPipelineRegistration<VulkanPipelineOptions>(
      "gpumem-vulkan-pipeline",
      "Lower a module with gpu.launch or gpu.module to LLVM with an embedded "
      "SPIR-V image that libgpumem_vulkan_runtime.so runs on any Vulkan "
      "device",
      buildVulkanPipeline);
}
