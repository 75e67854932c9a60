//===----------------------------------------------------------------------===//
// gpumem-hoist-workgroup-allocs: give memref.alloc/alloca in workgroup space
// CUDA `__shared__` semantics.
//
// Algorithm, over the whole module:
//  1. Classify the functions outside any gpu.module. Those reached through
//     calls from gpu.launch bodies are device functions (they are cloned into
//     the gpu.module by outlining); those reached from host code are host
//     functions; a function with no caller that outlining already cloned
//     into a gpu.module is a leftover host copy.
//  2. For each workgroup allocation, find its context: the enclosing
//     gpu.launch or kernel gpu.func, a device function inside a gpu.module,
//     or a function outside any gpu.module. Check it: static shape, or in a
//     kernel a dynamic size that does not depend on the thread id (left in
//     place for gpumem-pack-dynamic-workgroup-allocs), identity layout, and
//     no escape (every use is followed through views, casts, loop-carried and
//     yielded values; a return, a store of the buffer itself, an op that is
//     neither a view nor a memory access, or a call without a body is an
//     escape).
//  3. Rewrite: an allocation in a kernel becomes a workgroup attribution of
//     that kernel; one in a device function becomes a workgroup memref.global
//     of its gpu.module. Uses are rewired, deallocs erased. Allocations in
//     device functions still outside a gpu.module wait for the run after
//     outlining; those in host functions are errors.
//  4. Erase leftover host copies that mention workgroup memory: the host
//     lowering cannot type-convert them.
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "gpumem-hoist-workgroup-allocs"

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMHOISTWORKGROUPALLOCSPASS
#include "gpumem/Transforms/Passes.h.inc"
} // namespace gpumem

using namespace mlir;

namespace {

/// Where a workgroup allocation executes.
enum class AllocContext {
  Kernel,           // a gpu.launch body or a kernel gpu.func
  DeviceFunction,   // a function inside a gpu.module
  OutlinedLater,    // a device function not yet cloned by outlining
  HostFunction,     // host code
  LeftoverHostCopy, // erased with its function
  NoFunction,       // not inside any function: rejected
};

/// The calls from and to the functions that sit directly in the module.
class HostLevelFunctions {
public:
  explicit HostLevelFunctions(ModuleOp module);

  bool isHostLevel(Operation *func) const { return funcs.contains(func); }
  bool isHostReached(Operation *func) const {
    return hostReached.contains(func);
  }
  bool isLeftoverHostCopy(Operation *func) const {
    return leftovers.contains(func);
  }
  ArrayRef<Operation *> getLeftoverHostCopies() const {
    return leftovers.getArrayRef();
  }

private:
  /// The host-level function `call` calls, or null.
  Operation *resolveHostLevelCallee(CallOpInterface call) const;
  /// Adds to `reached` what the functions on `worklist` call from host code
  /// (outside gpu.launch bodies), transitively.
  void propagate(llvm::SmallVectorImpl<Operation *> &worklist,
                 llvm::DenseSet<Operation *> &reached);
  /// True when a gpu.module of `module` holds a function named like `func`.
  static bool hasCloneInGPUModule(ModuleOp module, FunctionOpInterface func);

  llvm::DenseSet<Operation *> funcs;
  llvm::DenseSet<Operation *> deviceReached;
  llvm::DenseSet<Operation *> hostReached;
  llvm::SetVector<Operation *> leftovers;
};

HostLevelFunctions::HostLevelFunctions(ModuleOp module) {
  for (auto func : module.getOps<FunctionOpInterface>())
    funcs.insert(func);

  // Device functions: reached from gpu.launch bodies.
  SmallVector<Operation *> worklist;
  module.walk([&](gpu::LaunchOp launch) {
    launch.getBody().walk([&](CallOpInterface call) {
      if (Operation *callee = resolveHostLevelCallee(call))
        if (deviceReached.insert(callee).second)
          worklist.push_back(callee);
    });
  });
  propagate(worklist, deviceReached);

  // Leftover host copies: cloned by outlining, not device-reached, and
  // called only from other leftovers (a fixpoint over the callers).
  llvm::DenseMap<Operation *, llvm::SmallPtrSet<Operation *, 4>> callers;
  for (Operation *func : funcs)
    func->walk([&](CallOpInterface call) {
      if (Operation *callee = resolveHostLevelCallee(call))
        if (callee != func)
          callers[callee].insert(func);
    });
  SmallVector<Operation *> candidates;
  for (auto func : module.getOps<FunctionOpInterface>())
    if (!deviceReached.contains(func) && hasCloneInGPUModule(module, func))
      candidates.push_back(func);
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *func : candidates)
      if (!leftovers.contains(func) &&
          llvm::all_of(callers[func], [&](Operation *caller) {
            return leftovers.contains(caller);
          }))
        changed = leftovers.insert(func);
  }

  // Host functions: every other function, and what it calls from host code.
  for (Operation *func : funcs)
    if (!deviceReached.contains(func) && !leftovers.contains(func) &&
        hostReached.insert(func).second)
      worklist.push_back(func);
  propagate(worklist, hostReached);
}

Operation *
HostLevelFunctions::resolveHostLevelCallee(CallOpInterface call) const {
  auto symbol = dyn_cast<SymbolRefAttr>(call.getCallableForCallee());
  if (!symbol)
    return nullptr;
  Operation *callee = SymbolTable::lookupNearestSymbolFrom(call, symbol);
  return funcs.contains(callee) ? callee : nullptr;
}

void HostLevelFunctions::propagate(SmallVectorImpl<Operation *> &worklist,
                                   llvm::DenseSet<Operation *> &reached) {
  while (!worklist.empty()) {
    Operation *func = worklist.pop_back_val();
    func->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (auto call = dyn_cast<CallOpInterface>(op))
        if (Operation *callee = resolveHostLevelCallee(call))
          if (reached.insert(callee).second)
            worklist.push_back(callee);
      return WalkResult::advance();
    });
  }
}

bool HostLevelFunctions::hasCloneInGPUModule(ModuleOp module,
                                             FunctionOpInterface func) {
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    if (isa_and_present<FunctionOpInterface>(
            SymbolTable::lookupSymbolIn(gpuModule, func.getNameAttr())))
      return true;
  return false;
}

/// True when `value` depends, through the ops that compute it, on the id of
/// the thread within its block.
static bool dependsOnThreadId(Value value) {
  SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(current)) {
      auto launch = dyn_cast<gpu::LaunchOp>(arg.getOwner()->getParentOp());
      if (launch && arg.getOwner() == &launch.getBody().front()) {
        gpu::KernelDim3 ids = launch.getThreadIds();
        if (current == ids.x || current == ids.y || current == ids.z)
          return true;
      }
      continue;
    }
    Operation *def = current.getDefiningOp();
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::GlobalIdOp, gpu::SubgroupIdOp>(
            def))
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// Follows every alias of `alloc`'s buffer and returns the deallocs of any
/// of them. Emits an error at the allocation and fails when the buffer
/// escapes the block-wide lifetime the pass gives it.
static FailureOr<SmallVector<memref::DeallocOp>>
traceBufferUses(Operation *alloc) {
  SmallVector<memref::DeallocOp> deallocs;
  SmallVector<Value> worklist{alloc->getResult(0)};
  llvm::DenseSet<Value> seen;
  auto escape = [&](Operation *user, const Twine &how) {
    InFlightDiagnostic diag = alloc->emitOpError()
                              << "workgroup buffer " << how
                              << "; gpumem gives it one block-wide lifetime "
                                 "and cannot follow it there";
    diag.attachNote(user->getLoc()) << "escaping use here";
    return failure();
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        deallocs.push_back(dealloc);
        continue;
      }
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        Operation *parent = yield->getParentOp();
        unsigned index = use.getOperandNumber();
        if (auto loop = dyn_cast<scf::ForOp>(parent)) {
          worklist.push_back(loop.getResult(index));
          worklist.push_back(loop.getRegionIterArgs()[index]);
          continue;
        }
        if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(parent)) {
          worklist.push_back(parent->getResult(index));
          continue;
        }
      }
      if (user->hasTrait<OpTrait::IsTerminator>() &&
          (user->hasTrait<OpTrait::ReturnLike>() ||
           isa<RegionBranchTerminatorOpInterface>(user))) {
        Operation *parent = user->getParentOp();
        if (isa<FunctionOpInterface>(parent))
          return escape(user, "is returned from its function");
        return escape(user, "is yielded from '" +
                                parent->getName().getStringRef() + "'");
      }
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (BlockArgument iterArg = loop.getTiedLoopRegionIterArg(&use)) {
          worklist.push_back(iterArg);
          worklist.push_back(loop.getTiedLoopResult(&use));
          continue;
        }
      }
      if (auto call = dyn_cast<CallOpInterface>(user)) {
        auto callee =
            dyn_cast_if_present<FunctionOpInterface>(call.resolveCallable());
        if (callee && !callee.isExternal())
          continue;
        return escape(user, "is passed to a function without a body or "
                            "through an indirect call");
      }
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == value) {
          for (Value result : user->getResults())
            if (isa<BaseMemRefType>(result.getType()))
              worklist.push_back(result);
          continue;
        }
      }
      if (auto effects = dyn_cast<MemoryEffectOpInterface>(user)) {
        SmallVector<MemoryEffects::EffectInstance> onValue;
        effects.getEffectsOnValue(value, onValue);
        if (!onValue.empty())
          continue; // the op reads, writes or frees the buffer itself
        if (!isMemoryEffectFree(user))
          return escape(user, "is stored to memory by '" +
                                  user->getName().getStringRef() + "'");
      }
      if (isPure(user)) {
        // Casts and metadata queries: follow what still is the buffer.
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            worklist.push_back(result);
        continue;
      }
      return escape(user, "is passed to '" + user->getName().getStringRef() +
                              "', which is neither a view nor a memory access");
    }
  }
  return deallocs;
}

/// Where `alloc` executes, given the module's function roles.
static AllocContext classify(Operation *alloc,
                             const HostLevelFunctions &functions) {
  if (alloc->getParentOfType<gpu::LaunchOp>())
    return AllocContext::Kernel;
  auto func = alloc->getParentOfType<FunctionOpInterface>();
  if (!func)
    return AllocContext::NoFunction;
  if (auto gpuFunc = dyn_cast<gpu::GPUFuncOp>(func.getOperation()))
    if (gpuFunc.isKernel())
      return AllocContext::Kernel;
  if (func->getParentOfType<gpu::GPUModuleOp>())
    return AllocContext::DeviceFunction;
  // A function of a nested module is reached by no kernel of this module.
  if (!functions.isHostLevel(func))
    return AllocContext::HostFunction;
  if (functions.isLeftoverHostCopy(func))
    return AllocContext::LeftoverHostCopy;
  if (functions.isHostReached(func))
    return AllocContext::HostFunction;
  return AllocContext::OutlinedLater;
}

/// Checks that `alloc`, a workgroup allocation in `context`, can become one
/// buffer per block: static, or dynamic with a thread-invariant size in a
/// kernel (gpumem-pack-dynamic-workgroup-allocs packs those after
/// outlining).
static LogicalResult checkBlockBuffer(Operation *alloc, MemRefType type,
                                      AllocContext context) {
  if (!type.hasStaticShape()) {
    for (Value size : alloc->getOperands())
      if (dependsOnThreadId(size))
        return alloc->emitOpError()
               << "workgroup allocation size depends on the thread id; every "
                  "thread of a block must allocate the same size";
    if (context != AllocContext::Kernel)
      return alloc->emitOpError()
             << "dynamic-size workgroup allocation of type " << type
             << " in a device function is not supported; allocate it in the "
                "kernel and pass the buffer to the function";
  }
  if (!type.getLayout().isIdentity())
    return alloc->emitOpError()
           << "workgroup allocation with the non-identity layout "
           << type.getLayout() << " is not supported";
  if (auto alignment = alloc->getAttrOfType<IntegerAttr>("alignment"))
    return gpumem::checkWorkgroupAlignment(alloc->getLoc(), alignment.getInt());
  return success();
}

/// Checks the alignments workgroup memory of `module`'s gpu.modules asks for
/// where no allocation did: kernel attributions' `llvm.align` (after setting
/// what outlining kept for them) and workgroup globals' `alignment`.
static LogicalResult checkModuleAlignments(ModuleOp module) {
  bool anyError = false;
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
    for (Operation &op : gpuModule.getBody()->getOperations()) {
      if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op)) {
        gpumem::applyRecordedBufferData(kernel);
        for (unsigned i = 0, e = kernel.getNumWorkgroupAttributions(); i < e;
             ++i) {
          Location loc = kernel.getWorkgroupAttributions()[i].getLoc();
          Attribute align = kernel.getWorkgroupAttributionAttr(
              i, LLVM::LLVMDialect::getAlignAttrName());
          if (!align)
            continue;
          if (uint64_t alignment = gpumem::getRequestedAlignment(kernel, i)) {
            anyError |= failed(gpumem::checkWorkgroupAlignment(loc, alignment));
          } else {
            emitError(loc) << "'" << LLVM::LLVMDialect::getAlignAttrName()
                           << "' of a workgroup attribution must be a positive "
                              "integer, not "
                           << align;
            anyError = true;
          }
        }
      } else if (auto global = dyn_cast<memref::GlobalOp>(op)) {
        if (gpumem::isWorkgroupMemRef(global.getType()) &&
            global.getAlignment())
          anyError |= failed(gpumem::checkWorkgroupAlignment(
              global.getLoc(), *global.getAlignment()));
      }
    }
  }
  return failure(anyError);
}

struct HoistWorkgroupAllocsPass
    : gpumem::impl::GPUMemHoistWorkgroupAllocsPassBase<
          HoistWorkgroupAllocsPass> {
  void runOnOperation() override;

private:
  /// Makes `alloc` a workgroup attribution of its kernel.
  void hoistToAttribution(Operation *alloc, MemRefType type);
  /// The alignments hoisted allocations asked for, by launch attribution:
  /// gpu.launch has no attribution attributes, so they are recorded in its
  /// location for outlining.
  llvm::DenseMap<Value, uint64_t> launchAlignments;
  /// Makes `alloc` a workgroup global of its gpu.module.
  void hoistToGlobal(Operation *alloc, MemRefType type,
                     SymbolTableCollection &symbolTables);
};

void HoistWorkgroupAllocsPass::runOnOperation() {
  ModuleOp module = getOperation();
  HostLevelFunctions functions(module);

  SmallVector<Operation *> allocs;
  module.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
        gpumem::isWorkgroupMemRef(op->getResult(0).getType()))
      allocs.push_back(op);
  });

  SymbolTableCollection symbolTables;
  bool anyError = false;
  for (Operation *alloc : allocs) {
    auto type = cast<MemRefType>(alloc->getResult(0).getType());
    AllocContext context = classify(alloc, functions);
    LLVM_DEBUG(llvm::dbgs() << "'" << alloc->getName() << "' of " << type
                            << " at " << alloc->getLoc() << ": ");
    if (context == AllocContext::LeftoverHostCopy) {
      LLVM_DEBUG(llvm::dbgs() << "in a leftover host copy, erased with it\n");
      continue;
    }
    if (context == AllocContext::NoFunction ||
        context == AllocContext::HostFunction)
      LLVM_DEBUG(llvm::dbgs() << "not in device code, an error\n");
    if (context == AllocContext::NoFunction) {
      alloc->emitOpError() << "allocates workgroup memory outside any "
                              "function or kernel";
      anyError = true;
      continue;
    }
    if (context == AllocContext::HostFunction) {
      alloc->emitOpError()
          << "allocates workgroup memory in host code; allocate it inside a "
             "'gpu.launch' body, a kernel, or a function called only from "
             "them";
      anyError = true;
      continue;
    }
    if (failed(checkBlockBuffer(alloc, type, context))) {
      LLVM_DEBUG(llvm::dbgs() << "not one buffer per block, an error\n");
      anyError = true;
      continue;
    }
    FailureOr<SmallVector<memref::DeallocOp>> deallocs = traceBufferUses(alloc);
    if (failed(deallocs)) {
      LLVM_DEBUG(llvm::dbgs() << "escapes, an error\n");
      anyError = true;
      continue;
    }
    if (context == AllocContext::OutlinedLater) {
      LLVM_DEBUG(llvm::dbgs() << "in a device function outside any "
                                 "gpu.module: waits for outlining\n");
      continue;
    }
    for (memref::DeallocOp dealloc : *deallocs)
      dealloc.erase();
    if (!type.hasStaticShape()) {
      LLVM_DEBUG(llvm::dbgs() << "dynamic size: left in place for "
                                 "gpumem-pack-dynamic-workgroup-allocs\n");
      continue;
    }
    if (context == AllocContext::Kernel)
      hoistToAttribution(alloc, type);
    else
      hoistToGlobal(alloc, type, symbolTables);
  }
  if (anyError || failed(checkModuleAlignments(module)))
    return signalPassFailure();
  // Outlining gives the kernel's attributions the launch's location; the
  // planner's report names the allocations, the lowerings align them.
  module.walk([&](gpu::LaunchOp launch) {
    SmallVector<uint64_t> alignments;
    for (BlockArgument buffer : launch.getWorkgroupAttributions())
      alignments.push_back(launchAlignments.lookup(buffer));
    gpumem::recordWorkgroupBufferLocations(launch, alignments);
  });
  launchAlignments.clear();

  for (Operation *func : functions.getLeftoverHostCopies()) {
    WalkResult usesWorkgroup = func->walk([](Operation *op) {
      auto isWorkgroup = [](Value v) {
        return gpumem::isWorkgroupMemRef(v.getType());
      };
      if (llvm::any_of(op->getResults(), isWorkgroup))
        return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (llvm::any_of(block.getArguments(), isWorkgroup))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (usesWorkgroup.wasInterrupted()) {
      LLVM_DEBUG(llvm::dbgs()
                 << "erasing the leftover host copy '"
                 << cast<SymbolOpInterface>(func).getName() << "'\n");
      func->erase();
      ++numErasedHostCopies;
    }
  }
}

void HoistWorkgroupAllocsPass::hoistToAttribution(Operation *alloc,
                                                  MemRefType type) {
  BlockArgument buffer;
  auto alignment = alloc->getAttrOfType<IntegerAttr>("alignment");
  if (auto launch = alloc->getParentOfType<gpu::LaunchOp>()) {
    buffer = launch.addWorkgroupAttribution(type, alloc->getLoc());
    if (alignment)
      launchAlignments[buffer] = alignment.getInt();
    LLVM_DEBUG(llvm::dbgs() << "workgroup attribution of the gpu.launch at "
                            << launch.getLoc() << "\n");
  } else {
    auto kernel = alloc->getParentOfType<gpu::GPUFuncOp>();
    assert(kernel && kernel.isKernel() &&
           "an allocation in a kernel context outside gpu.launch is in a "
           "kernel gpu.func");
    buffer = kernel.addWorkgroupAttribution(type, alloc->getLoc());
    LLVM_DEBUG(llvm::dbgs() << "workgroup attribution of kernel '"
                            << kernel.getName() << "'\n");
    if (alignment)
      gpumem::setRequestedAlignment(
          kernel, kernel.getNumWorkgroupAttributions() - 1, alignment.getInt());
  }
  alloc->getResult(0).replaceAllUsesWith(buffer);
  alloc->erase();
  ++numAttributions;
}

void HoistWorkgroupAllocsPass::hoistToGlobal(
    Operation *alloc, MemRefType type, SymbolTableCollection &symbolTables) {
  auto func = alloc->getParentOfType<FunctionOpInterface>();
  auto gpuModule = func->getParentOfType<gpu::GPUModuleOp>();
  assert(gpuModule && "a device function context is inside a gpu.module");
  OpBuilder builder(gpuModule.getBody(), gpuModule.getBody()->begin());
  auto alignment = alloc->getAttrOfType<IntegerAttr>("alignment");
  auto global = memref::GlobalOp::create(
      builder, alloc->getLoc(),
      builder.getStringAttr("__shared_" + func.getName()),
      builder.getStringAttr("private"), TypeAttr::get(type),
      builder.getUnitAttr(), /*constant=*/nullptr, alignment);
  // Renames the global when the name is taken.
  symbolTables.getSymbolTable(gpuModule).insert(global);
  LLVM_DEBUG(llvm::dbgs() << "workgroup global @" << global.getSymName()
                          << " of gpu.module @" << gpuModule.getName() << "\n");

  builder.setInsertionPoint(alloc);
  auto address = memref::GetGlobalOp::create(builder, alloc->getLoc(), type,
                                             global.getSymName());
  alloc->getResult(0).replaceAllUsesWith(address.getResult());
  alloc->erase();
  ++numGlobals;
}

} // namespace
