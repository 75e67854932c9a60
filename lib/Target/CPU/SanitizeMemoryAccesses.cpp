//===----------------------------------------------------------------------===//
// --sanitize: the memref accesses of a gpu.module instrumented for the
// runtime's checks (bounds, races, uninitialized reads), by the
// instrumentation every target whose kernels run on host cores shares
// (../HostKernel/SanitizeMemRefAccesses.cpp has the algorithm).
//
// On the cpu target it runs after gpumem-lower-gpu-to-cpu-abi, where every
// function takes the thread context last and the services are called
// through it; there, too, before the launch wrappers call a kernel (once
// per call of run_blocks, which the runtime calls per block for kernels
// with racecheck or initcheck, per chunk of blocks otherwise), the aligned
// pointer of each memref argument goes to services->argumentCheck, which
// reports one that points into device memory already freed; with memcheck, each
// block whose accesses are provably inside their memrefs runs a copy of the
// kernel without bounds checks (VersionBoundsChecks.cpp). With
// before-device-lowering (cuda-emu, rocm-emu) it runs before the NVVM or ROCDL
// lowering and calls functions that the lowering to host code binds to the same
// services.
//===----------------------------------------------------------------------===//

#include "../HostKernel/HostCode.h"
#include "../HostKernel/KernelTable.h"
#include "../HostKernel/SanitizeMemRefAccesses.h"
#include "VersionBoundsChecks.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Target/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cstddef>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMSANITIZEMEMORYACCESSESPASS
#include "gpumem/Target/CPU/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem;

namespace {

struct SanitizeMemoryAccessesPass
    : gpumem::impl::GPUMemSanitizeMemoryAccessesPassBase<
          SanitizeMemoryAccessesPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    int32_t parsed = checks.getValue().flags;
    if (beforeDeviceLowering) {
      hostkernel::instrumentMemRefAccesses(
          module, parsed, hostkernel::SanitizerCalls::ThroughFunctions);
      return;
    }
    hostkernel::recordSanitizerChecks(module, parsed);
    // The argument checks first: they are made once per kernel call that
    // the wrappers had before versioning.
    if (parsed & GPUMEM_CHECK_MEMCHECK) {
      checkArguments(module);
      if (versionBlocks)
        cpu::versionBoundsChecks(module);
    }
    hostkernel::instrumentMemRefAccesses(
        module, parsed, hostkernel::SanitizerCalls::ThroughContext);
  }

  /// Where the launch wrappers (run_blocks, run_thread) call a kernel, they
  /// first hand the runtime the aligned pointer of each memref argument
  /// (services->argumentCheck), which finds freed device memory: once per
  /// call of run_blocks, outside its loops, and never inside the
  /// kernel, whose inlining into that loop it would prevent.
  void checkArguments(gpu::GPUModuleOp module) {
    SmallVector<func::CallOp> calls;
    for (auto wrapper : module.getOps<func::FuncOp>()) {
      if (!wrapper.getName().starts_with("__gpumem_run_") ||
          wrapper.isExternal())
        continue;
      wrapper.walk([&](func::CallOp call) {
        if (call.getCallee().starts_with("__gpumem_kernel_"))
          calls.push_back(call);
      });
    }
    for (func::CallOp call : calls)
      checkArguments(call, module);
  }

  void checkArguments(func::CallOp call, gpu::GPUModuleOp module) {
    Block &entry = call->getParentOfType<func::FuncOp>().front();
    if (call.getNumOperands() == 0 ||
        !isa<LLVM::LLVMPointerType>(call.getOperands().back().getType()))
      return;
    Value context = call.getOperands().back();
    // Right before the op of the wrapper's entry block that holds the call
    // (its thread loop, or the call itself); the arguments are defined
    // before it.
    Operation *outermost = call;
    while (outermost->getBlock() != &entry)
      outermost = outermost->getParentOp();
    OpBuilder builder(outermost);
    auto kernel = module.lookupSymbol<func::FuncOp>(call.getCallee());
    Location loc = kernel ? kernel.getLoc() : call.getLoc();
    auto i64 = builder.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
    Value where = nullptr;
    for (auto [number, argument] : llvm::enumerate(call.getOperands())) {
      // Only arguments defined before the check (all of them, as the
      // wrappers are built).
      Operation *def = argument.getDefiningOp();
      bool available =
          def ? def->getBlock() == &entry && def->isBeforeInBlock(outermost)
              : cast<BlockArgument>(argument).getOwner() == &entry;
      if (!isa<MemRefType>(argument.getType()) || !available)
        continue;
      if (!where)
        where = hostkernel::getLocationString(builder, loc, module);
      Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(
          builder, loc, argument);
      Value integer = arith::IndexCastOp::create(builder, loc, i64, aligned);
      Value pointer = LLVM::IntToPtrOp::create(builder, loc, ptr, integer);
      Value index = arith::ConstantIntOp::create(builder, loc, i64, number);
      hostkernel::ContextAccess(builder, loc, context)
          .call(GPUMEM_RUNTIME_SERVICE(argumentCheck),
                {context, pointer, index, where});
    }
  }
};

} // namespace
