//===----------------------------------------------------------------------===//
// memcheck at the speed of the unchecked kernel, for the blocks that
// cannot go out of bounds (VersionBoundsChecks.h).
//
// A bounds check on every access puts a branch and a call into every
// thread loop, and LLVM then vectorizes none of them. Most accesses of
// most kernels index with affine functions of the thread and block ids,
// the kernel's scalar arguments and its own loops' induction variables,
// whose ranges over a whole block are known before the block runs. So, in
// each __gpumem_run_blocks_K wrapper, right before the code that runs one
// block (the call of the block-wide copy, or the thread loops around the
// call of the kernel):
//  1. The callee is cloned. For each access of the clone (memref.load,
//     memref.store, atomics, vector.load, vector.store) whose memref is a
//     kernel argument (through casts) or a buffer of static shape made in
//     the kernel, each index is evaluated as an interval [lo, hi] of the
//     whole block, as code in the wrapper: constants and the kernel's
//     scalar arguments are points; ctx->threadId[d] is [0, blockDim[d]-1],
//     the other block values (blockId, blockDim, gridDim) are points read
//     from the context; scf.for induction variables are [lb.lo, ub.hi-1];
//     addi, subi, muli, casts, min/max, select, and division, remainder,
//     shifts and masks by positive constants map intervals to intervals.
//     Anything else (a loaded index, a while loop's value) leaves that
//     access unproved and checked as before.
//  2. Overflow: every interval's ends must fit 32 signed bits (or the
//     value's own width when smaller), so that no sum or product of the
//     evaluation, nor any op of the kernel, wraps; that is part of the
//     condition, like lo >= 0 and hi (+ a vector's extent - 1) < dim for
//     every dimension of every proved access, and ctx->freedArguments == 0
//     (no memref argument lies in freed memory).
//  3. The clone's proved accesses get hostkernel::kInBoundsMark, and the
//     block runs `scf.if condition { the code calling the clone } else {
//     the code calling the kernel }`: the condition costs a few dozen
//     integer ops per block, the clone's thread loops have no checks left
//     and vectorize as the unchecked kernel's do. A block the condition
//     cannot clear runs the checked kernel, which reports what is out; its
//     call is not inlined (its service calls get the context, and LLVM
//     would then reload the thread ids from it in the proved loops too).
//===----------------------------------------------------------------------===//

#include "VersionBoundsChecks.h"

#include "../HostKernel/HostCode.h"
#include "../HostKernel/SanitizeMemRefAccesses.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstddef>
#include <optional>

using namespace mlir;
using namespace gpumem;

namespace {

constexpr int64_t kThreadIdField = offsetof(GPUMemThreadContext, threadId);
constexpr int64_t kBlockIdField = offsetof(GPUMemThreadContext, blockId);
constexpr int64_t kBlockDimField = offsetof(GPUMemThreadContext, blockDim);
constexpr int64_t kGridDimField = offsetof(GPUMemThreadContext, gridDim);
constexpr int64_t kFreedArgumentsField =
    offsetof(GPUMemThreadContext, freedArguments);

/// A closed interval of index values over a whole block, as values of the
/// wrapper.
struct Range {
  Value lo, hi;
};

/// Evaluates values of a kernel (`callee`, called with `operands`) as
/// ranges, in code built at `builder`'s insertion point in the wrapper,
/// and collects the conditions the ranges rely on.
class BlockRanges {
public:
  BlockRanges(OpBuilder &builder, Location loc, func::FuncOp callee,
              ValueRange operands, Operation *insertionOp)
      : builder(builder), loc(loc), callee(callee), operands(operands),
        insertionOp(insertionOp), dominance(insertionOp->getParentOp()) {}

  /// The range of `value`, or nullopt when it is not known.
  std::optional<Range> get(Value value) {
    auto known = ranges.find(value);
    if (known != ranges.end())
      return known->second;
    std::optional<Range> range = compute(value);
    if (range)
      range = bounded(*range, value.getType());
    ranges[value] = range;
    return range;
  }

  /// Adds `condition` (an i1 of the wrapper) to what the ranges rely on;
  /// false when it is known to be false.
  bool require(Value condition) {
    if (matchPattern(condition, m_One()))
      return true;
    if (matchPattern(condition, m_Zero()))
      return false;
    conditions.insert(condition);
    return true;
  }

  /// The size of dimension `d` of `memref` (of the callee), or null.
  Value getDim(Value memref, int64_t d) {
    auto type = cast<MemRefType>(memref.getType());
    if (!type.isDynamicDim(d))
      return constant(type.getDimSize(d));
    Value outer = getOuterMemRef(memref);
    return outer ? builder.createOrFold<memref::DimOp>(loc, outer, d) : Value();
  }

  /// The wrapper's memref for a kernel argument `memref` (through casts),
  /// or null.
  Value getOuterMemRef(Value memref) {
    while (auto cast = memref.getDefiningOp<memref::CastOp>())
      memref = cast.getSource();
    int64_t number = getArgumentNumber(memref);
    return number < 0 ? Value() : operands[number];
  }

  /// Whether `memref` is a kernel argument (through casts), outside
  /// workgroup memory.
  bool isArgument(Value memref) {
    return getOuterMemRef(memref) &&
           !isWorkgroupMemorySpace(
               cast<MemRefType>(memref.getType()).getMemorySpace());
  }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }
  Value cmp(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return builder.createOrFold<arith::CmpIOp>(loc, predicate, lhs, rhs);
  }
  Value add(Value a, Value b) {
    return builder.createOrFold<arith::AddIOp>(loc, a, b);
  }
  Value sub(Value a, Value b) {
    return builder.createOrFold<arith::SubIOp>(loc, a, b);
  }

  /// Every condition added, and'ed (true when there is none).
  Value getCondition() {
    Value all =
        arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1);
    for (Value condition : conditions)
      all = builder.createOrFold<arith::AndIOp>(loc, all, condition);
    return all;
  }

  /// The number of conditions added so far, and dropping those after it
  /// (when an access turns out unprovable after all).
  size_t mark() const { return conditions.size(); }
  void rewind(size_t to) {
    while (conditions.size() > to)
      conditions.pop_back();
  }

private:
  OpBuilder &builder;
  Location loc;
  func::FuncOp callee;
  ValueRange operands;
  Operation *insertionOp;
  DominanceInfo dominance;
  DenseMap<Value, std::optional<Range>> ranges;
  llvm::SmallSetVector<Value, 16> conditions;

  Value getContext() { return callee.getArguments().back(); }

  /// The argument number of `value` in the callee's entry block (not the
  /// context), or -1.
  int64_t getArgumentNumber(Value value) {
    auto argument = dyn_cast<BlockArgument>(value);
    if (!argument || argument.getOwner() != &callee.front() ||
        argument == getContext())
      return -1;
    if (!dominance.properlyDominates(operands[argument.getArgNumber()],
                                     insertionOp))
      return -1;
    return argument.getArgNumber();
  }

  static std::optional<unsigned> getWidth(Type type) {
    if (type.isIndex())
      return 64;
    if (auto integer = dyn_cast<IntegerType>(type))
      return integer.getWidth();
    return std::nullopt;
  }

  Value toIndex(Value value) {
    if (value.getType().isIndex())
      return value;
    return builder.createOrFold<arith::IndexCastOp>(loc, builder.getIndexType(),
                                                    value);
  }

  Value loadField(int64_t offset) {
    return toIndex(hostkernel::ContextAccess(builder, loc, operands.back())
                       .load(operands.back(), offset, builder.getI64Type()));
  }

  /// `range` once its ends are required to fit `type`'s signed range, at
  /// most 32 bits.
  std::optional<Range> bounded(Range range, Type type) {
    std::optional<unsigned> width = getWidth(type);
    if (!width || *width < 2)
      return std::nullopt;
    unsigned bits = std::min(*width, 32u);
    Value smallest = constant(-(int64_t(1) << (bits - 1)));
    Value largest = constant((int64_t(1) << (bits - 1)) - 1);
    if (!require(cmp(arith::CmpIPredicate::sge, range.lo, smallest)) ||
        !require(cmp(arith::CmpIPredicate::sle, range.hi, largest)))
      return std::nullopt;
    return range;
  }

  bool requireNonNegative(Range range) {
    return require(cmp(arith::CmpIPredicate::sge, range.lo, constant(0)));
  }

  /// A positive constant `value` (of the callee), or nullopt.
  static std::optional<int64_t> getPositiveConstant(Value value) {
    std::optional<int64_t> constant = getConstantIntValue(value);
    if (!constant || *constant <= 0)
      return std::nullopt;
    return constant;
  }

  /// The range of a field of the context loaded at `address`.
  std::optional<Range> getContextField(Value address) {
    // (The canonicalizer drops the GEP of field 0, threadId[0].)
    int64_t offset = 0;
    if (address != getContext()) {
      auto gep = address.getDefiningOp<LLVM::GEPOp>();
      if (!gep || gep.getBase() != getContext() ||
          !gep.getDynamicIndices().empty() ||
          gep.getRawConstantIndices().size() != 1 ||
          !gep.getElemType().isInteger(8))
        return std::nullopt;
      offset = gep.getRawConstantIndices()[0];
    }
    for (int64_t d = 0; d < 3; ++d) {
      if (offset == kThreadIdField + 8 * d)
        return Range{constant(0),
                     sub(loadField(kBlockDimField + 8 * d), constant(1))};
      for (int64_t field : {kBlockIdField, kBlockDimField, kGridDimField})
        if (offset == field + 8 * d) {
          Value value = loadField(offset);
          return Range{value, value};
        }
    }
    return std::nullopt;
  }

  /// `range` through an op that does not decrease (`apply` builds it on
  /// an end).
  Range monotone(Range range, llvm::function_ref<Value(Value)> apply) {
    return Range{apply(range.lo), apply(range.hi)};
  }

  std::optional<Range> compute(Value value) {
    if (!getWidth(value.getType()))
      return std::nullopt;
    if (std::optional<int64_t> known = getConstantIntValue(value)) {
      Value point = constant(*known);
      return Range{point, point};
    }
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      int64_t number = getArgumentNumber(argument);
      if (number >= 0) {
        Value point = toIndex(operands[number]);
        return Range{point, point};
      }
      auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
      if (!loop || argument != loop.getInductionVar() || loop.getUnsignedCmp())
        return std::nullopt;
      std::optional<Range> lower = get(loop.getLowerBound());
      std::optional<Range> upper = get(loop.getUpperBound());
      if (!lower || !upper)
        return std::nullopt;
      // (A loop that no thread enters gives hi < lo: its accesses never
      // run, whatever the condition says of them.)
      return Range{lower->lo, sub(upper->hi, constant(1))};
    }
    Operation *def = value.getDefiningOp();
    return llvm::TypeSwitch<Operation *, std::optional<Range>>(def)
        .Case([&](arith::AddIOp op) -> std::optional<Range> {
          auto a = get(op.getLhs()), b = get(op.getRhs());
          if (!a || !b)
            return std::nullopt;
          return Range{add(a->lo, b->lo), add(a->hi, b->hi)};
        })
        .Case([&](arith::SubIOp op) -> std::optional<Range> {
          auto a = get(op.getLhs()), b = get(op.getRhs());
          if (!a || !b)
            return std::nullopt;
          return Range{sub(a->lo, b->hi), sub(a->hi, b->lo)};
        })
        .Case([&](arith::MulIOp op) {
          return multiply(op.getLhs(), op.getRhs());
        })
        .Case([&](arith::ShLIOp op) -> std::optional<Range> {
          std::optional<int64_t> shift = getConstantIntValue(op.getRhs());
          if (!shift || *shift < 0 || *shift > 31)
            return std::nullopt;
          std::optional<Range> a = get(op.getLhs());
          if (!a)
            return std::nullopt;
          Value factor = constant(int64_t(1) << *shift);
          return monotone(*a, [&](Value end) {
            return builder.createOrFold<arith::MulIOp>(loc, end, factor);
          });
        })
        .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
            [&](Operation *op) { return get(op->getOperand(0)); })
        .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
            [&](Operation *op) -> std::optional<Range> {
              std::optional<Range> a = get(op->getOperand(0));
              if (!a || !requireNonNegative(*a))
                return std::nullopt;
              return a;
            })
        .Case<arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
              arith::DivUIOp, arith::CeilDivUIOp, arith::ShRSIOp,
              arith::ShRUIOp>([&](Operation *op) -> std::optional<Range> {
          std::optional<int64_t> divisor =
              getPositiveConstant(op->getOperand(1));
          std::optional<Range> a = get(op->getOperand(0));
          if (!divisor || !a)
            return std::nullopt;
          if (isa<arith::ShRSIOp, arith::ShRUIOp>(op) && *divisor > 31)
            return std::nullopt;
          bool isUnsigned =
              isa<arith::DivUIOp, arith::CeilDivUIOp, arith::ShRUIOp>(op);
          if (isUnsigned && !requireNonNegative(*a))
            return std::nullopt;
          // The same op, on index ends (a non-negative range divides the
          // same way signed or not).
          return monotone(*a, [&](Value end) -> Value {
            Value by = constant(*divisor);
            return TypeSwitch<Operation *, Value>(op)
                .Case<arith::DivSIOp, arith::DivUIOp>([&](auto) {
                  return builder.createOrFold<arith::DivSIOp>(loc, end, by);
                })
                .Case([&](arith::FloorDivSIOp) {
                  return builder.createOrFold<arith::FloorDivSIOp>(loc, end,
                                                                   by);
                })
                .Case<arith::CeilDivSIOp, arith::CeilDivUIOp>([&](auto) {
                  return builder.createOrFold<arith::CeilDivSIOp>(loc, end, by);
                })
                .Default([&](Operation *) {
                  return builder.createOrFold<arith::ShRSIOp>(loc, end, by);
                });
          });
        })
        .Case<arith::RemSIOp, arith::RemUIOp, arith::AndIOp>(
            [&](Operation *op) -> std::optional<Range> {
              // x % c and x & c of a non-negative x: [0, c - 1] and [0, c].
              Value x = op->getOperand(0), by = op->getOperand(1);
              if (isa<arith::AndIOp>(op) && getConstantIntValue(x))
                std::swap(x, by);
              std::optional<int64_t> c = getConstantIntValue(by);
              std::optional<Range> a = get(x);
              if (!a || !c || *c < (isa<arith::AndIOp>(op) ? 0 : 1) ||
                  !requireNonNegative(*a))
                return std::nullopt;
              return Range{constant(0),
                           constant(isa<arith::AndIOp>(op) ? *c : *c - 1)};
            })
        .Case<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(
            [&](Operation *op) -> std::optional<Range> {
              auto a = get(op->getOperand(0)), b = get(op->getOperand(1));
              if (!a || !b)
                return std::nullopt;
              if (isa<arith::MinUIOp, arith::MaxUIOp>(op) &&
                  (!requireNonNegative(*a) || !requireNonNegative(*b)))
                return std::nullopt;
              if (isa<arith::MinSIOp, arith::MinUIOp>(op))
                return Range{min(a->lo, b->lo), min(a->hi, b->hi)};
              return Range{max(a->lo, b->lo), max(a->hi, b->hi)};
            })
        .Case([&](arith::SelectOp op) -> std::optional<Range> {
          auto a = get(op.getTrueValue()), b = get(op.getFalseValue());
          if (!a || !b)
            return std::nullopt;
          return Range{min(a->lo, b->lo), max(a->hi, b->hi)};
        })
        .Case([&](LLVM::LoadOp op) { return getContextField(op.getAddr()); })
        .Case([&](memref::DimOp op) -> std::optional<Range> {
          std::optional<int64_t> d = op.getConstantIndex();
          auto type = dyn_cast<MemRefType>(op.getSource().getType());
          if (!d || !type || *d < 0 || *d >= type.getRank())
            return std::nullopt;
          Value size = getDim(op.getSource(), *d);
          if (!size)
            return std::nullopt;
          return Range{size, size};
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  Value min(Value a, Value b) {
    return builder.createOrFold<arith::MinSIOp>(loc, a, b);
  }
  Value max(Value a, Value b) {
    return builder.createOrFold<arith::MaxSIOp>(loc, a, b);
  }

  std::optional<Range> multiply(Value lhs, Value rhs) {
    auto a = get(lhs), b = get(rhs);
    if (!a || !b)
      return std::nullopt;
    auto mul = [&](Value x, Value y) {
      return builder.createOrFold<arith::MulIOp>(loc, x, y);
    };
    // By a constant, the ends map to ends.
    for (auto [range, factor] : {std::pair{*a, rhs}, std::pair{*b, lhs}})
      if (std::optional<int64_t> c = getConstantIntValue(factor)) {
        Value by = constant(*c);
        if (*c >= 0)
          return Range{mul(range.lo, by), mul(range.hi, by)};
        return Range{mul(range.hi, by), mul(range.lo, by)};
      }
    Value products[4] = {mul(a->lo, b->lo), mul(a->lo, b->hi),
                         mul(a->hi, b->lo), mul(a->hi, b->hi)};
    return Range{
        min(min(products[0], products[1]), min(products[2], products[3])),
        max(max(products[0], products[1]), max(products[2], products[3]))};
  }
};

/// Whether `memref` (of the callee) is a buffer whose accesses' indices
/// alone keep them inside it: a kernel argument outside workgroup memory,
/// or a buffer of static shape the kernel made (an allocation, a global,
/// a planned workgroup buffer).
bool hasPlainBounds(Value memref, BlockRanges &ranges) {
  if (ranges.isArgument(memref))
    return true;
  auto type = cast<MemRefType>(memref.getType());
  Operation *def = memref.getDefiningOp();
  return def && type.hasStaticShape() &&
         isa<memref::AllocaOp, memref::AllocOp, memref::GetGlobalOp,
             memref::ViewOp, UnrealizedConversionCastOp>(def);
}

/// Requires `op`'s indices inside its memref; false (with nothing
/// required) when they cannot be shown to be.
bool proveInBounds(Operation *op, BlockRanges &ranges) {
  std::optional<hostkernel::MemRefAccess> access =
      hostkernel::describeMemRefAccess(op);
  if (!access || op->hasAttr("gpumem.async_copy_probe") ||
      !hasPlainBounds(access->memref, ranges))
    return false;
  size_t mark = ranges.mark();
  for (auto [d, index] : llvm::enumerate(access->indices)) {
    std::optional<Range> range = ranges.get(index);
    Value size = ranges.getDim(access->memref, int64_t(d));
    bool last = d + 1 == access->indices.size();
    if (!range || !size) {
      ranges.rewind(mark);
      return false;
    }
    Value hi = range->hi;
    if (last && access->lastExtent > 1)
      hi = ranges.add(hi, ranges.constant(access->lastExtent - 1));
    if (!ranges.require(ranges.cmp(arith::CmpIPredicate::sge, range->lo,
                                   ranges.constant(0))) ||
        !ranges.require(ranges.cmp(arith::CmpIPredicate::slt, hi, size))) {
      ranges.rewind(mark);
      return false;
    }
  }
  return true;
}

/// Versions the block code around `call` (of the kernel or its block-wide
/// copy) in a run_blocks wrapper; false when nothing could be proved.
bool versionCall(func::CallOp call, SymbolTable &symbols) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  auto wrapper = call->getParentOfType<func::FuncOp>();
  if (!callee || callee.isExternal() || call.getNumOperands() == 0 ||
      callee.getNumArguments() != call.getNumOperands() ||
      !isa<LLVM::LLVMPointerType>(call.getOperands().back().getType()))
    return false;
  // The op of the block loop's body that holds the call.
  Operation *blockCode = call;
  while (blockCode->getParentOp() &&
         !(isa<scf::ForOp>(blockCode->getParentOp()) &&
           blockCode->getParentOp()->getParentOp() == wrapper))
    blockCode = blockCode->getParentOp();
  if (!blockCode->getParentOp() || blockCode->getNumResults() != 0)
    return false;

  auto copy = cast<func::FuncOp>(callee->clone());
  copy.setName((callee.getName() + "_in_bounds").str());
  OpBuilder builder(blockCode);
  Location loc = call.getLoc();
  BlockRanges ranges(builder, loc, copy, call.getOperands(), blockCode);
  SmallVector<Operation *> proved;
  copy.walk([&](Operation *op) {
    if (proveInBounds(op, ranges))
      proved.push_back(op);
  });
  if (proved.empty()) {
    copy->destroy();
    return false;
  }
  for (Operation *op : proved)
    op->setAttr(hostkernel::kInBoundsMark, builder.getUnitAttr());
  symbols.insert(copy, std::next(Block::iterator(callee)));
  Value context = call.getOperands().back();
  Value freed = hostkernel::ContextAccess(builder, loc, context)
                    .load(context, kFreedArgumentsField, builder.getI64Type());
  ranges.require(arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, freed,
      arith::ConstantIntOp::create(builder, loc, builder.getI64Type(), 0)));
  Value condition = ranges.getCondition();
  auto choice = scf::IfOp::create(builder, loc, condition,
                                  /*withElseRegion=*/true);
  blockCode->moveBefore(choice.elseBlock()->getTerminator());
  builder.setInsertionPoint(choice.thenBlock()->getTerminator());
  Operation *provedCode = builder.clone(*blockCode);
  provedCode->walk([&](func::CallOp inner) {
    if (inner.getCallee() == callee.getName())
      inner.setCallee(copy.getName());
  });
  // The checked kernel stays a call: inlined, its service calls, which get
  // the context, would keep LLVM from holding the thread ids in registers
  // in the proved copy's loops too.
  blockCode->walk([&](func::CallOp inner) {
    if (inner.getCallee() == callee.getName())
      inner.setNoInline(true);
  });
  return true;
}

} // namespace

int gpumem::cpu::versionBoundsChecks(gpu::GPUModuleOp module) {
  SymbolTable symbols(module);
  SmallVector<func::CallOp> calls;
  for (auto wrapper : module.getOps<func::FuncOp>())
    if (wrapper.getName().starts_with("__gpumem_run_blocks_") &&
        !wrapper.isExternal())
      wrapper.walk([&](func::CallOp call) { calls.push_back(call); });
  int versioned = 0;
  for (func::CallOp call : calls)
    versioned += versionCall(call, symbols);
  return versioned;
}
