//===----------------------------------------------------------------------===//
// Kernels with barriers or warp operations as stackless coroutines, for the
// targets that run GPU device code on host cores (cuda-emu).
//
// A thread that waits at a barrier must let the other threads of its block
// run. Fibers do that by switching stacks, which costs two context switches
// per thread and barrier; a coroutine returns to the runtime's scheduler
// instead, its live values kept in a small frame, and is resumed by a call.
// Algorithm, on a kernel in its GPU dialect's form (NVVM for cuda-emu):
//  1. Inline every call that reaches a barrier or warp operation, so that
//     all suspension points are in the kernel (LLVM coroutines suspend only
//     in their own body), and move allocas to the entry block (coroutine
//     frames hold only static allocas). Recursion, a dynamic alloca or
//     stack save/restore leave the kernel on fibers.
//  2. (The target's op patterns: cuda-emu's NVVMOps.cpp, NVVMWarpOps.cpp)
//     Each barrier or warp operation becomes its runtime service call,
//     marked to suspend after it; a warp operation's result is read after
//     the resumption.
//  3. Here: the kernel becomes an LLVM switch-resumed coroutine. Its frame
//     comes from the runtime (services->coroutineFrame), it suspends after
//     every marked call, and each return becomes services->coroutineReturned
//     followed by the final suspension. LLVM's CoroSplit, in the optimization
//     pipeline that compiles the module, makes the ramp and resume functions.
//===----------------------------------------------------------------------===//

#include "DeviceFunctions.h"

#include "HostCode.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstddef>

using namespace mlir;
using namespace gpumem::hostkernel;

/// Moves every alloca of a constant size to the kernel's entry block: LLVM's
/// coroutine frames hold only such static allocas. An alloca in a loop then
/// reuses one buffer, which is what private memory means on a GPU. Fails on
/// a dynamic size or on stack save/restore, which keep the kernel on fibers.
static LogicalResult hoistAllocas(LLVM::LLVMFuncOp kernel) {
  Block &entry = kernel.getBody().front();
  SmallVector<LLVM::AllocaOp> allocas;
  bool movable = true;
  kernel.walk([&](Operation *op) {
    if (isa<LLVM::StackSaveOp, LLVM::StackRestoreOp>(op))
      movable = false;
    auto alloca = dyn_cast<LLVM::AllocaOp>(op);
    if (!alloca)
      return;
    if (!alloca.getArraySize().getDefiningOp<LLVM::ConstantOp>())
      movable = false;
    else if (alloca->getBlock() != &entry)
      allocas.push_back(alloca);
  });
  if (!movable)
    return failure();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  for (LLVM::AllocaOp alloca : allocas) {
    Operation *size = builder.clone(*alloca.getArraySize().getDefiningOp());
    alloca->moveAfter(size);
    alloca->setOperand(0, size->getResult(0));
    builder.setInsertionPointAfter(alloca);
  }
  return success();
}

/// The operations inlining every synchronizing call of `function` would
/// give it, or nullopt where those calls recurse (or exceed `budget`).
/// `sizes` memoizes each callee's; `active` holds the functions being
/// counted, whose reappearance is recursion.
static std::optional<int64_t>
inlinedSize(LLVM::LLVMFuncOp function, SymbolTable &symbols,
            function_ref<bool(Operation *)> synchronizes,
            DenseMap<Operation *, int64_t> &sizes,
            SmallPtrSetImpl<Operation *> &active, int64_t budget) {
  if (auto known = sizes.find(function); known != sizes.end())
    return known->second;
  if (!active.insert(function).second)
    return std::nullopt;
  int64_t size = 0;
  WalkResult walk = function.walk([&](Operation *op) {
    ++size;
    auto call = dyn_cast<LLVM::CallOp>(op);
    std::optional<StringRef> name = call ? call.getCallee() : std::nullopt;
    auto callee =
        name ? dyn_cast_if_present<LLVM::LLVMFuncOp>(symbols.lookup(*name))
             : LLVM::LLVMFuncOp();
    if (callee && !callee.isExternal() && synchronizes(callee)) {
      std::optional<int64_t> inlined =
          inlinedSize(callee, symbols, synchronizes, sizes, active, budget);
      if (!inlined)
        return WalkResult::interrupt();
      size += *inlined;
    }
    return size > budget ? WalkResult::interrupt() : WalkResult::advance();
  });
  active.erase(function);
  if (walk.wasInterrupted())
    return std::nullopt;
  sizes[function] = size;
  return size;
}

LogicalResult gpumem::hostkernel::inlineSynchronizingCalls(
    LLVM::LLVMFuncOp kernel, function_ref<bool(Operation *)> synchronizes) {
  MLIRContext *context = kernel.getContext();
  InlinerInterface interface(context);
  InlinerConfig config;
  SymbolTable symbols(kernel->getParentOfType<gpu::GPUModuleOp>());
  // Recursion (which inlining would unroll without end, doubling a
  // function that calls itself twice each round) and call trees that
  // inline to more than this many operations stay on fibers.
  constexpr int64_t kInlinedOpsBudget = 1 << 18;
  {
    DenseMap<Operation *, int64_t> sizes;
    SmallPtrSet<Operation *, 8> active;
    if (!inlinedSize(kernel, symbols, synchronizes, sizes, active,
                     kInlinedOpsBudget))
      return failure();
  }
  // Each round inlines one level of calls.
  while (true) {
    SmallVector<std::pair<LLVM::CallOp, LLVM::LLVMFuncOp>> calls;
    kernel.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> name = call.getCallee();
      if (!name)
        return;
      auto callee =
          dyn_cast_if_present<LLVM::LLVMFuncOp>(symbols.lookup(*name));
      if (callee && !callee.isExternal() && synchronizes(callee))
        calls.push_back({call, callee});
    });
    if (calls.empty())
      return hoistAllocas(kernel);
    for (auto [call, callee] : calls) {
      if (failed(inlineCall(interface, config.getCloneCallback(),
                            cast<CallOpInterface>(call.getOperation()),
                            cast<CallableOpInterface>(callee.getOperation()),
                            &callee.getBody())))
        return failure();
      call.erase();
    }
  }
}

void gpumem::hostkernel::makeCoroutine(LLVM::LLVMFuncOp kernel) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  Region &body = kernel.getBody();
  Value ctx = kernel.getArgument(kernel.getNumArguments() - 1);
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto token = LLVM::LLVMTokenType::get(context);
  OpBuilder builder(context);
  Type i1 = builder.getI1Type(), i8 = builder.getI8Type();

  SmallVector<Operation *> suspendAfter;
  SmallVector<LLVM::ReturnOp> returns;
  kernel.walk([&](Operation *op) {
    if (op->hasAttr(kSuspendAfterAttr))
      suspendAfter.push_back(op);
    if (auto ret = dyn_cast<LLVM::ReturnOp>(op))
      returns.push_back(ret);
  });

  // The frame and the handle, first thing.
  builder.setInsertionPointToStart(&body.front());
  ContextAccess access(builder, loc, ctx);
  Value null = LLVM::ZeroOp::create(builder, loc, ptr);
  Value zero = LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                        builder.getI32IntegerAttr(0));
  Value id =
      LLVM::CoroIdOp::create(builder, loc, token, zero, null, null, null);
  Value size = LLVM::CoroSizeOp::create(builder, loc, builder.getI64Type());
  Value memory =
      access.call(GPUMEM_RUNTIME_SERVICE(coroutineFrame), {ctx, size});
  Value handle = LLVM::CoroBeginOp::create(builder, loc, ptr, id, memory);

  // Leaving (at a suspension): end the coroutine's part and return the
  // handle. The frame belongs to the runtime: cleanup frees nothing.
  auto *suspended = new Block();
  body.push_back(suspended);
  builder.setInsertionPointToStart(suspended);
  Value none = LLVM::NoneTokenOp::create(builder, loc, token);
  Value no =
      LLVM::ConstantOp::create(builder, loc, i1, builder.getBoolAttr(false));
  LLVM::CoroEndOp::create(builder, loc, i1, handle, no, none);
  LLVM::ReturnOp::create(builder, loc, handle);
  auto *cleanup = new Block();
  body.push_back(cleanup);
  builder.setInsertionPointToStart(cleanup);
  LLVM::BrOp::create(builder, loc, ValueRange(), suspended);
  auto *finished = new Block();
  body.push_back(finished);
  builder.setInsertionPointToStart(finished);
  LLVM::UnreachableOp::create(builder, loc);

  auto suspend = [&](bool final, Block *resumed) {
    Value none = LLVM::NoneTokenOp::create(builder, loc, token);
    Value isFinal =
        LLVM::ConstantOp::create(builder, loc, i1, builder.getBoolAttr(final));
    Value state = LLVM::CoroSuspendOp::create(builder, loc, i8, none, isFinal);
    // -1: suspended, 0: resumed, 1: destroyed.
    LLVM::SwitchOp::create(builder, loc, state, suspended, ValueRange(),
                           ArrayRef<APInt>{APInt(8, 0), APInt(8, 1)},
                           BlockRange{resumed, cleanup},
                           ArrayRef<ValueRange>{ValueRange(), ValueRange()});
  };
  for (Operation *call : suspendAfter) {
    call->removeAttr(kSuspendAfterAttr);
    Block *before = call->getBlock();
    Block *after = before->splitBlock(std::next(call->getIterator()));
    builder.setInsertionPointToEnd(before);
    suspend(/*final=*/false, after);
  }
  for (LLVM::ReturnOp ret : returns) {
    builder.setInsertionPoint(ret);
    ContextAccess here(builder, ret.getLoc(), ctx);
    here.call(GPUMEM_RUNTIME_SERVICE(coroutineReturned), {ctx});
    suspend(/*final=*/true, finished);
    ret.erase();
  }

  LLVM::LLVMFunctionType type = kernel.getFunctionType();
  kernel.setFunctionType(
      LLVM::LLVMFunctionType::get(ptr, type.getParams(), type.isVarArg()));
  kernel.setPassthroughAttr(
      builder.getArrayAttr({builder.getStringAttr("presplitcoroutine")}));
}
