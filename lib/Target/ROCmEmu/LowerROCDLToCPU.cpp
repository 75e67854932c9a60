//===----------------------------------------------------------------------===//
// gpumem-lower-rocdl-to-cpu: the rocm-emu target's device lowering. It takes
// a gpu.module as the rocm pipeline hands it to the AMDGPU backend (LLVM
// dialect with ROCDL ops) and makes it host code for the CPU runtime, with
// AMDGPU's semantics.
//
// The module-level work (LDS laid out as the backend lays out its globals,
// the thread context argument, coroutine kernels, address spaces, the
// kernel table) is the host-kernel layer's lowerDeviceModuleToHost
// (../HostKernel/DeviceModuleToHost.cpp). This pass describes ROCDL to it:
//  - the chip and its wavefront size come from the module's #rocdl.target
//    (the wave32 flag or feature, else the chip's default), its LDS per
//    workgroup from the AMD chip table;
//  - what is refused: ROCDL ops without a lowering here, inline AMDGPU
//    assembly, other llvm.amdgcn intrinsics, private (scratch) globals,
//    and dynamic-size allocas outside private memory, which the AMDGPU
//    backend cannot select;
//  - ocml's __ocml_* math functions become libm's (OCMLFunctions.cpp);
//  - ROCDL ops become context loads and runtime services (ROCDLOps.cpp,
//    ROCDLWarpOps.cpp); rocdl.barrier and rocdl.s.barrier are workgroup
//    barriers, the cross-lane ops wait for their wavefront;
//  - llvm.amdgcn.dispatch.ptr points to an HSA dispatch packet filled from
//    the thread context (DispatchPacket.cpp), and LDS addresses are offsets
//    in the block's arena, as on the GPU;
//  - a kernel's rocdl.reqd_work_group_size is its known block size, its
//    rocdl.flat_work_group_size's upper bound its max_threads (256, the
//    ROCDL translation's default, when it has none).
//===----------------------------------------------------------------------===//

#include "ROCDLToCPU.h"

#include "../HostKernel/DeviceModuleToHost.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Support/AMDGPUTarget.h"
#include "gpumem/Target/ROCmEmu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Matchers.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERROCDLTOCPUPASS
#include "gpumem/Target/ROCmEmu/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem::rocmemu;

namespace {

/// AMDGPU's address space of private (scratch) memory.
constexpr unsigned kPrivateAddressSpace = 5;

/// rocm-emu's refusals (DeviceDialect::checkOp).
LogicalResult checkROCDLOp(Operation *op) {
  if (isa<ROCDL::ROCDLDialect>(op->getDialect()) && !isSupportedROCDLOp(op))
    return op->emitOpError()
           << "has no lowering on the rocm-emu target, which runs the ROCDL "
              "form of kernels on the CPU";
  if (isa<LLVM::InlineAsmOp>(op))
    return op->emitOpError()
           << "(inline AMDGPU assembly) cannot run on the rocm-emu target";
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
    StringRef name = intrinsic.getIntrin();
    if (name.starts_with("llvm.amdgcn.") && !isDispatchPacketIntrinsic(name))
      return op->emitOpError() << "calls '" << name
                               << "', which has no lowering on the rocm-emu "
                                  "target";
  }
  // The AMDGPU backend cannot select a dynamic-size alloca outside private
  // memory (dynamic_stackalloc): the rocm target fails there
  // (gpumem-private-allocas-for-rocdl puts kernels' allocas in it).
  if (auto alloca = dyn_cast<LLVM::AllocaOp>(op))
    if (alloca.getType().getAddressSpace() != kPrivateAddressSpace &&
        !matchPattern(alloca.getArraySize(), m_Constant()))
      return op->emitOpError()
             << "of a dynamic size in address space "
             << alloca.getType().getAddressSpace()
             << " cannot run on the rocm-emu target: the AMDGPU backend "
                "allocates only private memory (address space 5) at run "
                "time";
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    if (global.getAddrSpace() == kPrivateAddressSpace)
      return op->emitOpError()
             << "is a private (scratch) variable, which the rocm-emu target "
                "does not support";
  return success();
}

/// The flat workgroup size the ROCDL translation gives a kernel without
/// one: the AMDGPU backend compiles it for at most these many work-items,
/// and HIP refuses larger launches.
constexpr int32_t kDefaultFlatWorkGroupSize = 256;

/// The launch limits a kernel's ROCDL attributes state: the workgroup size
/// it requires, and the upper bound of its flat workgroup size ("1,256",
/// else the translation's default).
void readROCDLLaunchLimits(LLVM::LLVMFuncOp kernel,
                           gpumem::hostkernel::KernelTableEntry &entry) {
  entry.maxThreads = kDefaultFlatWorkGroupSize;
  if (auto required = kernel->getAttrOfType<DenseI32ArrayAttr>(
          ROCDL::ROCDLDialect::getReqdWorkGroupSizeAttrName())) {
    SmallVector<int32_t, 3> sizes(required.asArrayRef());
    if (!sizes.empty() && sizes.size() <= 3) {
      sizes.resize(3, 1);
      entry.knownBlockSize = {sizes[0], sizes[1], sizes[2]};
    }
  }
  if (auto flat = kernel->getAttrOfType<StringAttr>(
          ROCDL::ROCDLDialect::getFlatWorkGroupSizeAttrName())) {
    int32_t most = 0;
    if (!flat.getValue().split(',').second.trim().getAsInteger(10, most) &&
        most > 0)
      entry.maxThreads = most;
  }
}

/// The wavefront size the module's target compiles for.
unsigned wavefrontSize(ROCDL::ROCDLTargetAttr target,
                       const gpumem::AMDGPUChip *chip) {
  if (DictionaryAttr flags = target.getFlags())
    if (flags.get("no_wave64"))
      return 32;
  StringRef features = target.getFeatures();
  if (features.contains("+wavefrontsize32"))
    return 32;
  if (features.contains("+wavefrontsize64"))
    return 64;
  return chip ? chip->defaultWavefrontSize : 64;
}

struct LowerROCDLToCPUPass
    : gpumem::impl::GPUMemLowerROCDLToCPUPassBase<LowerROCDLToCPUPass> {
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    gpumem::hostkernel::DeviceDialect rocdl;
    rocdl.targetName = "rocm-emu";
    rocdl.kernelAttrName = ROCDL::ROCDLDialect::getKernelFuncAttrName().str();
    rocdl.attributePrefix = "rocdl.";
    rocdl.sharedAddressSpace = 3;
    rocdl.chip = "gfx90a";
    ROCDL::ROCDLTargetAttr target;
    if (ArrayAttr targets = module.getTargetsAttr())
      for (Attribute attr : targets)
        if (auto rocdlTarget = dyn_cast<ROCDL::ROCDLTargetAttr>(attr))
          target = rocdlTarget;
    if (target)
      rocdl.chip = target.getChip().str();
    const gpumem::AMDGPUChip *chip = gpumem::lookupAMDGPUChip(rocdl.chip);
    if (!chip) {
      module.emitOpError() << "targets chip '" << rocdl.chip
                           << "', which the rocm-emu target does not know; "
                              "it knows "
                           << gpumem::listAMDGPUChips();
      return signalPassFailure();
    }
    rocdl.limits.maxSharedBytesPerBlock = chip->ldsBytesPerWorkgroup;
    rocdl.limits.warpSize =
        target ? wavefrontSize(target, chip) : chip->defaultWavefrontSize;
    // Waves a compute unit holds: 4 SIMDs of 8 (gfx90a) to 16 waves; the
    // occupancy report, not the lowering, needs the exact figure.
    rocdl.limits.maxWarpsPerSM = 32;
    rocdl.isSynchronizing = isSynchronizingROCDLOp;
    rocdl.isBlockBarrier = isBlockBarrierROCDLOp;
    rocdl.checkOp = checkROCDLOp;
    rocdl.mapLibraryCalls = mapOCMLCalls;
    rocdl.defineLibraryHelpers = defineOCMLHelpers;
    rocdl.populatePatterns =
        [](RewritePatternSet &patterns,
           gpumem::hostkernel::DeviceFunctionState &state) {
          populateROCDLToCPUPatterns(patterns, state);
          populateDispatchPacketPatterns(patterns, state);
        };
    // LDS addresses are 32-bit offsets on AMD GPUs, and the rocm target's
    // code computes with them (the dynamic LDS size).
    rocdl.sharedPointersAreOffsets = true;
    // A cross-lane op runs over the lanes that reach it, as over EXEC on
    // a GPU: the lanes of a wavefront that took the branch it is in.
    rocdl.warpOpsOverActiveLanes = true;
    rocdl.readLaunchLimits = readROCDLLaunchLimits;
    if (failed(gpumem::hostkernel::lowerDeviceModuleToHost(
            module, rocdl, coroutines, sanitize.getValue().flags)))
      return signalPassFailure();
    // gpumem-attach-cpu-target gives the module the host target.
    module.removeTargetsAttr();
  }
};

} // namespace
