//===----------------------------------------------------------------------===//
// gpumem-move-large-shared-to-dynamic: kernels whose workgroup attributions
// exceed the 48 KiB static shared memory limit get them as views of dynamic
// shared memory instead, and their launches pass the bytes.
//
// Algorithm, per kernel gpu.func of every gpu.module:
//  1. Lay the workgroup attributions out at offsets aligned as
//     getWorkgroupBufferAlignment says (16 bytes or more); stop
//     when the total fits the chip's static limit.
//  2. Over the chip's per-block maximum: an error at the kernel.
//  3. Replace each attribution by a memref.view of gpu.dynamic_shared_memory
//     at its offset (cast to the attribution's memory-space spelling), drop
//     the attributions.
//  4. Every gpu.launch_func of the kernel passes the total as its dynamic
//     shared memory size.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/Support/MathExtras.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMMOVELARGESHAREDTODYNAMICPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

struct MoveLargeSharedToDynamicPass
    : gpumem::impl::GPUMemMoveLargeSharedToDynamicPassBase<
          MoveLargeSharedToDynamicPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Moves `kernel`'s attributions; returns the bytes its launches must
  /// pass, 0 when nothing moved, or failure after an error.
  FailureOr<uint64_t> moveAttributions(gpu::GPUFuncOp kernel,
                                       const gpumem::NVIDIAChip &target);
};

FailureOr<uint64_t>
MoveLargeSharedToDynamicPass::moveAttributions(gpu::GPUFuncOp kernel,
                                               const gpumem::NVIDIAChip &target) {
  DataLayout layout = DataLayout::closest(kernel);
  SmallVector<uint64_t> offsets;
  uint64_t total = 0;
  for (BlockArgument arg : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(arg.getType());
    total = llvm::alignTo(total, gpumem::getWorkgroupBufferAlignment(type, layout));
    offsets.push_back(total);
    total += gpumem::getWorkgroupBufferBytes(type, layout);
  }
  if (total <= target.staticSharedBytes)
    return uint64_t(0);
  if (total > target.maxSharedBytesPerBlock)
    return kernel.emitOpError()
           << "uses " << total << " bytes of workgroup memory; "
           << target.name.str() << " allows at most "
           << target.maxSharedBytesPerBlock << " per block";
  WalkResult dynamicUse = kernel.walk([](gpu::DynamicSharedMemoryOp op) {
    return WalkResult::interrupt();
  });
  if (dynamicUse.wasInterrupted())
    return kernel.emitOpError()
           << "uses " << total << " bytes of workgroup memory, more than the "
           << target.staticSharedBytes
           << " bytes of static shared memory, and gpu.dynamic_shared_memory "
              "too; moving its buffers into dynamic shared memory next to its "
              "own dynamic data is not supported yet";

  MLIRContext *context = &getContext();
  Block &entry = kernel.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  Location loc = kernel.getLoc();
  auto workgroup = gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  Value dynamic = gpu::DynamicSharedMemoryOp::create(
      builder, loc,
      MemRefType::get({ShapedType::kDynamic}, builder.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  SmallVector<BlockArgument> attributions(kernel.getWorkgroupAttributions());
  for (auto [arg, offset] : llvm::zip(attributions, offsets)) {
    auto type = cast<MemRefType>(arg.getType());
    Value at = arith::ConstantIndexOp::create(builder, arg.getLoc(), offset);
    auto viewType = MemRefType::get(type.getShape(), type.getElementType(),
                                    MemRefLayoutAttrInterface(), workgroup);
    Value view = memref::ViewOp::create(builder, arg.getLoc(), viewType,
                                        dynamic, at, ValueRange());
    if (viewType != type)
      view = memref::MemorySpaceCastOp::create(builder, arg.getLoc(), type, view);
    arg.replaceAllUsesWith(view);
  }
  unsigned first = attributions.front().getArgNumber();
  entry.eraseArguments(first, attributions.size());
  kernel->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                  builder.getI64IntegerAttr(0));
  kernel->removeAttr("workgroup_attrib_attrs");
  return total;
}

void MoveLargeSharedToDynamicPass::runOnOperation() {
  ModuleOp module = getOperation();
  const gpumem::NVIDIAChip *target = gpumem::lookupNVIDIAChip(chip);
  if (!target) {
    emitError(module.getLoc()) << "unknown NVIDIA chip '" << chip
                               << "'; gpumem knows "
                               << gpumem::listNVIDIAChips();
    return signalPassFailure();
  }
  bool failedAny = false;
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel() || kernel.getNumWorkgroupAttributions() == 0)
      return;
    FailureOr<uint64_t> bytes = moveAttributions(kernel, *target);
    if (failed(bytes)) {
      failedAny = true;
      return;
    }
    if (*bytes == 0)
      return;
    auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() != gpuModule.getNameAttr() ||
          launch.getKernelName() != kernel.getNameAttr())
        return;
      if (launch.getDynamicSharedMemorySize()) {
        launch.emitOpError()
            << "passes a dynamic shared memory size to kernel '"
            << kernel.getName() << "', whose " << *bytes
            << " bytes of workgroup memory go into dynamic shared memory; "
               "combining both is not supported yet";
        failedAny = true;
        return;
      }
      OpBuilder builder(launch);
      Value size = arith::ConstantIntOp::create(builder, launch.getLoc(),
                                                builder.getI32Type(), *bytes);
      launch.getDynamicSharedMemorySizeMutable().assign(size);
    });
  });
  if (failedAny)
    signalPassFailure();
}

} // namespace
