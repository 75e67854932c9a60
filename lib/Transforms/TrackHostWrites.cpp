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
//   for each memref.alloc or memref.alloca of host code whose memref (or a
//   view, ranked or not) reaches a gpu.host_register:
//     the same walk, where gpu.host_register, gpu.host_unregister and
//     memref.dealloc are seen too, but a launch, copy or fill only after a
//     registration of the buffer (before it, the runtime would not see
//     what they write)
//   for a followed buffer:
//     after it:         gpumemMemHostBufferTracked(aligned pointer, bytes)
//     before a dealloc: gpumemMemHostBufferFreed(aligned pointer)
//     before a store:   gpumemMemHostWrote(element address, bytes)
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/MemRefAddress.h"
#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
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
constexpr llvm::StringLiteral kBufferTracked = "gpumemMemHostBufferTracked";
constexpr llvm::StringLiteral kBufferFreed = "gpumemMemHostBufferFreed";

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
      Uses uses;
      if (follow(alloc.getMemref(), uses, /*hostBuffer=*/false))
        track(alloc, uses.writes);
    }
    SmallVector<Operation *> buffers;
    module.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
          !op->getParentOfType<gpu::GPUModuleOp>())
        buffers.push_back(op);
    });
    DominanceInfo dominance(module);
    for (Operation *buffer : buffers) {
      Uses uses;
      if (follow(buffer->getResult(0), uses, /*hostBuffer=*/true) &&
          !uses.registrations.empty() &&
          llvm::all_of(uses.afterRegistration, [&](Operation *op) {
            return llvm::any_of(uses.registrations, [&](Operation *reg) {
              return dominance.properlyDominates(reg, op);
            });
          }))
        trackHostBuffer(buffer, uses);
    }
  }

  /// What a buffer's memref and its views are used for: the writes, and
  /// of a host buffer, its registrations, deallocs and the launches, copies
  /// and fills that must come after a registration.
  struct Uses {
    SmallVector<Write> writes;
    SmallVector<Operation *> registrations, deallocs, afterRegistration;
  };

  /// Collects the uses of `memref` and its views (a managed allocation's,
  /// or with `hostBuffer` a memref.alloc's that host code may register);
  /// false when one may write it unseen.
  bool follow(Value memref, Uses &uses, bool hostBuffer) {
    for (Operation *user : memref.getUsers()) {
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == memref &&
          isa<BaseMemRefType>(user->getResult(0).getType())) {
        if (!follow(user->getResult(0), uses, hostBuffer))
          return false;
        continue;
      }
      if (hostBuffer && isa<gpu::HostRegisterOp>(user)) {
        uses.registrations.push_back(user);
        continue;
      }
      if (hostBuffer && isa<gpu::HostUnregisterOp>(user))
        continue;
      if (hostBuffer && isa<memref::DeallocOp>(user)) {
        if (!isa<MemRefType>(memref.getType()))
          return false;
        uses.deallocs.push_back(user);
        continue;
      }
      if (!seenUse(user, memref))
        return false;
      if (hostBuffer &&
          isa<gpu::LaunchFuncOp, gpu::MemcpyOp, gpu::MemsetOp>(user))
        uses.afterRegistration.push_back(user);
      if (std::optional<Write> write = describeWrite(user))
        uses.writes.push_back(*write);
    }
    return true;
  }

  void trackHostBuffer(Operation *buffer, const Uses &uses) {
    auto memref = cast<TypedValue<MemRefType>>(buffer->getResult(0));
    MemRefType type = memref.getType();
    Type element = type.getElementType();
    if (!type.getLayout().isIdentity() ||
        !(element.isIntOrIndexOrFloat() ||
          isa<VectorType, ComplexType>(element)))
      return;
    OpBuilder builder(buffer->getContext());
    builder.setInsertionPointAfter(buffer);
    Location loc = buffer->getLoc();
    const DataLayout &layout = DataLayout::closest(buffer);
    ValueRange sizes = isa<memref::AllocOp>(buffer)
                           ? cast<memref::AllocOp>(buffer).getDynamicSizes()
                           : cast<memref::AllocaOp>(buffer).getDynamicSizes();
    Value bytes = gpumem::createBufferBytes(builder, loc, type, sizes,
                                            layout.getTypeSize(element));
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
    func::CallOp::create(builder, loc, declare(kBufferTracked, 2),
                         ValueRange{base, bytes});
    for (Operation *dealloc : uses.deallocs) {
      OpBuilder before(dealloc);
      Value freed = memref::ExtractAlignedPointerAsIndexOp::create(
          before, dealloc->getLoc(), dealloc->getOperand(0));
      func::CallOp::create(before, dealloc->getLoc(), declare(kBufferFreed, 1),
                           ValueRange{freed});
    }
    for (const Write &write : uses.writes)
      report(write);
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
