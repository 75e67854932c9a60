//===----------------------------------------------------------------------===//
// gpumem-check-dynamic-shared-bounds: compile-time bounds of views of
// gpu.dynamic_shared_memory against the constant sizes launches pass.
//
// Algorithm: for every gpu.launch (its body) or gpu.launch_func (its
// kernel) with a constant dynamic shared memory size (none: 0 bytes), for
// every gpu.dynamic_shared_memory there, compute the byte range
// [begin, end) of each direct view whose bounds are constant; a range past
// the launch's size is an error at the view with a note at the launch.
// Non-constant bounds are left to run time. Run before outlining (constants
// from the host are still visible) and after (kernels launched by
// gpu.launch_func).
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"

#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMCHECKDYNAMICSHAREDBOUNDSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// What a view with constant bounds addresses: the bytes [begin, end) of
/// the i8 dynamic shared memory, or `overflows` when they do not fit in 64
/// bits.
struct ByteRange {
  int64_t begin = 0, end = 0;
  bool overflows = false;
};

/// The range of `view`, when its bounds are constant.
std::optional<ByteRange> byteRange(Operation *view) {
  ByteRange overflow;
  overflow.overflows = true;
  if (auto typed = dyn_cast<memref::ViewOp>(view)) {
    std::optional<int64_t> offset = getConstantIntValue(typed.getByteShift());
    MemRefType type = typed.getType();
    if (!offset || !type.hasStaticShape())
      return std::nullopt;
    std::optional<int64_t> bytes = llvm::checkedMul<int64_t>(
        type.getNumElements(),
        int64_t(DataLayout::closest(view).getTypeSize(type.getElementType())));
    std::optional<int64_t> end =
        bytes ? llvm::checkedAdd<int64_t>(*offset, *bytes) : std::nullopt;
    if (!end)
      return overflow;
    return ByteRange{*offset, *end};
  }
  // An i8 subview or reinterpret_cast: offset and extent in bytes; a
  // negative stride reaches below the offset.
  auto strided = [&](int64_t offset, ArrayRef<int64_t> sizes,
                     ArrayRef<int64_t> strides) -> std::optional<ByteRange> {
    if (ShapedType::isDynamic(offset) ||
        llvm::any_of(sizes, ShapedType::isDynamic) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return std::nullopt;
    std::optional<int64_t> low = offset, high = offset;
    for (auto [size, stride] : llvm::zip(sizes, strides)) {
      if (size == 0)
        return ByteRange{offset, offset};
      std::optional<int64_t> reach =
          llvm::checkedMul<int64_t>(size - 1, stride);
      if (!reach)
        return overflow;
      if (*reach < 0)
        low = llvm::checkedAdd<int64_t>(*low, *reach);
      else
        high = llvm::checkedAdd<int64_t>(*high, *reach);
      if (!low || !high)
        return overflow;
    }
    std::optional<int64_t> end = llvm::checkedAdd<int64_t>(*high, 1);
    if (!end)
      return overflow;
    return ByteRange{*low, *end};
  };
  if (auto sub = dyn_cast<memref::SubViewOp>(view)) {
    if (sub.getStaticOffsets().size() != 1)
      return std::nullopt;
    return strided(sub.getStaticOffsets()[0], sub.getStaticSizes(),
                   sub.getStaticStrides());
  }
  if (auto cast = dyn_cast<memref::ReinterpretCastOp>(view))
    if (cast.getStaticOffsets().size() == 1)
      return strided(cast.getStaticOffsets()[0], cast.getStaticSizes(),
                     cast.getStaticStrides());
  return std::nullopt;
}

/// The constant dynamic shared memory size of a launch (none is 0 bytes).
std::optional<int64_t> launchBytes(Value bytes) {
  if (!bytes)
    return 0;
  return getConstantIntValue(bytes);
}

struct CheckDynamicSharedBoundsPass
    : gpumem::impl::GPUMemCheckDynamicSharedBoundsPassBase<
          CheckDynamicSharedBoundsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    bool anyError = false;
    // The views of dynamic shared memory in `body`, against `size` bytes.
    auto check = [&](Operation *launch, Region &body, int64_t size) {
      body.walk([&](gpu::DynamicSharedMemoryOp dynamic) {
        for (Operation *view : dynamic->getUsers()) {
          std::optional<ByteRange> range = byteRange(view);
          if (!range ||
              (!range->overflows && range->begin >= 0 && range->end <= size))
            continue;
          InFlightDiagnostic diag = view->emitOpError();
          if (range->overflows)
            diag << "reads dynamic shared memory at byte offsets that do not "
                    "fit in 64 bits; the launch passes "
                 << size << " bytes";
          else if (range->begin < 0)
            diag << "reads bytes [" << range->begin << ", " << range->end
                 << ") of dynamic shared memory, which starts at byte 0";
          else
            diag << "reads bytes [" << range->begin << ", " << range->end
                 << ") of dynamic shared memory, but the launch passes only "
                 << size << " bytes";
          diag.attachNote(launch->getLoc()) << "launched here";
          anyError = true;
        }
      });
    };
    module.walk([&](Operation *op) {
      if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
        if (std::optional<int64_t> size =
                launchBytes(launch.getDynamicSharedMemorySize()))
          check(launch, launch.getBody(), *size);
      } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
        std::optional<int64_t> size =
            launchBytes(launch.getDynamicSharedMemorySize());
        auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
            launch, launch.getKernel());
        if (size && kernel)
          check(launch, kernel.getBody(), *size);
      }
    });
    if (anyError)
      signalPassFailure();
  }
};

} // namespace
