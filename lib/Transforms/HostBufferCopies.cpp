//===----------------------------------------------------------------------===//
// Copy mode of gpumem-host-buffers-to-device, described in
// HostBufferCopies.h: groups are planned by one scan of each block that may
// hold the buffer's launches (recursing into ops that hold both host
// accesses and launches), then emitted one by one as gpu.alloc, gpu.memcpy
// in and out, and gpu.dealloc around the group, its launches rewired to
// the device buffer.
//===----------------------------------------------------------------------===//

#include "HostBufferCopies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpumem-host-buffers-to-device"

using namespace mlir;
using namespace gpumem::hostbuffers;

Access HostBufferCopies::groupAccess(HostBuffer &buffer,
                                     ArrayRef<Operation *> members) {
  Access access;
  for (auto &[launch, launchAccess] : buffer.deviceAccess)
    for (Operation *member : members)
      if (member == launch || member->isProperAncestor(launch))
        access.add(launchAccess);
  return access;
}

/// One line of debug output for `group`, which `why` closed.
[[maybe_unused]] static void printGroup(const CopyGroup &group, StringRef why) {
  llvm::dbgs() << (group.async ? "async group" : "group") << " of "
               << group.members.size() << " op(s) from "
               << group.members.front()->getLoc() << " to "
               << group.members.back()->getLoc()
               << (group.fresh ? ", fresh" : "")
               << (group.access.read ? ", read" : "")
               << (group.access.write ? ", written" : "") << "; " << why
               << "\n";
}

void HostBufferCopies::planBlock(HostBuffer &buffer, Block &block,
                                 Block::iterator begin, bool fresh,
                                 SmallVectorImpl<CopyGroup> &groups) {
  CopyGroup current{&buffer};
  auto close = [&](StringRef why) {
    if (!current.members.empty()) {
      current.fresh = fresh;
      current.access = groupAccess(buffer, current.members);
      LLVM_DEBUG(printGroup(current, why));
      groups.push_back(current);
      fresh = false;
    }
    current = CopyGroup{&buffer};
  };
  auto recurse = [&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &nested : region)
        planBlock(buffer, nested, nested.begin(), /*fresh=*/false, groups);
  };
  for (Operation &op : llvm::make_range(begin, block.end())) {
    bool host = analysis.isHostFor(buffer, &op);
    bool device = buffer.deviceAncestors.contains(&op);
    if (!device) {
      if (host) {
        LLVM_DEBUG(if (!current.members.empty()) llvm::dbgs()
                   << "host access: '" << op.getName() << "' at " << op.getLoc()
                   << "\n");
        close("ended by the host access");
        fresh = false;
      }
      continue;
    }
    if (!host && isAsyncLaunch(&op)) {
      close("ended by an asynchronous launch");
      CopyGroup single{&buffer, {&op}};
      single.async = true;
      single.fresh = fresh;
      single.access = groupAccess(buffer, single.members);
      LLVM_DEBUG(printGroup(single, "an asynchronous launch is alone"));
      groups.push_back(single);
      fresh = false;
      continue;
    }
    bool inlineRegions = isa<RegionBranchOpInterface>(op) &&
                         !op.hasTrait<OpTrait::IsIsolatedFromAbove>();
    if (!host && (isLaunch(&op) ||
                  (inlineRegions && !buffer.asyncAncestors.contains(&op)))) {
      current.members.push_back(&op);
      continue;
    }
    // Host accesses and launches inside one op: groups inside its blocks.
    close("ended by an op with host accesses or asynchronous launches "
          "inside");
    LLVM_DEBUG(llvm::dbgs() << "searching inside '" << op.getName() << "' at "
                            << op.getLoc() << "\n");
    fresh = false;
    recurse(&op);
  }
  close("at the end of its block");
}

void HostBufferCopies::plan(HostBuffer &buffer,
                            SmallVectorImpl<CopyGroup> &groups) {
  LLVM_DEBUG(llvm::dbgs() << "copy groups of the host buffer at "
                          << buffer.getLoc() << ":\n");
  Block::iterator begin =
      buffer.def ? std::next(buffer.def->getIterator()) : buffer.scope->begin();
  bool fresh =
      buffer.kind == RootKind::Alloc || buffer.kind == RootKind::Alloca;
  planBlock(buffer, *buffer.scope, begin, fresh, groups);
  // Blocks after it in a multi-block region (cf branches).
  for (Block &block : *buffer.scope->getParent())
    if (&block != buffer.scope && dominance.dominates(buffer.scope, &block))
      planBlock(buffer, block, block.begin(), /*fresh=*/false, groups);
}

LogicalResult HostBufferCopies::checkCopyable(HostBuffer &buffer) {
  assert((!buffer.launches.empty() || !buffer.launchFuncs.empty()) &&
         "only buffers some launch uses are copied");
  auto type = dyn_cast<MemRefType>(buffer.root.getType());
  Operation *launch = !buffer.launches.empty()
                          ? buffer.launches.front().first
                          : buffer.launchFuncs.front().first;
  if (!type)
    return launch->emitOpError()
           << "uses a host buffer of unranked type " << buffer.root.getType()
           << ", which copy mode cannot copy to the device; use "
              "mode=register or gpu.host_register";
  if (!type.getLayout().isIdentity() && !type.isStrided())
    return launch->emitOpError()
           << "uses a host buffer of type " << type
           << " whose layout is not strided, which copy mode cannot copy to "
              "the device; use mode=register or gpu.host_register";
  return success();
}

Value HostBufferCopies::copy(OpBuilder &builder, Location loc, Value dst,
                             Value src, Value asyncDep) {
  if (!asyncDep) {
    gpu::MemcpyOp::create(builder, loc, Type(), ValueRange(), dst, src);
    return {};
  }
  return gpu::MemcpyOp::create(builder, loc,
                               gpu::AsyncTokenType::get(builder.getContext()),
                               ValueRange{asyncDep}, dst, src)
      .getAsyncToken();
}

HostBufferCopies::DeviceCopy
HostBufferCopies::allocateDevice(OpBuilder &builder, HostBuffer &buffer,
                                 Location loc, Value asyncDep, Value *token) {
  Value host = buffer.createHostValue(builder, loc);
  assert(isa<MemRefType>(host.getType()) &&
         "checkCopyable admits ranked buffers only");
  auto type = cast<MemRefType>(host.getType());
  Type tokenType =
      asyncDep ? gpu::AsyncTokenType::get(builder.getContext()) : Type();
  SmallVector<Value> deps;
  if (asyncDep)
    deps.push_back(asyncDep);
  // The device buffer stands for the host allocation: it gets the
  // memref.alloc's (alloca's, global's) location, which the runtimes name
  // as where the memory was allocated (--sanitize's reports, allocation
  // errors). Other roots keep the launch's.
  Location allocLoc = loc;
  if ((buffer.kind == RootKind::Alloc || buffer.kind == RootKind::Alloca) &&
      buffer.def)
    allocLoc = buffer.def->getLoc();
  else if (buffer.kind == RootKind::Global && buffer.global)
    allocLoc = buffer.global.getLoc();
  auto allocate = [&](MemRefType allocType, ValueRange sizes) {
    auto alloc =
        gpu::AllocOp::create(builder, allocLoc, allocType, tokenType, deps,
                             sizes, ValueRange(), /*hostShared=*/false);
    if (token)
      *token = alloc.getAsyncToken();
    return alloc.getMemref();
  };
  ++numDeviceBuffers;
  if (type.getLayout().isIdentity()) {
    SmallVector<Value> sizes;
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      if (type.isDynamicDim(dim))
        sizes.push_back(memref::DimOp::create(builder, loc, host, dim));
    Value device = allocate(type, sizes);
    return {device, device, host};
  }
  // A strided layout: copy elements [0, extent) from the aligned pointer,
  // extent = offset + 1 + sum((size_i - 1) * stride_i) over positive
  // products, 0 for an empty buffer.
  auto meta = memref::ExtractStridedMetadataOp::create(builder, loc, host);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v).getResult();
  };
  Value zero = index(0), one = index(1);
  Value extent = arith::AddIOp::create(builder, loc, meta.getOffset(), one);
  Value empty = arith::ConstantIntOp::create(builder, loc, 0, 1);
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    Value size = meta.getSizes()[dim];
    Value last = arith::SubIOp::create(builder, loc, size, one);
    Value span =
        arith::MulIOp::create(builder, loc, last, meta.getStrides()[dim]);
    span = arith::MaxSIOp::create(builder, loc, span, zero);
    extent = arith::AddIOp::create(builder, loc, extent, span);
    Value isZero = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         size, zero);
    empty = arith::OrIOp::create(builder, loc, empty, isZero);
  }
  extent = arith::SelectOp::create(builder, loc, empty, zero, extent);
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  OpFoldResult zeroOffset = builder.getIndexAttr(0);
  OpFoldResult unitStride = builder.getIndexAttr(1);
  Value hostFlat = memref::ReinterpretCastOp::create(
      builder, loc, flatType, meta.getBaseBuffer(), zeroOffset,
      {OpFoldResult(extent)}, {unitStride});
  Value deviceFlat = allocate(flatType, extent);
  auto [strides, offset] = type.getStridesAndOffset();
  auto mixed = [&](int64_t value, Value dynamic) -> OpFoldResult {
    if (ShapedType::isDynamic(value))
      return dynamic;
    return builder.getIndexAttr(value);
  };
  SmallVector<OpFoldResult> sizes, strideValues;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    sizes.push_back(mixed(type.getDimSize(dim), meta.getSizes()[dim]));
    strideValues.push_back(mixed(strides[dim], meta.getStrides()[dim]));
  }
  Value view = memref::ReinterpretCastOp::create(
      builder, loc, type, deviceFlat, mixed(offset, meta.getOffset()), sizes,
      strideValues);
  return {deviceFlat, view, hostFlat};
}

void HostBufferCopies::useDeviceCopy(HostBuffer &buffer, Operation *launch,
                                     Value device) {
  // The views from a base to `value`, base first.
  auto chainOf = [](Value value) {
    SmallVector<Operation *> chain;
    while (Operation *def = value.getDefiningOp()) {
      Value source = getViewSource(def, value);
      if (!source)
        break;
      chain.push_back(def);
      value = source;
    }
    return llvm::to_vector(llvm::reverse(chain));
  };
  IRMapping mapping;
  for (Value base : buffer.bases)
    mapping.map(base, device);
  auto rebuild = [&](OpBuilder &builder, Value value) {
    for (Operation *view : chainOf(value))
      if (!mapping.contains(view->getResult(0)))
        builder.clone(*view, mapping);
    return mapping.lookup(value);
  };
  if (auto launchOp = dyn_cast<gpu::LaunchOp>(launch)) {
    OpBuilder builder = OpBuilder::atBlockBegin(&launchOp.getBody().front());
    for (Value value : buffer.launches.lookup(launch)) {
      Value replacement = rebuild(builder, value);
      value.replaceUsesWithIf(replacement, [&](OpOperand &use) {
        return launch->isProperAncestor(use.getOwner());
      });
    }
    return;
  }
  OpBuilder builder(launch);
  for (unsigned index : buffer.launchFuncs.lookup(launch))
    launch->setOperand(index, rebuild(builder, launch->getOperand(index)));
}

void HostBufferCopies::emit(CopyGroup &group) {
  assert(!group.members.empty() && "planning closes non-empty groups only");
  assert((!group.async || group.members.size() == 1) &&
         "an asynchronous launch is a group of its own");
  HostBuffer &buffer = *group.buffer;
  if (!group.access.any()) {
    LLVM_DEBUG(llvm::dbgs() << "group from " << group.members.front()->getLoc()
                            << " neither reads nor writes the buffer: no "
                               "device copy\n");
    return;
  }
  Operation *first = group.members.front();
  Operation *last = group.members.back();
  Location loc = first->getLoc();
  bool copyIn = !group.fresh;
  bool copyOut = group.access.write && !buffer.isConstantGlobal();
  auto tokenType = gpu::AsyncTokenType::get(func.getContext());
  OpBuilder builder(first);

  if (!group.async) {
    DeviceCopy device = allocateDevice(builder, buffer, loc, {}, nullptr);
    if (copyIn) {
      copy(builder, loc, device.flat, device.hostFlat, {});
      ++numCopiesIn;
    }
    for (Operation *member : group.members) {
      member->walk([&](Operation *op) {
        if (buffer.launches.count(op) || buffer.launchFuncs.count(op))
          useDeviceCopy(buffer, op, device.view);
      });
    }
    builder.setInsertionPointAfter(last);
    if (copyOut) {
      copy(builder, last->getLoc(), device.hostFlat, device.flat, {});
      ++numCopiesOut;
    }
    gpu::DeallocOp::create(builder, last->getLoc(), Type(), ValueRange(),
                           device.flat);
    return;
  }

  // An asynchronous launch: everything on its stream, in a chain
  // dependency -> alloc -> copy in -> launch -> copy out -> dealloc, the
  // launch's later users waiting for the dealloc.
  auto async = cast<gpu::AsyncOpInterface>(first);
  SmallVector<Value> deps(async.getAsyncDependencies());
  Value dep =
      deps.size() == 1
          ? deps.front()
          : gpu::WaitOp::create(builder, loc, tokenType, deps).getAsyncToken();
  Value token;
  DeviceCopy device = allocateDevice(builder, buffer, loc, dep, &token);
  if (copyIn) {
    token = copy(builder, loc, device.flat, device.hostFlat, token);
    ++numCopiesIn;
  }
  if (auto launch = dyn_cast<gpu::LaunchOp>(first))
    launch.getAsyncDependenciesMutable().assign(token);
  else
    cast<gpu::LaunchFuncOp>(first).getAsyncDependenciesMutable().assign(token);
  useDeviceCopy(buffer, first, device.view);
  builder.setInsertionPointAfter(first);
  Value done = async.getAsyncToken();
  Operation *firstAfter = nullptr;
  Value after = done;
  if (copyOut) {
    after = copy(builder, loc, device.hostFlat, device.flat, after);
    firstAfter = after.getDefiningOp();
    ++numCopiesOut;
  }
  auto dealloc = gpu::DeallocOp::create(builder, loc, tokenType,
                                        ValueRange{after}, device.flat);
  if (!firstAfter)
    firstAfter = dealloc;
  done.replaceAllUsesExcept(dealloc.getAsyncToken(), firstAfter);
}
