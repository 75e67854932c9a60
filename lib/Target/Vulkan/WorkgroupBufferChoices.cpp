//===----------------------------------------------------------------------===//
// Workgroup buffers chosen by control flow (a double-buffered kernel's
// tile picked with scf.if, ping-pong buffers carried by scf.for) on the
// vulkan target. Logical SPIR-V has no pointer values to select or carry,
// and gpumem's Vulkan kernel ABI addresses memory from a root it can trace.
//
// Algorithm, per kernel, before its accesses are linearized:
//  1. Choices: every workgroup-memref value that is a result of scf.if,
//     arith.select, scf.for or scf.while, or an iteration argument of a
//     loop region. Its candidates are the kernel's workgroup attributions
//     of the same type; the choice becomes the index of one in that list.
//  2. What flows into a choice (a yielded, selected, initial or forwarded
//     operand) must be a candidate attribution, which becomes an index
//     constant, or another choice, which already is an index.
//  3. Every choice value's type becomes index.
//  4. Each memref.load through a choice loads every candidate and selects
//     by the index (no branch; all candidates have the same shape, so the
//     indices are in bounds of each); each store or atomic runs in a chain
//     of scf.if on the index, one branch per candidate. Anything else
//     that uses a choice is a located error.
//===----------------------------------------------------------------------===//

#include "WorkgroupBufferChoices.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <functional>

using namespace mlir;

namespace {

bool isWorkgroupMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  Attribute space = memref.getMemorySpace();
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto integer = dyn_cast_or_null<IntegerAttr>(space))
    return integer.getInt() == 3;
  return false;
}

struct Chooser {
  gpu::GPUFuncOp kernel;
  /// The chosen values and their memref types, in program order.
  SmallVector<std::pair<Value, MemRefType>> choices;
  DenseSet<Value> isChoice;

  explicit Chooser(gpu::GPUFuncOp kernel) : kernel(kernel) {}

  void collect() {
    auto add = [&](Value value) {
      if (isWorkgroupMemRef(value.getType()) && isChoice.insert(value).second)
        choices.push_back({value, cast<MemRefType>(value.getType())});
    };
    kernel.walk([&](Operation *op) {
      if (!isa<scf::IfOp, arith::SelectOp, scf::ForOp, scf::WhileOp>(op))
        return;
      for (Value result : op->getResults())
        add(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            add(argument);
    });
  }

  /// The kernel's workgroup attributions of `type`, the candidates.
  SmallVector<Value> candidates(MemRefType type) {
    SmallVector<Value> found;
    for (BlockArgument attribution : kernel.getWorkgroupAttributions())
      if (attribution.getType() == type)
        found.push_back(attribution);
    return found;
  }

  /// The operands that flow into choices: yielded by scf.yield or
  /// scf.condition into a choice, selected, or a loop's initial values.
  SmallVector<OpOperand *> inflows() {
    SmallVector<OpOperand *> operands;
    kernel.walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isWorkgroupMemRef(operand.get().getType()))
          continue;
        // Yields into the ops whose memref results are choices only.
        bool intoChoice =
            isa<scf::ConditionOp, arith::SelectOp, scf::ForOp, scf::WhileOp>(
                op) ||
            (isa<scf::YieldOp>(op) &&
             isa<scf::IfOp, scf::ForOp, scf::WhileOp>(op->getParentOp()));
        if (intoChoice)
          operands.push_back(&operand);
      }
    });
    return operands;
  }

  LogicalResult run();
  LogicalResult rewriteAccess(Operation *user, Value choice, MemRefType type);
};

LogicalResult Chooser::rewriteAccess(Operation *user, Value choice,
                                     MemRefType type) {
  SmallVector<Value> all = candidates(type);
  OpBuilder builder(user);
  Location loc = user->getLoc();
  if (auto load = dyn_cast<memref::LoadOp>(user)) {
    // Every candidate, then a chain of selects on the index.
    Value result;
    for (auto [i, candidate] : llvm::enumerate(all)) {
      Value loaded =
          memref::LoadOp::create(builder, loc, candidate, load.getIndices());
      if (!result) {
        result = loaded;
        continue;
      }
      Value here = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, choice,
          arith::ConstantIndexOp::create(builder, loc, i));
      result = arith::SelectOp::create(builder, loc, here, loaded, result);
    }
    load.replaceAllUsesWith(result);
    load.erase();
    return success();
  }
  if (!isa<memref::StoreOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(
          user))
    return user->emitOpError()
           << "uses a workgroup buffer chosen by control flow, which the "
              "vulkan target supports for loads, stores and atomics only";
  // A chain of scf.if on the index (SPIR-V has selections, not switches
  // here): the access with the candidate for the choice in each branch.
  std::function<SmallVector<Value>(OpBuilder &, size_t)> emit =
      [&](OpBuilder &b, size_t i) -> SmallVector<Value> {
    IRMapping mapping;
    mapping.map(choice, all[i]);
    if (i + 1 == all.size())
      return SmallVector<Value>(b.clone(*user, mapping)->getResults());
    Value here =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, choice,
                              arith::ConstantIndexOp::create(b, loc, i));
    auto branch = scf::IfOp::create(b, loc, user->getResultTypes(), here,
                                    /*withElseRegion=*/true);
    // Without results the branches have their scf.yield already.
    bool yields = user->getNumResults() != 0;
    OpBuilder thenBuilder = branch.getThenBodyBuilder();
    Operation *access = thenBuilder.clone(*user, mapping);
    if (yields)
      scf::YieldOp::create(thenBuilder, loc, access->getResults());
    OpBuilder elseBuilder = branch.getElseBodyBuilder();
    SmallVector<Value> rest = emit(elseBuilder, i + 1);
    if (yields)
      scf::YieldOp::create(elseBuilder, loc, rest);
    return SmallVector<Value>(branch.getResults());
  };
  SmallVector<Value> results = emit(builder, 0);
  user->replaceAllUsesWith(results);
  user->erase();
  return success();
}

LogicalResult Chooser::run() {
  collect();
  if (choices.empty())
    return success();
  // 2. What flows into a choice becomes an index.
  for (OpOperand *operand : inflows()) {
    Value value = operand->get();
    if (isChoice.contains(value))
      continue;
    Operation *owner = operand->getOwner();
    auto type = cast<MemRefType>(value.getType());
    SmallVector<Value> all = candidates(type);
    auto *position = llvm::find(all, value);
    if (position == all.end())
      return owner->emitOpError()
             << "passes a workgroup memref through control flow that is not "
                "one of the kernel's workgroup buffers of type "
             << type
             << "; the vulkan target can choose only between such buffers";
    OpBuilder builder(owner);
    operand->set(arith::ConstantIndexOp::create(
        builder, owner->getLoc(), std::distance(all.begin(), position)));
  }
  // 3. Every choice is an index; 4. accesses through it pick a candidate.
  Type index = IndexType::get(kernel.getContext());
  for (auto &[value, type] : choices)
    value.setType(index);
  for (auto &[value, type] : choices) {
    SmallVector<Operation *> users(value.getUsers());
    for (Operation *user : users) {
      if (isa<scf::YieldOp, scf::ConditionOp, arith::SelectOp, scf::ForOp,
              scf::WhileOp>(user))
        continue;
      if (failed(rewriteAccess(user, value, type)))
        return failure();
    }
  }
  return success();
}

} // namespace

LogicalResult
gpumem::vulkan::chooseWorkgroupBuffersByIndex(gpu::GPUFuncOp kernel) {
  return Chooser(kernel).run();
}
