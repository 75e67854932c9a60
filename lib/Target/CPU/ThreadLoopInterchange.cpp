//===----------------------------------------------------------------------===//
// Which uniform loops thread-loop fission runs outside its thread loops.
//
// Fission (BarrierFission.cpp) runs the ops of a segment inside a loop nest
// over the block's threads. A loop with the same bounds in every thread,
// say a dot product over k, then runs inside the loop over x, and LLVM's
// vectorizer, which vectorizes innermost loops only, sees a per-thread
// reduction it cannot vectorize across threads. Run once per block instead
// (k outside, the threads inside, the values it carries per thread in
// arrays), the loop over x is innermost and vectorizes when consecutive
// threads touch consecutive or equal elements: a tiled matmul's inner
// product becomes a broadcast, a vector load and a vector FMA per step.
//
// Interleaving the threads' iterations is a legal schedule of the segment:
// threads that do not synchronize may run in any interleaving. So that no
// observable order changes (prints, asserts, atomics, calls), the loop's
// body, nested regions included, may hold only ops without memory effects
// or regions, memref.load, memref.store, scf.for, scf.if and scf.yield (and
// vector.load and vector.store in a loop that carries a vector), and it may
// carry only scalars and small 1-D vectors.
//
// It is profitable when every access of the body is one LLVM vectorizes
// over x without gathers: each index but the last is the same in
// consecutive threads (x-invariant), the last one is x-invariant or the
// thread's x id plus an x-invariant value in a memref whose last dimension
// has unit stride, and at least one access is of the latter kind.
//
// It is profitable too when the loop carries a vector: a tensor-core
// accumulator (LowerMMAToCPU.cpp), whose every step is a chain of dependent
// vector FMAs, so that one thread alone waits on the FMA's latency at each
// of them. With the threads inside, the chains of consecutive threads are
// independent and the core overlaps them; the accumulator goes through the
// thread's array once per step.
//
// x-invariant values: uniform values, thread ids y and z, induction
// variables of loops with x-invariant bounds, ops without memory effects
// or regions over x-invariant operands, and loads of x-invariant addresses
// (every thread reads the same element).
//===----------------------------------------------------------------------===//

#include "ThreadLoopInterchange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace {

/// How a value changes from one thread to the next along x.
enum class AlongX { Invariant, Unit, Other };

class XPattern {
public:
  explicit XPattern(function_ref<bool(Value)> isUniform)
      : isUniform(isUniform) {}

  AlongX classify(Value value);
  bool invariant(Value value) { return classify(value) == AlongX::Invariant; }
  /// The pattern of an access; Other where it needs a gather or scatter.
  AlongX access(Value memref, ValueRange indices);

private:
  AlongX classifyDefinition(Value value);

  function_ref<bool(Value)> isUniform;
  llvm::DenseMap<Value, AlongX> memo;
};

AlongX XPattern::classify(Value value) {
  if (isUniform(value))
    return AlongX::Invariant;
  auto it = memo.find(value);
  if (it != memo.end())
    return it->second;
  memo[value] = AlongX::Other; // cycles through loop-carried values
  AlongX pattern = classifyDefinition(value);
  memo[value] = pattern;
  return pattern;
}

AlongX XPattern::classifyDefinition(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (loop && arg == loop.getInductionVar() &&
        invariant(loop.getLowerBound()) && invariant(loop.getUpperBound()) &&
        invariant(loop.getStep()))
      return AlongX::Invariant;
    return AlongX::Other;
  }
  Operation *def = value.getDefiningOp();
  if (auto id = dyn_cast<gpu::ThreadIdOp>(def))
    return id.getDimension() == gpu::Dimension::x ? AlongX::Unit
                                                  : AlongX::Invariant;
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    AlongX lhs = classify(def->getOperand(0));
    AlongX rhs = classify(def->getOperand(1));
    if (lhs == AlongX::Invariant && rhs == AlongX::Invariant)
      return AlongX::Invariant;
    if (lhs == AlongX::Unit && rhs == AlongX::Invariant)
      return AlongX::Unit;
    if (isa<arith::AddIOp>(def) && lhs == AlongX::Invariant &&
        rhs == AlongX::Unit)
      return AlongX::Unit;
    return AlongX::Other;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return classify(def->getOperand(0));
  if (auto load = dyn_cast<memref::LoadOp>(def))
    return access(load.getMemRef(), load.getIndices()) == AlongX::Invariant
               ? AlongX::Invariant
               : AlongX::Other;
  if (def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
      llvm::all_of(def->getOperands(), [&](Value v) { return invariant(v); }))
    return AlongX::Invariant;
  return AlongX::Other;
}

AlongX XPattern::access(Value memref, ValueRange indices) {
  if (!invariant(memref))
    return AlongX::Other;
  if (indices.empty())
    return AlongX::Invariant;
  if (!llvm::all_of(indices.drop_back(),
                    [&](Value index) { return invariant(index); }))
    return AlongX::Other;
  AlongX last = classify(indices.back());
  if (last == AlongX::Unit &&
      !cast<MemRefType>(memref.getType()).isLastDimUnitStride())
    return AlongX::Other;
  return last;
}

} // namespace

bool gpumem::cpu::isPerThreadArrayType(Type type) {
  if (type.isIntOrIndexOrFloat())
    return true;
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getRank() == 1 && !vector.isScalable() &&
         vector.getNumElements() <= 32 &&
         vector.getElementType().isIntOrFloat();
}

bool gpumem::cpu::shouldRunOutsideThreadLoops(
    scf::ForOp loop, function_ref<bool(Value)> isUniform) {
  bool carriesVector = false;
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    if (!isPerThreadArrayType(arg.getType()))
      return false;
    carriesVector |= isa<VectorType>(arg.getType());
  }
  XPattern pattern(isUniform);
  bool contiguous = false, gathers = false;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    AlongX along = AlongX::Invariant;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      along = pattern.access(load.getMemRef(), load.getIndices());
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      along = pattern.access(store.getMemRef(), store.getIndices());
    else if (carriesVector && isa<vector::LoadOp, vector::StoreOp>(op))
      along = AlongX::Other;
    else if (!isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op) &&
             (op->getNumRegions() != 0 || !isMemoryEffectFree(op)))
      return WalkResult::interrupt();
    gathers |= along == AlongX::Other;
    contiguous |= along == AlongX::Unit;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return false;
  return carriesVector || (contiguous && !gathers);
}
