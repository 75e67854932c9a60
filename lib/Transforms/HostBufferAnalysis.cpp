//===----------------------------------------------------------------------===//
// The host buffers of a host function that its launches use: steps 1 to 3
// of gpumem-host-buffers-to-device, described in HostBufferAnalysis.h. One
// walk finds the captured memrefs and traces each to its root; a second
// follows every root's views and sorts their uses into device uses, views
// and host accesses; the device effects come from the memory effects of
// the uses inside each launch body or kernel.
//===----------------------------------------------------------------------===//

#include "HostBufferAnalysis.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpumem-host-buffers-to-device"

using namespace mlir;
using namespace gpumem::hostbuffers;

/// A short name of a root kind, for debug output.
[[maybe_unused]] static StringRef getRootKindName(RootKind kind) {
  switch (kind) {
  case RootKind::Alloc:
    return "alloc";
  case RootKind::Alloca:
    return "alloca";
  case RootKind::Argument:
    return "argument";
  case RootKind::Global:
    return "global";
  case RootKind::Unknown:
    return "unknown";
  }
  llvm_unreachable("unhandled root kind");
}

/// True for the default (host) memory space: none, or the integer 0.
static bool isHostMemorySpace(Attribute space) {
  if (!space)
    return true;
  auto number = dyn_cast<IntegerAttr>(space);
  return number && number.getInt() == 0;
}

static bool isHostMemRef(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && isHostMemorySpace(memref.getMemorySpace());
}

/// The memref `result` of `op` is a view of: the source of a view-like op,
/// or null.
Value gpumem::hostbuffers::getViewSource(Operation *op, Value result) {
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
static bool isViewOf(Operation *user, Value value) {
  for (Value result : user->getResults())
    if (getViewSource(user, result) == value)
      return true;
  return false;
}

/// `value` traced back through views to the value it is a view of.
static Value traceRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    Value source = getViewSource(def, value);
    if (!source)
      break;
    value = source;
  }
  return value;
}

/// True for roots that already are device-visible memory.
static bool isDeviceAllocation(Value root) {
  Operation *def = root.getDefiningOp();
  return def && (isa<gpu::AllocOp>(def) ||
                 def->getName().getStringRef() == "gpumem.alloc_managed");
}

/// True when `op` passes its operands on: a terminator (return, yield,
/// branch) or an op with memref or pointer results that are not views.
static bool forwardsValue(Operation *op) {
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
static Access effectsOnUse(Operation *op, Value value) {
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
static void accumulateDeviceEffects(Value value, Operation *scope,
                                    Access &access) {
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

bool gpumem::hostbuffers::isLaunch(Operation *op) {
  return isa<gpu::LaunchOp, gpu::LaunchFuncOp>(op);
}

bool gpumem::hostbuffers::isAsyncLaunch(Operation *op) {
  auto async = dyn_cast<gpu::AsyncOpInterface>(op);
  return isLaunch(op) && async && async.getAsyncToken();
}

/// Adds `op` and its ancestors up to (excluding) `top` to `set`.
static void addWithAncestors(Operation *op, Operation *top,
                             llvm::SmallPtrSetImpl<Operation *> &set) {
  for (; op && op != top; op = op->getParentOp())
    set.insert(op);
}

RootKind HostBufferAnalysis::classifyRoot(Value root,
                                          memref::GlobalOp *global) {
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

HostBuffer *HostBufferAnalysis::getOrCreateBuffer(Value captured) {
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

void HostBufferAnalysis::collectBuffers() {
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

void HostBufferAnalysis::analyseBuffer(HostBuffer &buffer) {
  assert(!buffer.bases.empty() &&
         "a buffer's bases include the root it was found by");
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

bool HostBufferAnalysis::mayAccessUnknownMemory(Operation *op) {
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

void HostBufferAnalysis::collectUnknownAccesses() {
  Operation *top = func.getOperation();
  func.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip(); // device code
    if (mayAccessUnknownMemory(op))
      addWithAncestors(op, top, unknownAccessAncestors);
    return WalkResult::advance();
  });
}

void HostBufferAnalysis::run() {
  collectBuffers();
  if (buffers.empty())
    return;
  collectUnknownAccesses();
  for (auto &entry : buffers) {
    HostBuffer &buffer = *entry.second;
    analyseBuffer(buffer);
    LLVM_DEBUG(llvm::dbgs()
               << "host buffer (" << getRootKindName(buffer.kind) << ") at "
               << buffer.getLoc() << ": " << buffer.launches.size()
               << " gpu.launch, " << buffer.launchFuncs.size()
               << " gpu.launch_func, " << buffer.hostAccesses.size()
               << " host accesses" << (buffer.escapes ? ", escapes" : "")
               << (buffer.registeredByUser ? ", registered by the user" : "")
               << "\n");
  }
}

Value HostBuffer::createHostValue(OpBuilder &builder, Location loc) {
  if (kind != RootKind::Global)
    return root;
  return memref::GetGlobalOp::create(builder, loc, global.getType(),
                                     global.getSymName());
}
