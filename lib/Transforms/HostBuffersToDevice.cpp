//===----------------------------------------------------------------------===//
// gpumem-host-buffers-to-device: host memrefs used inside gpu.launch bodies
// (or passed to gpu.launch_func) become usable on the device, by copies
// (mode=copy), managed memory (mode=managed) or host registration
// (mode=register). docs/memory.md states the rules and why.
//
// Algorithm, per host function (one outside any gpu.module):
//  1. Buffers. Every memref a launch captures (a gpu.launch body uses it but
//     it is defined outside; a gpu.launch_func passes it) in the default
//     memory space is traced through views (ViewLikeOpInterface,
//     memref.transpose) to its root: memref.alloc, memref.alloca, a function
//     argument, memref.get_global (all get_globals of one symbol are one
//     buffer), or anything else ("unknown": loaded, returned by a call, a
//     block argument). Roots from gpu.alloc or gpumem.alloc_managed are
//     device memory already, and a buffer the function passes to
//     gpu.host_register is the user's business: both are left alone.
//  2. Uses. Every use of the buffer or of a view of it is a device use (in a
//     launch body, a gpu.launch_func operand), a view, or a host use. A host
//     use with a memory effect on the value (or none at all, like
//     memref.dim) is an access, anything else (a call, a return, a store of
//     the memref itself) an access that lets the buffer escape. Arguments,
//     globals and unknown roots count as escaped. For an escaped buffer, any
//     host op that may touch memory the pass cannot attribute to a distinct
//     root (a call, an unknown op, an effect on an unknown pointer) is an
//     access too.
//  3. Device effects. MemoryEffectOpInterface on the uses inside the launch
//     body (through views made there) says read and/or write; anything else
//     (a call to a device function, a region op) is read and write. For
//     gpu.launch_func the kernel's gpu.func argument is analysed the same
//     way, or read and write when the body is not there.
//  4. copy mode, groups. In the block that defines the buffer (and the
//     blocks of its region it dominates), ops are scanned in order: a
//     synchronous launch using the buffer, or an op with regions (scf.for,
//     scf.if, ...) whose launches use it without any host access inside,
//     joins the current group; a host access ends it (and an op with both
//     is searched the same way, block by block). A group gets
//     one device buffer (gpu.alloc of the buffer's type, dynamic sizes from
//     memref.dim; for non-identity layouts a flat buffer over the extent plus
//     a memref.reinterpret_cast; at the location of the host allocation, so
//     that reports name it), one copy in before its first op (unless
//     the buffer was just allocated in that block and nothing touched it
//     yet), one copy out after its last op when a member may write it
//     (never into a constant global), and a gpu.dealloc after that. Launches
//     use the device buffer: the views between root and captured value are
//     cloned at the start of the body. An asynchronous launch is a group of
//     its own, with gpu.alloc/memcpy/dealloc async chained to its tokens.
//  5. managed mode: a memref.alloc whose uses are views, memory accesses,
//     calls, launches and memref.dealloc becomes gpu.alloc host_shared, its
//     deallocs gpu.dealloc; every other buffer is handled as in copy mode.
//  6. register mode: gpu.host_register of the buffer (cast to unranked)
//     after its definition (function entry for arguments and globals),
//     gpu.host_unregister before its memref.dealloc, else at the end of the
//     defining block or before the function's returns. Allocations that are
//     registered get a page alignment, so two never share a page. Constant
//     globals are copied as in copy mode.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMHOSTBUFFERSTODEVICEPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

enum class Mode { Copy, Managed, Register };

/// What a host buffer's root is.
enum class RootKind { Alloc, Alloca, Argument, Global, Unknown };

/// Whether something may read or write a buffer.
struct Access {
  bool read = false;
  bool write = false;
  bool any() const { return read || write; }
  void add(Access other) {
    read |= other.read;
    write |= other.write;
  }
};

/// The alignment given to allocations that register mode registers: one
/// host page, so that two registered ranges never share a page.
constexpr int64_t kPageAlignment = 4096;

/// True for the default (host) memory space: none, or the integer 0.
bool isHostMemorySpace(Attribute space) {
  if (!space)
    return true;
  auto number = dyn_cast<IntegerAttr>(space);
  return number && number.getInt() == 0;
}

bool isHostMemRef(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && isHostMemorySpace(memref.getMemorySpace());
}

/// The memref `result` of `op` is a view of: the source of a view-like op,
/// or null.
Value getViewSource(Operation *op, Value result) {
  if (!isa<BaseMemRefType>(result.getType()))
    return {};
  if (auto transpose = dyn_cast<memref::TransposeOp>(op))
    return transpose.getIn();
  if (isa<memref::DistinctObjectsOp>(op))
    return {};
  if (auto view = dyn_cast<ViewLikeOpInterface>(op))
    return view.getViewSource();
  return {};
}

/// True when `user` makes views of `value` (and does nothing else with it).
bool isViewOf(Operation *user, Value value) {
  for (Value result : user->getResults())
    if (getViewSource(user, result) == value)
      return true;
  return false;
}

/// `value` traced back through views to the value it is a view of.
Value traceRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    Value source = getViewSource(def, value);
    if (!source)
      break;
    value = source;
  }
  return value;
}

/// True for roots that already are device-visible memory.
bool isDeviceAllocation(Value root) {
  Operation *def = root.getDefiningOp();
  return def && (isa<gpu::AllocOp>(def) ||
                 def->getName().getStringRef() == "gpumem.alloc_managed");
}

/// True when `op` passes its operands on: a terminator (return, yield,
/// branch) or an op with memref or pointer results that are not views.
bool forwardsValue(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return true;
  return llvm::any_of(op->getResults(), [](Value result) {
    return !result.getType().isIntOrIndexOrFloat() &&
           !isa<VectorType>(result.getType());
  });
}

/// The effects `op` has on `value` (through a use of it as an operand).
/// Effects on unspecified memory count; an op without the interface, or
/// with effects only on other values, may do anything with `value`.
Access effectsOnUse(Operation *op, Value value) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return {true, true};
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  Access access;
  bool named = false, unspecified = false;
  for (const MemoryEffects::EffectInstance &effect : list) {
    if (effect.getValue() && effect.getValue() != value)
      continue;
    (effect.getValue() ? named : unspecified) = true;
    if (isa<MemoryEffects::Read>(effect.getEffect()))
      access.read = true;
    else if (isa<MemoryEffects::Write>(effect.getEffect()))
      access.write = true;
    else if (isa<MemoryEffects::Free>(effect.getEffect()))
      access = {true, true};
  }
  if (!named && !unspecified && (!list.empty() || forwardsValue(op)))
    return {true, true}; // stored somewhere, yielded, selected, ...
  return access;
}

/// The effects of the uses of `value` inside `scope` (a launch or a kernel),
/// following views made there.
void accumulateDeviceEffects(Value value, Operation *scope, Access &access) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (!scope->isProperAncestor(user))
      continue;
    if (isViewOf(user, value)) {
      for (Value result : user->getResults())
        if (getViewSource(user, result) == value)
          accumulateDeviceEffects(result, scope, access);
      continue;
    }
    access.add(effectsOnUse(user, value));
  }
}

/// One host buffer of a function: its root and everything derived from it.
struct HostBuffer {
  RootKind kind = RootKind::Unknown;
  /// The root value (for globals, the first memref.get_global seen).
  Value root;
  /// The values that are the whole buffer (every get_global of a global).
  SmallVector<Value> bases;
  memref::GlobalOp global;
  /// The block the buffer is defined in, and the op defining it (null for
  /// block arguments and globals).
  Block *scope = nullptr;
  Operation *def = nullptr;
  /// Bases and all views of them.
  llvm::SetVector<Value> derived;
  /// gpu.launch ops and the derived values each captures.
  llvm::MapVector<Operation *, llvm::SetVector<Value>> launches;
  /// gpu.launch_func ops and the operand numbers that are derived values.
  llvm::MapVector<Operation *, SmallVector<unsigned>> launchFuncs;
  /// Host ops that access the buffer (outside any launch).
  llvm::SmallPtrSet<Operation *, 8> hostAccesses;
  /// The ops above and including host accesses / device uses / async
  /// device uses.
  llvm::SmallPtrSet<Operation *, 16> hostAncestors, deviceAncestors,
      asyncAncestors;
  SmallVector<memref::DeallocOp> deallocs;
  bool escapes = false;
  bool registeredByUser = false;
  /// A memref.alloc that can become a managed allocation.
  bool managedCandidate = false;
  /// Per launch or launch_func: what it may do to the buffer.
  llvm::DenseMap<Operation *, Access> deviceAccess;

  bool isConstantGlobal() {
    return kind == RootKind::Global && global && global.getConstant();
  }
  Location getLoc() { return root ? root.getLoc() : global.getLoc(); }
};

/// A run of ops of one block during which the buffer lives on the device.
struct Group {
  HostBuffer *buffer;
  SmallVector<Operation *> members;
  Access access;
  bool async = false;
  /// The buffer was allocated in this block and nothing used it before.
  bool fresh = false;
};

/// The device copy of a host buffer: `flat` is what is allocated and copied
/// (the buffer's type, or a 1-D buffer over its extent), `view` what kernels
/// use (the buffer's type).
struct DeviceCopy {
  Value flat, view, hostFlat;
};

bool isLaunch(Operation *op) {
  return isa<gpu::LaunchOp, gpu::LaunchFuncOp>(op);
}

bool isAsyncLaunch(Operation *op) {
  auto async = dyn_cast<gpu::AsyncOpInterface>(op);
  return isLaunch(op) && async && async.getAsyncToken();
}

/// Adds `op` and its ancestors up to (excluding) `top` to `set`.
void addWithAncestors(Operation *op, Operation *top,
                      llvm::SmallPtrSetImpl<Operation *> &set) {
  for (; op && op != top; op = op->getParentOp())
    set.insert(op);
}

class FunctionRewriter {
public:
  FunctionRewriter(FunctionOpInterface func, Mode mode,
                   SymbolTableCollection &symbols)
      : func(func), mode(mode), symbols(symbols) {}

  LogicalResult run();

  unsigned numDeviceBuffers = 0, numCopiesIn = 0, numCopiesOut = 0,
           numManaged = 0, numRegistered = 0;

private:
  void collectBuffers();
  HostBuffer *getOrCreateBuffer(Value captured);
  void analyseBuffer(HostBuffer &buffer);
  void collectUnknownAccesses();
  bool mayAccessUnknownMemory(Operation *op);
  RootKind classifyRoot(Value root, memref::GlobalOp *global);

  bool isHostFor(HostBuffer &buffer, Operation *op) {
    return buffer.hostAncestors.contains(op) ||
           (buffer.escapes && unknownAccessAncestors.contains(op));
  }
  void planBlock(HostBuffer &buffer, Block &block, Block::iterator begin,
                 bool fresh, SmallVectorImpl<Group> &groups);
  Access groupAccess(HostBuffer &buffer, ArrayRef<Operation *> members);

  LogicalResult checkCopyable(HostBuffer &buffer);
  Value hostValue(OpBuilder &builder, HostBuffer &buffer, Location loc);
  DeviceCopy allocateDevice(OpBuilder &builder, HostBuffer &buffer,
                            Location loc, Value asyncDep, Value *token);
  Value copy(OpBuilder &builder, Location loc, Value dst, Value src,
             Value asyncDep);
  void useDeviceCopy(HostBuffer &buffer, Operation *launch, Value device);
  void emitGroup(Group &group);
  void rewriteManaged(HostBuffer &buffer);
  void rewriteRegistered(HostBuffer &buffer);

  FunctionOpInterface func;
  Mode mode;
  SymbolTableCollection &symbols;
  /// Buffers, keyed by root value or global symbol.
  llvm::MapVector<const void *, std::unique_ptr<HostBuffer>> buffers;
  /// Host ops that may touch memory of an escaped buffer, and ancestors.
  llvm::SmallPtrSet<Operation *, 16> unknownAccessAncestors;
};

RootKind FunctionRewriter::classifyRoot(Value root, memref::GlobalOp *global) {
  if (auto arg = dyn_cast<BlockArgument>(root))
    return arg.getOwner() == &func.getFunctionBody().front()
               ? RootKind::Argument
               : RootKind::Unknown;
  Operation *def = root.getDefiningOp();
  if (isa<memref::AllocOp>(def))
    return RootKind::Alloc;
  if (isa<memref::AllocaOp>(def))
    return RootKind::Alloca;
  if (auto get = dyn_cast<memref::GetGlobalOp>(def)) {
    *global = symbols.lookupNearestSymbolFrom<memref::GlobalOp>(
        get, get.getNameAttr());
    if (*global)
      return RootKind::Global;
  }
  return RootKind::Unknown;
}

HostBuffer *FunctionRewriter::getOrCreateBuffer(Value captured) {
  if (!isHostMemRef(captured.getType()))
    return nullptr;
  Value root = traceRoot(captured);
  if (!isHostMemRef(root.getType()) || isDeviceAllocation(root))
    return nullptr;
  memref::GlobalOp global;
  RootKind kind = classifyRoot(root, &global);
  const void *key = kind == RootKind::Global
                        ? global.getSymNameAttr().getAsOpaquePointer()
                        : root.getAsOpaquePointer();
  std::unique_ptr<HostBuffer> &slot = buffers[key];
  if (!slot) {
    slot = std::make_unique<HostBuffer>();
    slot->kind = kind;
    slot->root = root;
    slot->global = global;
    if (auto arg = dyn_cast<BlockArgument>(root)) {
      slot->scope = arg.getOwner();
    } else if (kind == RootKind::Global) {
      slot->scope = &func.getFunctionBody().front();
    } else {
      slot->def = root.getDefiningOp();
      slot->scope = slot->def->getBlock();
    }
  }
  return slot.get();
}

void FunctionRewriter::collectBuffers() {
  func.getFunctionBody().walk([&](Operation *op) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(launch.getBody(), captured);
      for (Value value : captured)
        getOrCreateBuffer(value);
    } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      for (Value value : launch.getKernelOperands())
        getOrCreateBuffer(value);
    }
  });
  for (auto &entry : buffers) {
    HostBuffer &buffer = *entry.second;
    if (buffer.kind == RootKind::Global) {
      StringAttr name = buffer.global.getSymNameAttr();
      func.getFunctionBody().walk([&](memref::GetGlobalOp get) {
        if (get.getNameAttr().getAttr() == name)
          buffer.bases.push_back(get.getResult());
      });
    } else {
      buffer.bases.push_back(buffer.root);
    }
  }
}

void FunctionRewriter::analyseBuffer(HostBuffer &buffer) {
  Operation *top = func.getOperation();
  buffer.escapes =
      buffer.kind != RootKind::Alloc && buffer.kind != RootKind::Alloca;
  buffer.managedCandidate = buffer.kind == RootKind::Alloc;
  // Bases and their views, inside launches too.
  SmallVector<Value> worklist(buffer.bases.begin(), buffer.bases.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!buffer.derived.insert(value))
      continue;
    for (Operation *user : value.getUsers())
      for (Value result : user->getResults())
        if (getViewSource(user, result) == value)
          worklist.push_back(result);
  }
  for (Value value : buffer.derived) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto launch = user->getParentOfType<gpu::LaunchOp>()) {
        if (!launch.getBody().isAncestor(value.getParentRegion()))
          buffer.launches[launch].insert(value);
        continue;
      }
      if (isViewOf(user, value))
        continue;
      if (auto launch = dyn_cast<gpu::LaunchFuncOp>(user)) {
        unsigned first = launch.getKernelOperands().getBeginOperandIndex();
        unsigned index = use.getOperandNumber();
        if (index >= first &&
            index < first + launch.getKernelOperands().size()) {
          buffer.launchFuncs[launch].push_back(index);
          continue;
        }
      }
      // A host use.
      if (isa<gpu::HostRegisterOp>(user))
        buffer.registeredByUser = true;
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        buffer.deallocs.push_back(dealloc);
        buffer.hostAccesses.insert(user);
        continue;
      }
      if (isa<memref::ExtractAlignedPointerAsIndexOp>(user)) {
        // The address leaves the memref world: anything may use it.
        buffer.escapes = true;
        buffer.managedCandidate = false;
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (effects && effects.hasNoEffect() && !forwardsValue(user))
        continue; // memref.dim and the like
      buffer.hostAccesses.insert(user);
      if (effects) {
        bool named = false, frees = false;
        SmallVector<MemoryEffects::EffectInstance> list;
        effects.getEffects(list);
        for (const MemoryEffects::EffectInstance &effect : list) {
          if (effect.getValue() != value)
            continue;
          named = true;
          frees |= isa<MemoryEffects::Free>(effect.getEffect());
        }
        if (!named)
          buffer.escapes = true; // the memref itself stored somewhere
        if (!named || frees)
          buffer.managedCandidate = false; // e.g. memref.realloc
        continue;
      }
      buffer.escapes = true;
      if (!isa<CallOpInterface>(user))
        buffer.managedCandidate = false; // returned, yielded, branched
    }
  }
  for (Operation *op : buffer.hostAccesses)
    addWithAncestors(op, top, buffer.hostAncestors);
  // What each kernel may do with the buffer.
  for (auto &[launch, captured] : buffer.launches) {
    Access access;
    for (Value value : captured)
      accumulateDeviceEffects(value, launch, access);
    buffer.deviceAccess[launch] = access;
    addWithAncestors(launch, top, buffer.deviceAncestors);
    if (isAsyncLaunch(launch))
      addWithAncestors(launch, top, buffer.asyncAncestors);
  }
  for (auto &[op, operands] : buffer.launchFuncs) {
    auto launch = cast<gpu::LaunchFuncOp>(op);
    auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
        launch, launch.getKernel());
    Access access;
    unsigned first = launch.getKernelOperands().getBeginOperandIndex();
    for (unsigned index : operands) {
      unsigned arg = index - first;
      if (!kernel || kernel.isExternal() || arg >= kernel.getNumArguments()) {
        access = {true, true};
        break;
      }
      accumulateDeviceEffects(kernel.getArgument(arg), kernel, access);
    }
    buffer.deviceAccess[launch] = access;
    addWithAncestors(launch, top, buffer.deviceAncestors);
    if (isAsyncLaunch(launch))
      addWithAncestors(launch, top, buffer.asyncAncestors);
  }
}

bool FunctionRewriter::mayAccessUnknownMemory(Operation *op) {
  if (isLaunch(op) || isa<gpu::WaitOp>(op) || isPure(op))
    return false;
  if (isa<CallOpInterface>(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return op->getNumRegions() == 0 ||
           !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  for (const MemoryEffects::EffectInstance &effect : list) {
    if (isa<MemoryEffects::Allocate>(effect.getEffect()))
      continue;
    Value value = effect.getValue();
    if (!value || !isa<BaseMemRefType>(value.getType()))
      return true;
    Value root = traceRoot(value);
    memref::GlobalOp global;
    if (!isDeviceAllocation(root) &&
        classifyRoot(root, &global) == RootKind::Unknown)
      return true;
  }
  return false;
}

void FunctionRewriter::collectUnknownAccesses() {
  Operation *top = func.getOperation();
  func.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip(); // device code
    if (mayAccessUnknownMemory(op))
      addWithAncestors(op, top, unknownAccessAncestors);
    return WalkResult::advance();
  });
}

Access FunctionRewriter::groupAccess(HostBuffer &buffer,
                                     ArrayRef<Operation *> members) {
  Access access;
  for (auto &[launch, launchAccess] : buffer.deviceAccess)
    for (Operation *member : members)
      if (member == launch || member->isProperAncestor(launch))
        access.add(launchAccess);
  return access;
}

void FunctionRewriter::planBlock(HostBuffer &buffer, Block &block,
                                 Block::iterator begin, bool fresh,
                                 SmallVectorImpl<Group> &groups) {
  Group current{&buffer};
  auto close = [&] {
    if (!current.members.empty()) {
      current.fresh = fresh;
      current.access = groupAccess(buffer, current.members);
      groups.push_back(current);
      fresh = false;
    }
    current = Group{&buffer};
  };
  auto recurse = [&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &nested : region)
        planBlock(buffer, nested, nested.begin(), /*fresh=*/false, groups);
  };
  for (Operation &op : llvm::make_range(begin, block.end())) {
    bool host = isHostFor(buffer, &op);
    bool device = buffer.deviceAncestors.contains(&op);
    if (!device) {
      if (host) {
        close();
        fresh = false;
      }
      continue;
    }
    if (!host && isAsyncLaunch(&op)) {
      close();
      Group single{&buffer, {&op}};
      single.async = true;
      single.fresh = fresh;
      single.access = groupAccess(buffer, single.members);
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
    close();
    fresh = false;
    recurse(&op);
  }
  close();
}

LogicalResult FunctionRewriter::checkCopyable(HostBuffer &buffer) {
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

Value FunctionRewriter::hostValue(OpBuilder &builder, HostBuffer &buffer,
                                  Location loc) {
  if (buffer.kind != RootKind::Global)
    return buffer.root;
  return memref::GetGlobalOp::create(builder, loc, buffer.global.getType(),
                                     buffer.global.getSymName());
}

Value FunctionRewriter::copy(OpBuilder &builder, Location loc, Value dst,
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

DeviceCopy FunctionRewriter::allocateDevice(OpBuilder &builder,
                                            HostBuffer &buffer, Location loc,
                                            Value asyncDep, Value *token) {
  Value host = hostValue(builder, buffer, loc);
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

void FunctionRewriter::useDeviceCopy(HostBuffer &buffer, Operation *launch,
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

void FunctionRewriter::emitGroup(Group &group) {
  HostBuffer &buffer = *group.buffer;
  if (!group.access.any())
    return;
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

void FunctionRewriter::rewriteManaged(HostBuffer &buffer) {
  auto alloc = cast<memref::AllocOp>(buffer.def);
  OpBuilder builder(alloc);
  auto managed = gpu::AllocOp::create(
      builder, alloc.getLoc(), alloc.getType(), Type(), ValueRange(),
      alloc.getDynamicSizes(), alloc.getSymbolOperands(), /*hostShared=*/true);
  alloc.getResult().replaceAllUsesWith(managed.getMemref());
  alloc.erase();
  for (memref::DeallocOp dealloc : buffer.deallocs) {
    builder.setInsertionPoint(dealloc);
    gpu::DeallocOp::create(builder, dealloc.getLoc(), Type(), ValueRange(),
                           dealloc.getMemref());
    dealloc.erase();
  }
  ++numManaged;
}

void FunctionRewriter::rewriteRegistered(HostBuffer &buffer) {
  Block *scope = buffer.scope;
  OpBuilder builder(func.getContext());
  if (buffer.def)
    builder.setInsertionPointAfter(buffer.def);
  else
    builder.setInsertionPointToStart(scope);
  Location loc = buffer.getLoc();
  if (auto alloc = dyn_cast_if_present<memref::AllocOp>(buffer.def)) {
    if (alloc.getAlignment().value_or(0) < kPageAlignment)
      alloc.setAlignment(kPageAlignment);
  } else if (auto alloca = dyn_cast_if_present<memref::AllocaOp>(buffer.def)) {
    if (alloca.getAlignment().value_or(0) < kPageAlignment)
      alloca.setAlignment(kPageAlignment);
  } else if (buffer.kind == RootKind::Global) {
    if (buffer.global.getAlignment().value_or(0) < kPageAlignment)
      buffer.global.setAlignment(kPageAlignment);
  }
  Value host = hostValue(builder, buffer, loc);
  Value unranked = host;
  if (auto ranked = dyn_cast<MemRefType>(host.getType()))
    unranked =
        memref::CastOp::create(builder, loc,
                               UnrankedMemRefType::get(ranked.getElementType(),
                                                       ranked.getMemorySpace()),
                               host);
  gpu::HostRegisterOp::create(builder, loc, unranked);
  ++numRegistered;

  // Unregistered before its memref.dealloc, else when its block ends.
  if (!buffer.deallocs.empty()) {
    for (memref::DeallocOp dealloc : buffer.deallocs) {
      builder.setInsertionPoint(dealloc);
      gpu::HostUnregisterOp::create(builder, dealloc.getLoc(), unranked);
    }
    return;
  }
  DominanceInfo dominance(func);
  for (Block &block : *scope->getParent()) {
    if (block.empty() || !block.mightHaveTerminator())
      continue;
    Operation *terminator = block.getTerminator();
    if (terminator->getNumSuccessors() != 0 ||
        !dominance.dominates(scope, &block))
      continue;
    builder.setInsertionPoint(terminator);
    gpu::HostUnregisterOp::create(builder, terminator->getLoc(), unranked);
  }
}

LogicalResult FunctionRewriter::run() {
  collectBuffers();
  if (buffers.empty())
    return success();
  collectUnknownAccesses();
  for (auto &entry : buffers)
    analyseBuffer(*entry.second);

  // Decide per buffer, plan every group on the unchanged IR, then rewrite.
  SmallVector<HostBuffer *> managed, registered;
  SmallVector<Group> groups;
  DominanceInfo dominance(func);
  bool failed = false;
  for (auto &entry : buffers) {
    HostBuffer &buffer = *entry.second;
    if (buffer.registeredByUser ||
        (buffer.launches.empty() && buffer.launchFuncs.empty()))
      continue;
    bool used = llvm::any_of(buffer.deviceAccess,
                             [](auto &entry) { return entry.second.any(); });
    if (!used)
      continue;
    if (mode == Mode::Managed && buffer.managedCandidate) {
      managed.push_back(&buffer);
      continue;
    }
    if (mode == Mode::Register && !buffer.isConstantGlobal()) {
      registered.push_back(&buffer);
      continue;
    }
    if (mlir::failed(checkCopyable(buffer))) {
      failed = true;
      continue;
    }
    Block::iterator begin = buffer.def ? std::next(buffer.def->getIterator())
                                       : buffer.scope->begin();
    bool fresh =
        buffer.kind == RootKind::Alloc || buffer.kind == RootKind::Alloca;
    planBlock(buffer, *buffer.scope, begin, fresh, groups);
    // Blocks after it in a multi-block region (cf branches).
    for (Block &block : *buffer.scope->getParent())
      if (&block != buffer.scope && dominance.dominates(buffer.scope, &block))
        planBlock(buffer, block, block.begin(), /*fresh=*/false, groups);
  }
  if (failed)
    return failure();
  for (Group &group : groups)
    emitGroup(group);
  for (HostBuffer *buffer : managed)
    rewriteManaged(*buffer);
  for (HostBuffer *buffer : registered)
    rewriteRegistered(*buffer);
  return success();
}

struct HostBuffersToDevicePass
    : gpumem::impl::GPUMemHostBuffersToDevicePassBase<HostBuffersToDevicePass> {
  using Base::Base;

  void runOnOperation() override {
    Mode parsed;
    if (mode == "copy")
      parsed = Mode::Copy;
    else if (mode == "managed")
      parsed = Mode::Managed;
    else if (mode == "register")
      parsed = Mode::Register;
    else if (mode == "none")
      return; // the program as written
    else {
      // At the module's location, without the module printed as a note.
      mlir::emitError(getOperation().getLoc())
          << "unknown host-buffers mode '" << mode
          << "'; expected copy, managed, register or none";
      return signalPassFailure();
    }
    SymbolTableCollection symbols;
    SmallVector<FunctionOpInterface> functions;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip(); // device code
      if (auto function = dyn_cast<FunctionOpInterface>(op)) {
        if (!function.isExternal())
          functions.push_back(function);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    bool failed = false;
    for (FunctionOpInterface function : functions) {
      FunctionRewriter rewriter(function, parsed, symbols);
      if (mlir::failed(rewriter.run()))
        failed = true;
      numDeviceBuffers += rewriter.numDeviceBuffers;
      numCopiesIn += rewriter.numCopiesIn;
      numCopiesOut += rewriter.numCopiesOut;
      numManaged += rewriter.numManaged;
      numRegistered += rewriter.numRegistered;
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
