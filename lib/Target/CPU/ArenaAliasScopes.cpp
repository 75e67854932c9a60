//===----------------------------------------------------------------------===//
// The cpu target's LLVM pass that tells LLVM what a block's workgroup arena
// does not alias.
//
// Workgroup memory of a cpu kernel is a view of the block's arena, whose
// address compiled code reads from the thread context (ctx->sharedMemory,
// ctx->dynamicSharedMemory). Nothing else points into the arena: the
// runtime owns it and hands it out only there. LLVM cannot know that, so a
// thread loop that copies a tile of a kernel buffer into workgroup memory
// (a transpose, a tiled matmul) stays scalar: the stores might overwrite
// the next loads.
//
// Algorithm, on each __gpumem_run_blocks_K function after inlining (the
// kernel's code is in it then), right before LLVM's vectorizers:
//  1. The arena bases are the pointer loads from ctx (argument 1) at the
//     offsets of sharedMemory and dynamicSharedMemory. If any of them may
//     be captured (stored, passed to a call, turned into an integer), the
//     function is left alone: then another pointer might point into the
//     arena. The exception: --sanitize's services that only look at an
//     address (accessError, sharedAccess, deviceAccess, addressAccess,
//     argumentCheck, divisionError), called through ctx->services, with
//     the address as a pointer or an integer computed from it; they keep
//     no pointer that code could use.
//  2. Each load and store is classified by the object its address is based
//     on (llvm::getUnderlyingObject): an arena base makes it an arena
//     access; a function argument, an alloca, a global, or a pointer loaded
//     from memory (which, with the arena uncaptured, cannot hold an arena
//     address) makes it an access elsewhere; anything else stays
//     unclassified and unannotated.
//  3. Arena accesses get !alias.scope {arena}, the others !noalias
//     {arena}, so that scoped-noalias alias analysis separates them.
//===----------------------------------------------------------------------===//

#include "ArenaAliasScopes.h"

#include "../HostKernel/ReportingServices.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Operator.h"

#include <cstddef>

using namespace llvm;

namespace {

constexpr int64_t kSharedOffset = offsetof(GPUMemThreadContext, sharedMemory);
constexpr int64_t kDynamicSharedOffset =
    offsetof(GPUMemThreadContext, dynamicSharedMemory);

/// Whether `load` reads one of the arena pointers from `context`.
bool loadsArenaBase(const LoadInst &load, const Value *context,
                    const DataLayout &layout) {
  if (!load.getType()->isPointerTy())
    return false;
  APInt offset(layout.getIndexTypeSizeInBits(load.getPointerOperandType()), 0);
  const Value *base =
      load.getPointerOperand()->stripAndAccumulateConstantOffsets(
          layout, offset, /*AllowNonInbounds=*/true);
  return base == context &&
         (offset == kSharedOffset || offset == kDynamicSharedOffset);
}

/// Whether `call` calls, through ctx->services, one of the sanitizer's
/// services that only look at the addresses they are given.
bool callsReportingService(const CallBase &call, const Value *context,
                           const DataLayout &layout) {
  auto *function = dyn_cast<LoadInst>(call.getCalledOperand());
  if (!function)
    return false;
  APInt offset(layout.getIndexTypeSizeInBits(function->getPointerOperandType()),
               0);
  auto *services = dyn_cast<LoadInst>(
      function->getPointerOperand()->stripAndAccumulateConstantOffsets(
          layout, offset, /*AllowNonInbounds=*/true));
  if (!services)
    return false;
  APInt field(layout.getIndexTypeSizeInBits(services->getPointerOperandType()),
              0);
  if (services->getPointerOperand()->stripAndAccumulateConstantOffsets(
          layout, field, /*AllowNonInbounds=*/true) != context ||
      field != offsetof(GPUMemThreadContext, services))
    return false;
  if (!gpumem::hostkernel::isReportingServiceOffset(offset.getSExtValue()))
    return false;
  return !llvm::is_contained(call.args(), function);
}

/// Whether every use of `value` (an address, as a pointer or an integer)
/// ends in a comparison or an argument of a reporting service, through
/// arithmetic, casts and GEPs.
bool onlyReported(const Value *value, const Value *context,
                  const DataLayout &layout, int depth = 0) {
  if (depth > 8)
    return false;
  for (const User *user : value->users()) {
    if (auto *call = dyn_cast<CallBase>(user)) {
      if (call->getCalledOperand() == value ||
          !callsReportingService(*call, context, layout))
        return false;
      continue;
    }
    if (isa<ICmpInst>(user))
      continue;
    if (isa<BinaryOperator, CastInst, GetElementPtrInst, SelectInst, PHINode>(
            user) &&
        onlyReported(user, context, layout, depth + 1))
      continue;
    return false;
  }
  return true;
}

/// Captures of an arena base, but those of the reporting services.
struct ArenaCaptures : CaptureTracker {
  ArenaCaptures(const Value *context, const DataLayout &layout)
      : context(context), layout(layout) {}
  void tooManyUses() override { escapes = true; }
  Action captured(const Use *use, UseCaptureInfo) override {
    const auto *user = cast<Instruction>(use->getUser());
    if (auto *call = dyn_cast<CallBase>(user))
      if (call->getCalledOperand() != use->get() &&
          callsReportingService(*call, context, layout))
        return Continue;
    if (isa<PtrToIntInst>(user) && onlyReported(user, context, layout))
      return Continue;
    escapes = true;
    return Stop;
  }
  const Value *context;
  const DataLayout &layout;
  bool escapes = false;
};

} // namespace

PreservedAnalyses
gpumem::cpu::ArenaAliasScopesPass::run(Function &function,
                                       FunctionAnalysisManager &) {
  if (!function.getName().starts_with("__gpumem_run_blocks_") ||
      function.arg_size() < 2 || function.isDeclaration())
    return PreservedAnalyses::all();
  const DataLayout &layout = function.getDataLayout();
  const Value *context = function.getArg(1);

  SmallPtrSet<const Value *, 8> arenaBases;
  for (Instruction &instruction : instructions(function))
    if (auto *load = dyn_cast<LoadInst>(&instruction))
      if (loadsArenaBase(*load, context, layout))
        arenaBases.insert(load);
  if (arenaBases.empty())
    return PreservedAnalyses::all();
  for (const Value *base : arenaBases) {
    ArenaCaptures captures(context, layout);
    PointerMayBeCaptured(base, &captures);
    if (captures.escapes)
      return PreservedAnalyses::all();
  }

  enum class Place { Arena, Elsewhere, Unknown };
  auto placeOf = [&](const Value *pointer) {
    const Value *object = getUnderlyingObject(pointer, /*MaxLookup=*/0);
    if (arenaBases.contains(object))
      return Place::Arena;
    if (isa<Argument, AllocaInst, GlobalValue, LoadInst>(object))
      return Place::Elsewhere;
    return Place::Unknown;
  };

  MDBuilder metadata(function.getContext());
  MDNode *domain = metadata.createAnonymousAliasScopeDomain(
      ("gpumem arena of " + function.getName()).str());
  MDNode *arena = metadata.createAnonymousAliasScope(domain, "arena");
  MDNode *arenaList = MDNode::get(function.getContext(), {arena});
  bool changed = false;
  for (Instruction &instruction : instructions(function)) {
    const Value *pointer = getLoadStorePointerOperand(&instruction);
    if (!pointer)
      continue;
    switch (placeOf(pointer)) {
    case Place::Arena:
      instruction.setMetadata(
          LLVMContext::MD_alias_scope,
          MDNode::concatenate(
              instruction.getMetadata(LLVMContext::MD_alias_scope), arenaList));
      changed = true;
      break;
    case Place::Elsewhere:
      instruction.setMetadata(
          LLVMContext::MD_noalias,
          MDNode::concatenate(instruction.getMetadata(LLVMContext::MD_noalias),
                              arenaList));
      changed = true;
      break;
    case Place::Unknown:
      break;
    }
  }
  if (!changed)
    return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}
