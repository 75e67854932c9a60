//===----------------------------------------------------------------------===//
// gpumem-pack-dynamic-workgroup-allocs: dynamic-size workgroup allocations
// of outlined kernels become views of dynamic shared memory, and every
// launch of such a kernel computes the bytes they need on the host.
//
// Algorithm, per kernel gpu.func with workgroup memref.alloc/alloca of
// dynamic shape (gpumem-hoist-workgroup-allocs has hoisted the static ones
// and left these in place):
//  1. Slice: the ops inside the kernel that compute each size operand. They
//     must be free of memory effects and regions, and end at kernel
//     arguments, constants, gpu.block_dim or gpu.grid_dim; a thread id, a
//     block id, a load or a loop variable is a located error.
//  2. Layout, as arithmetic both sides emit alike: the buffers follow the
//     launch's own dynamic shared memory bytes (the user's bytes first), each
//     at an offset aligned as getWorkgroupBufferAlignment says: after every
//     earlier buffer whose live range meets its own (WorkgroupLiveness.h),
//     so that buffers live at different times share bytes; with reuse off,
//     after every earlier buffer. A barrier separates buffers that may
//     share bytes where the kernel has none.
//  3. Kernel: a trailing `index` argument receives the user's bytes, which
//     memref.dim of the user's gpu.dynamic_shared_memory now returns; the
//     entry block clones the slices, computes the offsets and each
//     allocation becomes a memref.view of gpu.dynamic_shared_memory there.
//  4. Dynamic shared memory is aligned, in the gpu.module, to the most a
//     buffer asks for or a memref.assume_alignment of a user's view does
//     (whose constant offset must then be a multiple of it).
//  5. Every gpu.launch_func of the kernel clones the slices with kernel
//     arguments, block and grid dims taken from its own operands, passes its
//     own dynamic shared memory size as the new argument and the total as its
//     dynamic shared memory size (clamped to INT32_MAX so that the runtime
//     reports an oversized launch instead of wrapping it).
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/WorkgroupLiveness.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMPACKDYNAMICWORKGROUPALLOCSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// A dynamic-size workgroup allocation of a kernel and what it needs.
struct DynamicBuffer {
  Operation *alloc;
  MemRefType type;
  SmallVector<Value> sizes; // the kernel's values; they outlive `alloc`
  uint64_t elementBytes;
  uint64_t alignment;
  /// Earlier buffers (indices) this one may not share bytes with.
  SmallVector<unsigned> conflicts;
};

/// The kernel-side ops that compute the sizes, each after the ops it uses.
struct SizeSlice {
  llvm::SetVector<Operation *> ops;
};

/// Collects into `slice` the ops of `kernel` that compute `size`, or emits an
/// error at `alloc` naming what makes the size vary inside the launch.
LogicalResult collectSizeSlice(gpu::GPUFuncOp kernel, Operation *alloc,
                               Value size, SizeSlice &slice) {
  auto fail = [&](Operation *where, const Twine &what) {
    InFlightDiagnostic diag = alloc->emitOpError()
                              << "workgroup allocation size " << what
                              << "; the size must be the same for every "
                                 "thread and block of a launch, computable on "
                                 "the host before it";
    if (where)
      diag.attachNote(where->getLoc()) << "size computed from here";
    return failure();
  };
  if (auto arg = dyn_cast<BlockArgument>(size)) {
    if (arg.getOwner() == &kernel.getBody().front() &&
        arg.getArgNumber() < kernel.getNumArguments())
      return success();
    return fail(arg.getOwner()->getParentOp(),
                "depends on a value defined inside the kernel (a loop "
                "variable or block argument)");
  }
  Operation *def = size.getDefiningOp();
  if (slice.ops.contains(def))
    return success();
  if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::GlobalIdOp, gpu::SubgroupIdOp>(
          def))
    return alloc->emitOpError()
           << "workgroup allocation size depends on the thread id; every "
              "thread of a block must allocate the same size";
  if (isa<gpu::BlockIdOp, gpu::ClusterIdOp, gpu::ClusterBlockIdOp>(def))
    return fail(def, "depends on the block id");
  if (isa<gpu::ClusterDimOp, gpu::ClusterDimBlocksOp>(def))
    return fail(def, "depends on the cluster size, which gpumem does not "
                     "follow");
  if (isa<gpu::BlockDimOp, gpu::GridDimOp>(def)) {
    slice.ops.insert(def);
    return success();
  }
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return fail(def, "depends on '" + def->getName().getStringRef() +
                         "', which reads memory or has regions");
  for (Value operand : def->getOperands())
    if (failed(collectSizeSlice(kernel, alloc, operand, slice)))
      return failure();
  slice.ops.insert(def);
  return success();
}

/// `value` rounded up to a multiple of `alignment` (a power of two).
Value alignUp(OpBuilder &builder, Location loc, Value value,
              uint64_t alignment) {
  if (alignment <= 1)
    return value;
  Value mask = arith::ConstantIndexOp::create(builder, loc, alignment - 1);
  Value notMask = arith::ConstantIndexOp::create(
      builder, loc, ~static_cast<int64_t>(alignment - 1));
  Value sum = arith::AddIOp::create(builder, loc, value, mask);
  return arith::AndIOp::create(builder, loc, sum, notMask);
}

/// The dynamic sizes of `buffer` as mapped by `mapping`.
SmallVector<Value> mappedSizes(const DynamicBuffer &buffer,
                               const IRMapping &mapping) {
  SmallVector<Value> sizes;
  for (Value size : buffer.sizes)
    sizes.push_back(mapping.lookupOrDefault(size));
  return sizes;
}

/// Emits the layout: the offset of each buffer after `base` bytes; returns
/// the end of the last buffer.
Value emitLayout(OpBuilder &builder, Location loc, Value base,
                 ArrayRef<DynamicBuffer> buffers, const IRMapping &mapping,
                 SmallVectorImpl<Value> &offsets) {
  SmallVector<Value> ends;
  Value total = base;
  for (const DynamicBuffer &buffer : buffers) {
    // After every earlier buffer: after the last one, whose end is theirs.
    bool afterAll = buffer.conflicts.size() == ends.size();
    Value start = afterAll && !ends.empty() ? ends.back() : base;
    if (!afterAll)
      for (unsigned earlier : buffer.conflicts)
        start = arith::MaxUIOp::create(builder, loc, start, ends[earlier]);
    Value offset = alignUp(builder, loc, start, buffer.alignment);
    offsets.push_back(offset);
    Value bytes = gpumem::createBufferBytes(builder, loc, buffer.type,
                                            mappedSizes(buffer, mapping),
                                            buffer.elementBytes);
    ends.push_back(arith::AddIOp::create(builder, loc, offset, bytes));
    total = afterAll ? ends.back()
                     : arith::MaxUIOp::create(builder, loc, total, ends.back());
  }
  return total;
}

/// Whether buffer `index` may share bytes with another one: some buffer
/// does not conflict with it.
bool mayShareBytes(ArrayRef<DynamicBuffer> buffers, unsigned index) {
  if (buffers[index].conflicts.size() < index)
    return true;
  for (unsigned later = index + 1; later < buffers.size(); ++later)
    if (!llvm::is_contained(buffers[later].conflicts, index))
      return true;
  return false;
}

/// Decides which buffers may share bytes (all conflict without `reuse`) and
/// inserts the barriers those that may need; returns the barriers inserted.
unsigned planReuse(gpu::GPUFuncOp kernel,
                   MutableArrayRef<DynamicBuffer> buffers, bool reuse) {
  if (!reuse) {
    for (unsigned i = 0; i < buffers.size(); ++i)
      buffers[i].conflicts = llvm::to_vector(llvm::seq(0u, i));
    return 0;
  }
  gpumem::WorkgroupLiveness liveness(kernel);
  SmallVector<gpumem::WorkgroupLiveRange> ranges;
  for (DynamicBuffer &buffer : buffers)
    ranges.push_back(liveness.getLiveRange(buffer.alloc->getResult(0)));
  unsigned barriers = 0;
  for (unsigned i = 0; i < buffers.size(); ++i) {
    for (unsigned j = 0; j < i; ++j) {
      bool jFirst = ranges[j].start <= ranges[i].start;
      FailureOr<Operation *> separation = liveness.getSeparation(
          jFirst ? ranges[j] : ranges[i], jFirst ? ranges[i] : ranges[j]);
      if (failed(separation)) {
        buffers[i].conflicts.push_back(j);
        continue;
      }
      if (!*separation)
        continue;
      OpBuilder builder(*separation);
      gpu::BarrierOp::create(builder, (*separation)->getLoc());
      ++barriers;
    }
  }
  return barriers;
}

struct PackDynamicWorkgroupAllocsPass
    : gpumem::impl::GPUMemPackDynamicWorkgroupAllocsPassBase<
          PackDynamicWorkgroupAllocsPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Packs `kernel`'s buffers; false after an error.
  bool packKernel(gpu::GPUFuncOp kernel, ArrayRef<DynamicBuffer> buffers,
                  const SizeSlice &slice);
  /// Makes `launch` compute and pass the bytes `kernel` needs.
  void updateLaunch(gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel,
                    ArrayRef<DynamicBuffer> buffers, const SizeSlice &slice);
};

bool PackDynamicWorkgroupAllocsPass::packKernel(gpu::GPUFuncOp kernel,
                                                ArrayRef<DynamicBuffer> buffers,
                                                const SizeSlice &slice) {
  MLIRContext *context = &getContext();
  Location loc = kernel.getLoc();
  auto indexType = IndexType::get(context);
  unsigned baseIndex = kernel.getNumArguments();
  if (failed(
          kernel.insertArgument(baseIndex, indexType, DictionaryAttr(), loc))) {
    kernel.emitOpError() << "cannot take the argument that locates its "
                            "dynamic-size workgroup buffers";
    return false;
  }
  Block &entry = kernel.getBody().front();
  Value userBytes = entry.getArgument(baseIndex);
  // The user's view of dynamic shared memory keeps the user's size.
  SmallVector<memref::DimOp> userDims;
  kernel.walk([&](memref::DimOp dim) {
    if (dim.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
      userDims.push_back(dim);
  });
  for (memref::DimOp dim : userDims) {
    dim.replaceAllUsesWith(userBytes);
    dim.erase();
  }

  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  IRMapping mapping;
  for (Operation *op : slice.ops)
    builder.clone(*op, mapping);
  SmallVector<Value> offsets;
  emitLayout(builder, loc, userBytes, buffers, mapping, offsets);
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  Value dynamic = gpu::DynamicSharedMemoryOp::create(
      builder, loc,
      MemRefType::get({ShapedType::kDynamic}, builder.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  for (auto [index, pair] : llvm::enumerate(llvm::zip(buffers, offsets))) {
    const DynamicBuffer &buffer = std::get<0>(pair);
    Value offset = std::get<1>(pair);
    Location allocLoc = buffer.alloc->getLoc();
    auto viewType =
        MemRefType::get(buffer.type.getShape(), buffer.type.getElementType(),
                        MemRefLayoutAttrInterface(), workgroup);
    auto viewOp = memref::ViewOp::create(builder, allocLoc, viewType, dynamic,
                                         offset, mappedSizes(buffer, mapping));
    // For the report: the alignment the allocation asked for.
    if (buffer.alignment > gpumem::getDynamicViewAlignment(viewOp))
      viewOp->setAttr(gpumem::kViewAlignmentAttrName,
                      builder.getI64IntegerAttr(buffer.alignment));
    // initcheck tells a buffer's writes from those of the buffers whose
    // bytes it may share by this number (decision 152).
    if (mayShareBytes(buffers, index))
      viewOp->setAttr(gpumem::kSharedBytesBufferAttrName,
                      builder.getI32IntegerAttr(int32_t(index + 1)));
    Value view = viewOp;
    if (viewType != buffer.type)
      view = memref::MemorySpaceCastOp::create(builder, allocLoc, buffer.type,
                                               view);
    for (Operation *user : llvm::make_early_inc_range(buffer.alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    buffer.alloc->getResult(0).replaceAllUsesWith(view);
  }
  // Erased only now: the builder may still point at one of them (when the
  // kernel starts with a dynamic-size allocation).
  for (const DynamicBuffer &buffer : buffers)
    buffer.alloc->erase();
  return true;
}

void PackDynamicWorkgroupAllocsPass::updateLaunch(
    gpu::LaunchFuncOp launch, gpu::GPUFuncOp kernel,
    ArrayRef<DynamicBuffer> buffers, const SizeSlice &slice) {
  OpBuilder builder(launch);
  Location loc = launch.getLoc();
  IRMapping mapping;
  Block &entry = kernel.getBody().front();
  for (auto [arg, operand] :
       llvm::zip(entry.getArguments().take_front(kernel.getNumArguments() - 1),
                 launch.getKernelOperands()))
    mapping.map(arg, operand);
  auto dim = [&](gpu::Dimension d, Value x, Value y, Value z) {
    return d == gpu::Dimension::x ? x : d == gpu::Dimension::y ? y : z;
  };
  for (Operation *op : slice.ops) {
    if (auto blockDim = dyn_cast<gpu::BlockDimOp>(op)) {
      mapping.map(blockDim.getResult(),
                  dim(blockDim.getDimension(), launch.getBlockSizeX(),
                      launch.getBlockSizeY(), launch.getBlockSizeZ()));
      continue;
    }
    if (auto gridDim = dyn_cast<gpu::GridDimOp>(op)) {
      mapping.map(gridDim.getResult(),
                  dim(gridDim.getDimension(), launch.getGridSizeX(),
                      launch.getGridSizeY(), launch.getGridSizeZ()));
      continue;
    }
    builder.clone(*op, mapping);
  }

  // The user's bytes first, then the buffers (each aligned to 16 or more).
  Value userBytes;
  if (Value bytes = launch.getDynamicSharedMemorySize())
    userBytes = arith::IndexCastUIOp::create(builder, loc,
                                             builder.getIndexType(), bytes);
  else
    userBytes = arith::ConstantIndexOp::create(builder, loc, 0);
  SmallVector<Value> offsets;
  Value total = emitLayout(builder, loc, userBytes, buffers, mapping, offsets);
  Value limit = arith::ConstantIndexOp::create(
      builder, loc, std::numeric_limits<int32_t>::max());
  Value clamped = arith::MinUIOp::create(builder, loc, total, limit);
  Value bytes =
      arith::IndexCastUIOp::create(builder, loc, builder.getI32Type(), clamped);
  launch.getDynamicSharedMemorySizeMutable().assign(bytes);
  launch.getKernelOperandsMutable().append(userBytes);
}

/// The alignments the user's views of gpu.dynamic_shared_memory in `kernel`
/// ask for with memref.assume_alignment: each raises what dynamic shared
/// memory needs in `gpuModule`; a constant offset that is not a multiple of
/// it is an error at the view.
static LogicalResult requireViewAlignments(gpu::GPUFuncOp kernel,
                                           gpu::GPUModuleOp gpuModule) {
  WalkResult walk = kernel.walk([&](gpu::DynamicSharedMemoryOp dynamic) {
    for (Operation *user : dynamic->getUsers()) {
      auto view = dyn_cast<memref::ViewOp>(user);
      if (!view)
        continue;
      for (Operation *viewUser : view->getUsers()) {
        auto assume = dyn_cast<memref::AssumeAlignmentOp>(viewUser);
        if (!assume)
          continue;
        uint64_t alignment = assume.getAlignment();
        if (failed(gpumem::checkWorkgroupAlignment(assume.getLoc(), alignment)))
          return WalkResult::interrupt();
        std::optional<int64_t> offset =
            getConstantIntValue(view.getByteShift());
        if (offset && uint64_t(*offset) % alignment != 0) {
          assume.emitOpError()
              << "assumes an alignment of " << alignment
              << " bytes for a view of dynamic shared memory at byte offset "
              << *offset << ", which is not a multiple of it";
          return WalkResult::interrupt();
        }
        gpumem::requireDynamicSharedAlignment(gpuModule, alignment);
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

void PackDynamicWorkgroupAllocsPass::runOnOperation() {
  ModuleOp module = getOperation();
  bool anyError = false;
  SmallVector<gpu::GPUFuncOp> kernels;
  module.walk([&](gpu::GPUFuncOp kernel) {
    if (kernel.isKernel())
      kernels.push_back(kernel);
  });

  for (gpu::GPUFuncOp kernel : kernels) {
    auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
    if (failed(requireViewAlignments(kernel, gpuModule))) {
      anyError = true;
      continue;
    }
    DataLayout layout = DataLayout::closest(kernel);
    SmallVector<DynamicBuffer> buffers;
    SizeSlice slice;
    bool kernelOk = true;
    kernel.walk([&](Operation *op) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        return;
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (!gpumem::isWorkgroupMemRef(type) || type.hasStaticShape())
        return;
      if (!type.getLayout().isIdentity()) {
        op->emitOpError() << "workgroup allocation with the non-identity "
                             "layout "
                          << type.getLayout() << " is not supported";
        kernelOk = false;
        return;
      }
      SmallVector<Value> sizes =
          isa<memref::AllocOp>(op)
              ? llvm::to_vector(cast<memref::AllocOp>(op).getDynamicSizes())
              : llvm::to_vector(cast<memref::AllocaOp>(op).getDynamicSizes());
      for (Value size : sizes)
        if (failed(collectSizeSlice(kernel, op, size, slice))) {
          kernelOk = false;
          return;
        }
      // gpumem-hoist-workgroup-allocs checked the requested alignment.
      uint64_t alignment = gpumem::getWorkgroupBufferAlignment(type, layout);
      if (auto requested = op->getAttrOfType<IntegerAttr>("alignment"))
        alignment = std::max<uint64_t>(alignment, requested.getInt());
      buffers.push_back({op, type, sizes,
                         layout.getTypeSize(type.getElementType()), alignment});
    });
    if (!kernelOk) {
      anyError = true;
      continue;
    }
    if (buffers.empty())
      continue;
    // Offsets are aligned from the start of dynamic shared memory.
    for (const DynamicBuffer &buffer : buffers)
      gpumem::requireDynamicSharedAlignment(gpuModule, buffer.alignment);
    numBarriers += planReuse(kernel, buffers, reuse);
    if (!packKernel(kernel, buffers, slice)) {
      anyError = true;
      continue;
    }
    ++numKernels;
    numBuffers += buffers.size();
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() == gpuModule.getNameAttr() &&
          launch.getKernelName() == kernel.getNameAttr())
        updateLaunch(launch, kernel, buffers, slice);
    });
  }
  if (anyError)
    signalPassFailure();
}

} // namespace
