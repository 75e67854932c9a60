//===----------------------------------------------------------------------===//
// Device functions inlined into kernels, for the vulkan target.
//
// gpumem's Vulkan kernel ABI traces every memref access to its buffer or
// workgroup array within a kernel, and SPIR-V has no vectors of more than
// 4 elements; both hold across a call only once the callee is inlined (as
// GPU compilers do anyway). MLIR's inliner pass does not inline into
// gpu.func (the GPU dialect does not declare its regions legal inlining
// destinations), so calls are inlined here with an interface that allows
// it: rounds over the kernels' func.call ops whose callee is a func.func of
// the module with a body, each inlined with upstream's inlineCall, until a
// round inlines nothing or after kMaxRounds (recursion). A call whose callee
// has several blocks inside a single-block region (scf.if, scf.for) stays,
// and the conversion lowers it as a call. Functions left without callers are
// erased.
//===----------------------------------------------------------------------===//

#include "InlineDeviceFunctions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;

namespace {

constexpr int kMaxRounds = 16;

/// Upstream's dialect hooks, plus: any region of a kernel may receive a
/// device function's body.
struct DeviceFunctionInliner : InlinerInterface {
  using InlinerInterface::InlinerInterface;
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const override {
    return true;
  }
};

} // namespace

void gpumem::vulkan::inlineDeviceFunctions(gpu::GPUModuleOp module) {
  DeviceFunctionInliner interface(module.getContext());
  InlinerConfig config;
  SymbolTable symbols(module);
  for (int round = 0; round < kMaxRounds; ++round) {
    SmallVector<func::CallOp> calls;
    for (auto kernel : module.getOps<gpu::GPUFuncOp>())
      if (kernel.isKernel())
        kernel.walk([&](func::CallOp call) { calls.push_back(call); });
    bool inlined = false;
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
    if (!inlined)
      break;
  }
  // Functions nobody calls any more go: they may hold what only folds
  // inside a kernel (vectors of more than 4 elements).
  for (bool erased = true; erased;) {
    erased = false;
    for (auto function :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (SymbolTable::symbolKnownUseEmpty(function, module)) {
        function.erase();
        erased = true;
      }
  }
}
