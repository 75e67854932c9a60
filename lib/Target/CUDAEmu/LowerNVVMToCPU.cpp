//===----------------------------------------------------------------------===//
// gpumem-lower-nvvm-to-cpu: the cuda-emu target's device lowering. It takes
// a gpu.module exactly as the cuda pipeline hands it to the NVPTX backend
// (LLVM dialect with NVVM ops) and makes it host code for the CPU runtime,
// with PTX's semantics.
//
// The module-level work (shared memory laid out as ptxas does, the thread
// context argument, coroutine kernels, address spaces, the kernel table) is
// the host-kernel layer's lowerDeviceModuleToHost
// (../HostKernel/DeviceModuleToHost.cpp). This pass describes NVVM to it:
//  - what is refused: NVVM ops without a lowering here (TMA,
//    barrier.red, redux on floats), inline PTX, other llvm.nvvm
//    intrinsics, .local variables;
//  - libdevice's __nv_* math functions become libm's (NVVMLibdevice.cpp);
//  - NVVM ops become context loads (special registers) and runtime services
//    (bar.sync, shfl/vote/redux/match.sync, the warp-level matrix ops,
//    cp.async and its waits, vprintf, __assertfail) through ctx->services
//    (NVVMOps.cpp, NVVMWarpOps.cpp, NVVMMatrixOps.cpp,
//    NVVMAsyncCopyOps.cpp); fences become host
//    fences; bar.sync and the warp operations wait, barrier0 is a block
//    barrier;
//  - the chip's shared memory per block and %nwarpid come from the NVIDIA
//    chip table; a kernel's .maxntid is its max_threads, its .reqntid its
//    known block size.
//===----------------------------------------------------------------------===//

#include "NVVMToCPU.h"

#include "../HostKernel/DeviceModuleToHost.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CUDAEmu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <algorithm>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMLOWERNVVMTOCPUPASS
#include "gpumem/Target/CUDAEmu/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem::cudaemu;

namespace {

/// Ops that make a kernel need fibers: a thread waits for others there.
bool isSynchronizing(Operation *op) {
  return isa<NVVM::Barrier0Op, NVVM::BarrierOp, NVVM::ShflOp, NVVM::VoteSyncOp,
             NVVM::ReduxOp, NVVM::MatchSyncOp, NVVM::SyncWarpOp>(op) ||
         isMatrixOp(op) || isAsyncCopyOp(op);
}

/// The NVVM ops populateNVVMToCPUPatterns lowers.
bool isSupportedNVVMOp(Operation *op) {
  if (isSynchronizing(op) || isa<NVVM::MembarOp, NVVM::FenceScClusterOp>(op))
    return true;
  return isSpecialRegister(op->getName().getStringRef());
}

/// cuda-emu's refusals (DeviceDialect::checkOp).
LogicalResult checkNVVMOp(Operation *op) {
  if (isMatrixOp(op))
    return checkMatrixOp(op);
  if (isa<NVVM::NVVMDialect>(op->getDialect()) && !isSupportedNVVMOp(op))
    return op->emitOpError()
           << "has no lowering on the cuda-emu target, which runs the NVVM "
              "form of kernels on the CPU";
  if (auto barrier = dyn_cast<NVVM::BarrierOp>(op))
    if (barrier.getReductionOp())
      return op->emitOpError()
             << "with a reduction (barrier.red) has no lowering on the "
                "cuda-emu target";
  if (auto redux = dyn_cast<NVVM::ReduxOp>(op))
    if (!redux.getVal().getType().isInteger(32))
      return op->emitOpError()
             << "on floating-point values has no lowering on the cuda-emu "
                "target";
  if (isa<LLVM::InlineAsmOp>(op))
    return op->emitOpError()
           << "(inline PTX) cannot run on the cuda-emu target";
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
    StringRef name = intrinsic.getIntrin();
    if (name.starts_with("llvm.nvvm.") && !isSpecialRegisterIntrinsic(name))
      return op->emitOpError() << "calls '" << name
                               << "', which has no lowering on the cuda-emu "
                                  "target";
  }
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    if (global.getAddrSpace() == kLocalAddressSpace)
      return op->emitOpError()
             << "is a .local variable, which the cuda-emu target does not "
                "support";
  return success();
}

/// The launch limits CUDA enforces: a kernel's .maxntid as a number of
/// threads, its .reqntid as a size.
void readNVVMLaunchLimits(LLVM::LLVMFuncOp kernel,
                          gpumem::hostkernel::KernelTableEntry &entry) {
  auto dims = [&](StringRef name) {
    SmallVector<int32_t, 3> sizes;
    if (auto attr = kernel->getAttrOfType<DenseI32ArrayAttr>(name))
      llvm::append_range(sizes, attr.asArrayRef());
    return sizes;
  };
  SmallVector<int32_t, 3> most = dims(NVVM::NVVMDialect::getMaxntidAttrName());
  if (!most.empty()) {
    int64_t threads = 1;
    for (int32_t size : most)
      threads *= std::max<int64_t>(size, 1);
    entry.maxThreads = int32_t(std::min<int64_t>(threads, INT32_MAX));
  }
  SmallVector<int32_t, 3> required =
      dims(NVVM::NVVMDialect::getReqntidAttrName());
  if (!required.empty() && required.size() <= 3) {
    required.resize(3, 1);
    entry.knownBlockSize = {required[0], required[1], required[2]};
  }
}

struct LowerNVVMToCPUPass
    : gpumem::impl::GPUMemLowerNVVMToCPUPassBase<LowerNVVMToCPUPass> {
  using Base::Base;
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    gpumem::hostkernel::DeviceDialect nvvm;
    nvvm.targetName = "cuda-emu";
    nvvm.kernelAttrName = NVVM::NVVMDialect::getKernelFuncAttrName().str();
    nvvm.attributePrefix = "nvvm.";
    nvvm.sharedAddressSpace = kSharedAddressSpace;
    // As in PTX, a .shared address as an integer is its offset in the
    // block's shared memory window.
    nvvm.sharedPointersAreOffsets = true;
    nvvm.chip = "sm_90";
    if (ArrayAttr targets = module.getTargetsAttr())
      for (Attribute target : targets)
        if (auto attr = dyn_cast<NVVM::NVVMTargetAttr>(target))
          nvvm.chip = attr.getChip().str();
    const gpumem::NVIDIAChip *info = gpumem::lookupNVIDIAChip(nvvm.chip);
    nvvm.limits.maxSharedBytesPerBlock =
        info ? info->maxSharedBytesPerBlock : GPUMEM_MAX_SHARED_BYTES_PER_BLOCK;
    nvvm.limits.maxWarpsPerSM = maxWarpsPerSM(nvvm.chip);
    nvvm.isSynchronizing = isSynchronizing;
    nvvm.isBlockBarrier = [](Operation *op) {
      return isa<NVVM::Barrier0Op>(op);
    };
    nvvm.checkOp = checkNVVMOp;
    nvvm.mapLibraryCalls = mapLibdeviceCalls;
    nvvm.defineLibraryHelpers = defineLibdeviceHelpers;
    nvvm.populatePatterns = populateNVVMToCPUPatterns;
    nvvm.readLaunchLimits = readNVVMLaunchLimits;
    if (failed(gpumem::hostkernel::lowerDeviceModuleToHost(
            module, nvvm, coroutines, sanitize.getValue().flags)))
      return signalPassFailure();
    // gpumem-attach-cpu-target gives the module the host target.
    module.removeTargetsAttr();
  }
};

} // namespace
