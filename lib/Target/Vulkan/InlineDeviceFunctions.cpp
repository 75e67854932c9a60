//===----------------------------------------------------------------------===//
// Device functions inlined into kernels, for the vulkan target.
//
// gpumem's Vulkan kernel ABI traces every memref access to its buffer or
// workgroup array within a kernel, and SPIR-V has no vectors of more than
// 4 elements and no recursion; the first two hold across a call only once
// the callee is inlined (as GPU compilers do anyway). MLIR's inliner pass
// does not inline into gpu.func (the GPU dialect does not declare its
// regions legal inlining destinations), so calls are inlined here with an
// interface that allows it.
//
// First the call graph of the module's func.func bodies (every symbol a
// body references) gives the functions that reach a cycle; a kernel that
// calls one is refused at the call, because SPIR-V cannot express it and
// inlining it would never end. Then rounds over the kernels' func.call ops
// whose callee is a func.func of the module with a body inline each with
// upstream's inlineCall, until a round inlines nothing (the graph is
// acyclic, so rounds end). A call whose callee has several blocks inside a
// single-block region (scf.if, scf.for) stays, and the conversion lowers it
// as a call. Functions no kernel reaches any more are erased.
//===----------------------------------------------------------------------===//

#include "InlineDeviceFunctions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

/// Upstream's dialect hooks, plus: any region of a kernel may receive a
/// device function's body.
struct DeviceFunctionInliner : InlinerInterface {
  using InlinerInterface::InlinerInterface;
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const override {
    return true;
  }
};

/// The func.func ops of `module` that the body of `op` names.
SmallVector<func::FuncOp> referencedFunctions(Operation *op,
                                              SymbolTable &symbols) {
  SmallVector<func::FuncOp> functions;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(&op->getRegion(0));
  if (!uses)
    return functions;
  for (const SymbolTable::SymbolUse &use : *uses)
    if (auto function =
            symbols.lookup<func::FuncOp>(use.getSymbolRef().getRootReference()))
      functions.push_back(function);
  return functions;
}

/// The operations `from` reaches through `callees`, not counting itself
/// unless on a cycle.
llvm::SetVector<Operation *>
reachedFrom(Operation *from,
            const DenseMap<Operation *, SmallVector<func::FuncOp>> &callees) {
  llvm::SetVector<Operation *> reached;
  SmallVector<Operation *> worklist;
  for (func::FuncOp callee : callees.lookup(from))
    worklist.push_back(callee);
  while (!worklist.empty()) {
    Operation *next = worklist.pop_back_val();
    if (!reached.insert(next))
      continue;
    for (func::FuncOp callee : callees.lookup(next))
      worklist.push_back(callee);
  }
  return reached;
}

/// For every function that reaches a cycle of the call graph, one function
/// on such a cycle (to name in the diagnostic).
DenseMap<Operation *, func::FuncOp>
functionsReachingRecursion(gpu::GPUModuleOp module, SymbolTable &symbols) {
  DenseMap<Operation *, SmallVector<func::FuncOp>> callees;
  SmallVector<func::FuncOp> functions;
  for (auto function : module.getOps<func::FuncOp>())
    if (!function.isExternal()) {
      callees[function] = referencedFunctions(function, symbols);
      functions.push_back(function);
    }
  DenseMap<Operation *, llvm::SetVector<Operation *>> reached;
  for (func::FuncOp function : functions)
    reached[function] = reachedFrom(function, callees);
  DenseMap<Operation *, func::FuncOp> reaching;
  for (func::FuncOp function : functions)
    for (func::FuncOp candidate : functions)
      if ((candidate == function || reached[function].contains(candidate)) &&
          reached[candidate].contains(candidate)) {
        reaching[function] = candidate;
        break;
      }
  return reaching;
}

/// Refuses each kernel call whose callee reaches recursion.
LogicalResult
checkNoRecursion(gpu::GPUModuleOp module, SymbolTable &symbols,
                 const DenseMap<Operation *, func::FuncOp> &reaching) {
  bool failed = false;
  for (auto kernel : module.getOps<gpu::GPUFuncOp>())
    kernel.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || !reaching.count(callee))
        return;
      func::FuncOp onCycle = reaching.lookup(callee);
      InFlightDiagnostic diag = call.emitOpError()
                                << "calls @" << callee.getSymName();
      if (onCycle != callee)
        diag << ", which reaches @" << onCycle.getSymName() << ",";
      diag << " which calls itself (directly or through other functions); "
              "SPIR-V has no recursion and the vulkan target inlines device "
              "functions into kernels";
      failed = true;
    });
  return failure(failed);
}

/// Erases the func.func ops that no gpu.func reaches and that only other
/// such functions name.
void eraseUnreachedFunctions(gpu::GPUModuleOp module, SymbolTable &symbols) {
  llvm::SetVector<Operation *> reached;
  SmallVector<Operation *> worklist;
  for (auto kernel : module.getOps<gpu::GPUFuncOp>())
    worklist.push_back(kernel);
  while (!worklist.empty()) {
    Operation *next = worklist.pop_back_val();
    if (!reached.insert(next))
      continue;
    for (func::FuncOp callee : referencedFunctions(next, symbols))
      worklist.push_back(callee);
  }
  SmallVector<func::FuncOp> unreached;
  for (auto function : module.getOps<func::FuncOp>())
    if (!reached.contains(function))
      unreached.push_back(function);
  auto isUnreached = [&](Operation *user) {
    auto function = user->getParentOfType<func::FuncOp>();
    return function && !reached.contains(function);
  };
  SmallVector<func::FuncOp> erasable;
  for (func::FuncOp function : unreached) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    if (uses && llvm::all_of(*uses, [&](const SymbolTable::SymbolUse &use) {
          return isUnreached(use.getUser());
        }))
      erasable.push_back(function);
  }
  for (func::FuncOp function : erasable)
    function.erase();
}

} // namespace

LogicalResult gpumem::vulkan::inlineDeviceFunctions(gpu::GPUModuleOp module) {
  DeviceFunctionInliner interface(module.getContext());
  InlinerConfig config;
  SymbolTable symbols(module);
  if (failed(checkNoRecursion(module, symbols,
                              functionsReachingRecursion(module, symbols))))
    return failure();
  for (bool inlined = true; inlined;) {
    inlined = false;
    SmallVector<func::CallOp> calls;
    for (auto kernel : module.getOps<gpu::GPUFuncOp>())
      if (kernel.isKernel())
        kernel.walk([&](func::CallOp call) { calls.push_back(call); });
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        continue;
      // Several blocks cannot go into a region that must have one.
      if (!callee.getBody().hasOneBlock() &&
          call->getParentOp()->hasTrait<OpTrait::SingleBlock>())
        continue;
      if (failed(inlineCall(interface, config.getCloneCallback(), call,
                            cast<CallableOpInterface>(callee.getOperation()),
                            &callee.getBody())))
        continue;
      call.erase();
      inlined = true;
    }
  }
  // Functions no kernel reaches go: they may hold what only folds inside a
  // kernel (vectors of more than 4 elements).
  eraseUnreachedFunctions(module, symbols);
  return success();
}
