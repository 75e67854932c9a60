//===----------------------------------------------------------------------===//
// gpumem-move-large-shared-to-dynamic: kernels whose workgroup attributions
// exceed the 48 KiB static shared memory limit get them as views of dynamic
// shared memory instead, and their launches pass the bytes.
//
// Algorithm, per kernel gpu.func of every gpu.module:
//  1. Lay the workgroup attributions out at offsets aligned as
//     getAttributionAlignment says (16 bytes or more); stop
//     when the total fits the chip's static limit (the smallest of the
//     chips', when `chip` lists several).
//  2. Over a chip's per-block maximum: an error at the kernel naming it.
//  3. Replace each attribution by a memref.view of gpu.dynamic_shared_memory
//     at its offset (cast to the attribution's memory-space spelling), drop
//     the attributions. The kernel's own gpu.dynamic_shared_memory (the
//     user's, or dynamic-size buffers packed there) becomes a view starting
//     after the moved buffers.
//  4. Every gpu.launch_func of the kernel passes the total as its dynamic
//     shared memory size, plus the size it passed already.
//===----------------------------------------------------------------------===//

#include "gpumem/Support/NVIDIATarget.h"
#include "gpumem/Target/CUDA/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMMOVELARGESHAREDTODYNAMICPASS
#include "gpumem/Target/CUDA/Passes.h.inc"
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
  FailureOr<uint64_t>
  moveAttributions(gpu::GPUFuncOp kernel,
                   ArrayRef<const gpumem::NVIDIAChip *> targets);
};

FailureOr<uint64_t> MoveLargeSharedToDynamicPass::moveAttributions(
    gpu::GPUFuncOp kernel, ArrayRef<const gpumem::NVIDIAChip *> targets) {
  DataLayout layout = DataLayout::closest(kernel);
  SmallVector<uint64_t> offsets;
  uint64_t total = 0;
  uint64_t alignment = gpumem::kMinWorkgroupAlignment;
  for (auto [index, arg] : llvm::enumerate(
           SmallVector<BlockArgument>(kernel.getWorkgroupAttributions()))) {
    auto type = cast<MemRefType>(arg.getType());
    if (!type.hasStaticShape())
      return kernel.emitOpError()
             << "has a workgroup attribution of type " << type
             << "; attributions need a static shape";
    uint64_t own = gpumem::getAttributionAlignment(kernel, index, type, layout);
    alignment = std::max(alignment, own);
    total = llvm::alignTo(total, own);
    offsets.push_back(total);
    total += gpumem::getWorkgroupBufferBytes(type, layout);
  }
  // The smallest static limit of the chips decides the move; each chip's
  // maximum must hold the total.
  uint64_t staticLimit = targets.front()->staticSharedBytes;
  for (const gpumem::NVIDIAChip *target : targets)
    staticLimit = std::min(staticLimit, target->staticSharedBytes);
  if (total <= staticLimit)
    return uint64_t(0);
  for (const gpumem::NVIDIAChip *target : targets)
    if (total > target->maxSharedBytesPerBlock)
      return kernel.emitOpError()
             << "uses " << total << " bytes of workgroup memory; "
             << target->name.str() << " allows at most "
             << target->maxSharedBytesPerBlock << " per block";
  SmallVector<gpu::DynamicSharedMemoryOp> ownDynamic;
  kernel.walk([&](gpu::DynamicSharedMemoryOp op) { ownDynamic.push_back(op); });

  MLIRContext *context = &getContext();
  Block &entry = kernel.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  Location loc = kernel.getLoc();
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  Value dynamic = gpu::DynamicSharedMemoryOp::create(
      builder, loc,
      MemRefType::get({ShapedType::kDynamic}, builder.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  // Dynamic shared memory starts as aligned as the moved buffers ask.
  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  gpumem::requireDynamicSharedAlignment(gpuModule, alignment);
  // The kernel's own dynamic data moves up past the moved buffers, to the
  // next boundary dynamic shared memory is aligned to: each
  // gpu.dynamic_shared_memory becomes a view there whose size is what the
  // launch passed on top of them.
  total = llvm::alignTo(total, gpumem::getDynamicSharedAlignment(gpuModule));
  if (!ownDynamic.empty()) {
    Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
    Value start = arith::ConstantIndexOp::create(builder, loc, total);
    Value all = memref::DimOp::create(builder, loc, dynamic, c0);
    Value own = arith::SubIOp::create(builder, loc, all, start);
    Value shifted = memref::ViewOp::create(builder, loc, dynamic.getType(),
                                           dynamic, start, ValueRange{own});
    for (gpu::DynamicSharedMemoryOp op : ownDynamic) {
      op.replaceAllUsesWith(shifted);
      op.erase();
    }
  }
  SmallVector<BlockArgument> attributions(kernel.getWorkgroupAttributions());
  for (auto [arg, offset] : llvm::zip(attributions, offsets)) {
    auto type = cast<MemRefType>(arg.getType());
    Value at = arith::ConstantIndexOp::create(builder, arg.getLoc(), offset);
    auto viewType = MemRefType::get(type.getShape(), type.getElementType(),
                                    MemRefLayoutAttrInterface(), workgroup);
    Value view = memref::ViewOp::create(builder, arg.getLoc(), viewType,
                                        dynamic, at, ValueRange());
    if (viewType != type)
      view =
          memref::MemorySpaceCastOp::create(builder, arg.getLoc(), type, view);
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
  gpumem::NVIDIAChipList targets = gpumem::parseNVIDIAChipList(chip);
  if (targets.chips.empty()) {
    emitError(module.getLoc())
        << "unknown NVIDIA chip '" << targets.unknown << "'; gpumem knows "
        << gpumem::listNVIDIAChips();
    return signalPassFailure();
  }
  bool failedAny = false;
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (!kernel.isKernel() || kernel.getNumWorkgroupAttributions() == 0)
      return;
    FailureOr<uint64_t> bytes = moveAttributions(kernel, targets.chips);
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
      OpBuilder builder(launch);
      Value size = arith::ConstantIntOp::create(builder, launch.getLoc(),
                                                builder.getI32Type(), *bytes);
      if (Value own = launch.getDynamicSharedMemorySize())
        size = arith::AddIOp::create(builder, launch.getLoc(), size, own);
      launch.getDynamicSharedMemorySizeMutable().assign(size);
    });
  });
  if (failedAny)
    signalPassFailure();
}

} // namespace
