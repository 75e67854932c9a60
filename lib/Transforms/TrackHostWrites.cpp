//===----------------------------------------------------------------------===//
// gpumem-track-host-writes: --sanitize=initcheck sees the host's writes of
// managed memory (runtime/cpu/HostWrites.cpp).
//
// Algorithm, on host code (outside gpu.modules):
//   for each gpu.alloc host_shared:
//     follow its memref through view-like ops (subview, cast, reshapes,
//     reinterpret_cast); every use must be a load, a store or atomic into
//     it, a view, memref.dim, strided metadata, gpu.launch_func,
//     gpu.memcpy, gpu.memset, gpu.dealloc or a printMemref* call;
//     otherwise (a call, memref.copy, a linalg op, a return, ...) the
//     allocation keeps its default (every byte written) and nothing changes
//   for a followed allocation:
//     after it:        gpumemMemHostWritesTracked(aligned pointer)
//     before a store:  gpumemMemHostWrote(element address, bytes)
//   with element address = aligned pointer + (offset + sum index_d *
//   stride_d) * element bytes, the store's bytes those of its value.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/MemRefAddress.h"
#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMTRACKHOSTWRITESPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kTracked = "gpumemMemHostWritesTracked";
constexpr llvm::StringLiteral kWrote = "gpumemMemHostWrote";

/// A store into followed memory: its memref, indices and value type.
struct Write {
  Operation *op;
  Value memref;
  ValueRange indices;
  Type value;
};

std::optional<Write> describeWrite(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return Write{op, store.getMemRef(), store.getIndices(),
                 store.getValueToStore().getType()};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return Write{op, store.getBase(), store.getIndices(),
                 store.getValueToStore().getType()};
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return Write{op, atomic.getMemref(), atomic.getIndices(),
                 atomic.getValue().getType()};
  if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return Write{op, atomic.getMemref(), atomic.getIndices(),
                 atomic.getResult().getType()};
  return std::nullopt;
}

/// Whether `user` reads, describes or hands `value` to what the runtime
/// sees, without writing it unseen.
bool seenUse(Operation *user, Value value) {
  if (isa<memref::LoadOp, vector::LoadOp, memref::DimOp,
          memref::ExtractStridedMetadataOp,
          memref::ExtractAlignedPointerAsIndexOp, gpu::LaunchFuncOp,
          gpu::MemcpyOp, gpu::MemsetOp, gpu::DeallocOp>(user))
    return true;
  if (auto call = dyn_cast<func::CallOp>(user))
    return call.getCallee().starts_with("printMemref");
  if (std::optional<Write> write = describeWrite(user))
    return write->memref == value;
  return false;
}

struct TrackHostWritesPass
    : gpumem::impl::GPUMemTrackHostWritesPassBase<TrackHostWritesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::AllocOp> allocs;
    module.walk([&](gpu::AllocOp alloc) {
      if (alloc.getHostShared() && !alloc->getParentOfType<gpu::GPUModuleOp>())
        allocs.push_back(alloc);
    });
    for (gpu::AllocOp alloc : allocs) {
      SmallVector<Write> writes;
      if (follow(alloc.getMemref(), writes))
        track(alloc, writes);
    }
  }

  /// Collects the writes into `memref` and its views; false when a use
  /// may write it unseen.
  bool follow(Value memref, SmallVectorImpl<Write> &writes) {
    for (Operation *user : memref.getUsers()) {
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == memref &&
          isa<MemRefType>(user->getResult(0).getType())) {
        if (!follow(user->getResult(0), writes))
          return false;
        continue;
      }
      if (!seenUse(user, memref))
        return false;
      if (std::optional<Write> write = describeWrite(user))
        writes.push_back(*write);
    }
    return true;
  }

  func::FuncOp declare(StringRef name, unsigned arguments) {
    ModuleOp module = getOperation();
    if (auto found = module.lookupSymbol<func::FuncOp>(name))
      return found;
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    SmallVector<Type> types(arguments, builder.getIndexType());
    auto func = func::FuncOp::create(builder, module.getLoc(), name,
                                     builder.getFunctionType(types, {}));
    func.setPrivate();
    return func;
  }

  void track(gpu::AllocOp alloc, ArrayRef<Write> writes) {
    auto memref = cast<TypedValue<MemRefType>>(alloc.getMemref());
    OpBuilder builder(alloc->getContext());
    builder.setInsertionPointAfter(alloc);
    Location loc = alloc.getLoc();
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
    func::CallOp::create(builder, loc, declare(kTracked, 1), ValueRange{base});
    for (const Write &write : writes)
      report(write);
  }

  void report(const Write &write) {
    auto type = cast<MemRefType>(write.memref.getType());
    Type element = type.getElementType();
    bool sized =
        element.isIntOrIndexOrFloat() || isa<VectorType, ComplexType>(element);
    if (!type.isStrided() || !sized)
      return;
    OpBuilder builder(write.op);
    Location loc = write.op->getLoc();
    const DataLayout &layout = DataLayout::closest(write.op);
    int64_t elementBytes = int64_t(layout.getTypeSize(element));
    int64_t bytes = int64_t(layout.getTypeSize(write.value));
    // (A vector stored into a memref of scalars: its elements' bytes.)
    if (auto vector = dyn_cast<VectorType>(write.value);
        vector && !isa<VectorType>(element))
      bytes = vector.getNumElements() * elementBytes;
    Value linear =
        gpumem::getLinearElement(builder, loc, write.memref, write.indices);
    Value address = gpumem::getElementAddress(builder, loc, write.memref,
                                              linear, elementBytes);
    func::CallOp::create(
        builder, loc, declare(kWrote, 2),
        ValueRange{
            address,
            arith::ConstantIndexOp::create(builder, loc, bytes).getResult()});
  }
};

} // namespace
