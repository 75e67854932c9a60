//===----------------------------------------------------------------------===//
// The steps gpumem's pipelines share: the front (checks, hoisting around
// outlining, collectives, the workgroup memory plan), host buffers made
// device-visible, the structured and host lowerings, and the sanitizer's
// memref checks. Private to lib/Pipelines; each target's pipelines
// (NVIDIAPipelines.cpp, AMDGPUPipelines.cpp, CPUPipeline.cpp,
// VulkanPipeline.cpp) put them together.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_PIPELINES_PIPELINESTEPS_H
#define GPUMEM_LIB_PIPELINES_PIPELINESTEPS_H

#include "gpumem/Pipelines/Pipelines.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

namespace gpumem::pipelines {

using mlir::OpPassManager;
using mlir::StringRef;

/// Synchronous memory ops given streams, asynchronous ops one dependency
/// each, launch sizes checked, then workgroup
/// allocations hoisted before and after kernel outlining, collectives
/// rewritten into shuffles, and dynamic-size workgroup allocations packed
/// into dynamic shared memory (after the checks of the user's views, at
/// compile time and, opted in, at run time). Math ops
/// without an LLVM lowering (math.ipowi) become calls to generated functions
/// first, so that outlining clones those into the gpu.module with the kernel.
void addOutliningWithHoisting(
    OpPassManager &pm, bool dynamicSharedBoundsChecks,
    const gpumem::GPUMemPlanWorkgroupMemoryPassOptions &plan,
    bool lowerAllReduce = true, bool sinkConstants = false,
    bool recordMemoryCalls = false, unsigned subgroupSize = 32);

/// Device code no target can lower rejected, then host buffers used by
/// kernels made device-visible in `mode` (nothing for None): the first
/// passes of every pipeline.
void addHostBuffersToDevice(OpPassManager &pm, gpumem::HostBufferMode mode);

/// The lowering steps both sides share before their conversion to LLVM.
void addStructuredLowering(OpPassManager &pm);

/// Host lowering and serialization of the gpu.modules to `format`; with
/// `fatbinOfChips`, modules compiled for several NVIDIA chips become one
/// fatbin each first (gpumem-pack-nvidia-fatbin, with `toolkit`).
void addHostLowering(OpPassManager &pm, gpumem::BinaryFormat format,
                     StringRef toolkit, bool fatbinOfChips = false);

/// --sanitize in host code: memcheck of its memref accesses, and for
/// initcheck of managed memory, the host's writes reported to the runtime.
void addHostSanitizer(OpPassManager &pm, gpumem::SanitizerChecks checks);

/// Canonicalization, CSE and the removal of the last unrealized casts: how
/// every device lowering to LLVM dialect ends.
void addDeviceCleanup(OpPassManager &device);

/// --sanitize's memref checks, before a GPU dialect's lowering (cuda-emu,
/// rocm-emu): the sanitizer sees loads and stores, not transfers, and
/// structured control flow.
void addMemRefSanitizer(OpPassManager &device, gpumem::SanitizerChecks checks);

/// The planner's options from a pipeline's: the report names `target`, and
/// `chip` or else `limit` for the limits.
template <typename Options>
inline gpumem::GPUMemPlanWorkgroupMemoryPassOptions
getPlanOptions(const Options &options, StringRef target, StringRef chip = "",
               uint64_t limit = 0) {
  gpumem::GPUMemPlanWorkgroupMemoryPassOptions plan;
  plan.reuse = options.workgroupReuse;
  plan.report = options.smemReport;
  plan.reportFile = options.smemReportFile;
  plan.svgFile = options.smemSvg;
  plan.targetName = target.str();
  plan.chip = chip.str();
  plan.limit = limit;
  return plan;
}

} // namespace gpumem::pipelines

#endif // GPUMEM_LIB_PIPELINES_PIPELINESTEPS_H
