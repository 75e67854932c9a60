//===----------------------------------------------------------------------===//
// --sanitize=memcheck: bounds checks on every memref access of CPU kernels.
//
// After gpumem-lower-gpu-to-cpu-abi every function of the gpu.module takes
// the thread context last. Each access in it (memref.load, memref.store,
// memref.atomic_rmw, memref.generic_atomic_rmw, vector.load, vector.store)
// is rewritten as
//   in = AND over dimensions d of (index_d <u dim_d)   (unsigned: a
//        negative index is out too; for a vector, its last element too)
//   scf.if in { the access } else {
//     for each d out of bounds: services->accessError(ctx, what, location,
//                                                     d, index_d, dim_d,
//                                                     aligned pointer)
//     a load yields zero }
// so an out-of-bounds access is reported and skipped instead of reading or
// corrupting another buffer. The memref's sizes are those of the view the
// access uses (memref.dim), which bounds views, subviews and device-function
// arguments alike, in every memory space. Before the launch wrappers call
// a kernel (once per call of run_blocks, which the runtime calls per block
// for sanitized kernels), the aligned pointer of each
// memref argument goes to services->argumentCheck, which reports one that
// points into device memory already freed. With racecheck or initcheck,
// each access also tells the runtime its address (sharedAccess for
// workgroup memory, deviceAccess for the rest but the thread's own).
//===----------------------------------------------------------------------===//

#include "../HostKernel/HostCode.h"
#include "../HostKernel/KernelTable.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Target/CPU/Passes.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <cstddef>

namespace gpumem {
#define GEN_PASS_DEF_GPUMEMSANITIZEMEMORYACCESSESPASS
#include "gpumem/Target/CPU/Passes.h.inc"
} // namespace gpumem

using namespace mlir;
using namespace gpumem;

namespace {

/// An access to check: its memref, indices, the elements it touches along
/// the last dimension, and how a report describes it.
struct Access {
  Value memref;
  ValueRange indices;
  int64_t lastExtent = 1;
  const char *verb;
};

std::optional<Access> describe(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return Access{load.getMemRef(), load.getIndices(), 1, "load from"};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return Access{store.getMemRef(), store.getIndices(), 1, "store to"};
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return Access{atomic.getMemref(), atomic.getIndices(), 1,
                  "atomic update of"};
  if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return Access{atomic.getMemref(), atomic.getIndices(), 1,
                  "atomic update of"};
  // Elements along the last dimension: the vector's last size, unless the
  // memref's elements are vectors themselves (one element then).
  auto extent = [](VectorType type, Value memref) -> int64_t {
    if (isa<VectorType>(cast<MemRefType>(memref.getType()).getElementType()))
      return 1;
    return type.getRank() == 0 || type.isScalable() ? 1
                                                    : type.getShape().back();
  };
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return Access{load.getBase(), load.getIndices(),
                  extent(load.getVectorType(), load.getBase()),
                  "vector load from"};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return Access{store.getBase(), store.getIndices(),
                  extent(store.getVectorType(), store.getBase()),
                  "vector store to"};
  return std::nullopt;
}

/// What a load yields when it is skipped; null when the type has no zero.
Value zeroOf(OpBuilder &builder, Location loc, Type type) {
  TypedAttr zero = dyn_cast_or_null<TypedAttr>(builder.getZeroAttr(type));
  if (!zero)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, zero);
}

struct SanitizeMemoryAccessesPass
    : gpumem::impl::GPUMemSanitizeMemoryAccessesPassBase<
          SanitizeMemoryAccessesPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    int32_t parsed = checks.getValue().flags;
    bounds = parsed & GPUMEM_CHECK_MEMCHECK;
    races = parsed & GPUMEM_CHECK_RACECHECK;
    init = parsed & GPUMEM_CHECK_INITCHECK;
    hostkernel::recordSanitizerChecks(module, parsed);
    if (!bounds && !races && !init)
      return;
    SmallVector<std::pair<Operation *, Value>> accesses;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || func.getNumArguments() == 0)
        continue;
      Value context = func.getArguments().back();
      if (!isa<LLVM::LLVMPointerType>(context.getType()))
        continue;
      func.walk([&](Operation *op) {
        if (describe(op))
          accesses.push_back({op, context});
      });
    }
    for (auto [op, context] : accesses)
      instrument(op, context, module);
    if (bounds)
      checkArguments(module);
  }

  /// Where the launch wrappers (run_blocks, run_thread) call a kernel, they
  /// first hand the runtime the aligned pointer of each memref argument
  /// (services->argumentCheck), which finds freed device memory: once per
  /// call of run_blocks, outside its loops, and never inside the
  /// kernel, whose inlining into that loop it would prevent.
  void checkArguments(gpu::GPUModuleOp module) {
    SmallVector<func::CallOp> calls;
    for (auto wrapper : module.getOps<func::FuncOp>()) {
      if (!wrapper.getName().starts_with("__gpumem_run_") ||
          wrapper.isExternal())
        continue;
      wrapper.walk([&](func::CallOp call) {
        if (call.getCallee().starts_with("__gpumem_kernel_"))
          calls.push_back(call);
      });
    }
    for (func::CallOp call : calls)
      checkArguments(call, module);
  }

  void checkArguments(func::CallOp call, gpu::GPUModuleOp module) {
    Block &entry = call->getParentOfType<func::FuncOp>().front();
    if (call.getNumOperands() == 0 ||
        !isa<LLVM::LLVMPointerType>(call.getOperands().back().getType()))
      return;
    Value context = call.getOperands().back();
    // Right before the op of the wrapper's entry block that holds the call
    // (its thread loop, or the call itself); the arguments are defined
    // before it.
    Operation *outermost = call;
    while (outermost->getBlock() != &entry)
      outermost = outermost->getParentOp();
    OpBuilder builder(outermost);
    auto kernel = module.lookupSymbol<func::FuncOp>(call.getCallee());
    Location loc = kernel ? kernel.getLoc() : call.getLoc();
    auto i64 = builder.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
    Value where = nullptr;
    for (auto [number, argument] : llvm::enumerate(call.getOperands())) {
      // Only arguments defined before the check (all of them, as the
      // wrappers are built).
      Operation *def = argument.getDefiningOp();
      bool available =
          def ? def->getBlock() == &entry && def->isBeforeInBlock(outermost)
              : cast<BlockArgument>(argument).getOwner() == &entry;
      if (!isa<MemRefType>(argument.getType()) || !available)
        continue;
      if (!where)
        where = hostkernel::getLocationString(builder, loc, module);
      Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(
          builder, loc, argument);
      Value integer = arith::IndexCastOp::create(builder, loc, i64, aligned);
      Value pointer = LLVM::IntToPtrOp::create(builder, loc, ptr, integer);
      Value index = arith::ConstantIntOp::create(builder, loc, i64, number);
      hostkernel::ContextAccess(builder, loc, context)
          .call(GPUMEM_RUNTIME_SERVICE(argumentCheck),
                {context, pointer, index, where});
    }
  }

  bool bounds = false, races = false, init = false;

  void instrument(Operation *op, Value context, gpu::GPUModuleOp module) {
    Access access = *describe(op);
    auto type = cast<MemRefType>(access.memref.getType());
    std::string what;
    llvm::raw_string_ostream os(what);
    // A probe of an async copy's destination ("to") or source ("from") by
    // LowerAsyncCopiesToCPU.cpp: bounds only; the runtime sees the copy's
    // bytes at its wait.
    auto probe = op->getAttrOfType<StringAttr>("gpumem.async_copy_probe");
    if (probe)
      os << "async copy " << probe.getValue() << " " << type;
    else
      os << access.verb << " " << type;
    if (bounds && type.getRank() != 0)
      checkBounds(op, access, context, module, what);
    if (probe)
      return;
    // The address needs a strided layout and an element with a size.
    Type element = type.getElementType();
    if (!(races || init) || !type.isStrided() ||
        !isa<IntegerType, FloatType, IndexType, VectorType, ComplexType>(
            element))
      return;
    if (isWorkgroupMemorySpace(type.getMemorySpace()))
      reportAccess(GPUMEM_RUNTIME_SERVICE(sharedAccess), op, access, context,
                   module, what);
    else if (!isPrivate(access.memref))
      reportAccess(GPUMEM_RUNTIME_SERVICE(deviceAccess), op, access, context,
                   module, what);
  }

  /// Whether `memref` is the thread's own memory: private address space,
  /// or a memref.alloca's (the runtime would ignore its address anyway).
  static bool isPrivate(Value memref) {
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
        cast<MemRefType>(memref.getType()).getMemorySpace());
    if (space && space.getValue() == gpu::AddressSpace::Private)
      return true;
    while (Operation *def = memref.getDefiningOp()) {
      if (isa<memref::AllocaOp>(def))
        return true;
      auto view = dyn_cast<ViewLikeOpInterface>(def);
      if (!view)
        return false;
      memref = view.getViewSource();
    }
    return false;
  }

  /// Calls services->sharedAccess or deviceAccess (`service`) right before
  /// `op` with the address and size of the bytes it touches.
  void reportAccess(hostkernel::RuntimeService service, Operation *op,
                    const Access &access, Value context,
                    gpu::GPUModuleOp module, const std::string &what) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    auto type = cast<MemRefType>(access.memref.getType());
    int64_t elementBytes =
        int64_t(DataLayout::closest(op).getTypeSize(type.getElementType()));
    auto metadata =
        memref::ExtractStridedMetadataOp::create(builder, loc, access.memref);
    Value linear = metadata.getOffset();
    for (auto [index, stride] :
         llvm::zip(access.indices, metadata.getStrides()))
      linear = arith::AddIOp::create(
          builder, loc, linear,
          arith::MulIOp::create(builder, loc, index, stride));
    Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(
        builder, loc, access.memref);
    Value address = arith::AddIOp::create(
        builder, loc, aligned,
        arith::MulIOp::create(
            builder, loc, linear,
            arith::ConstantIndexOp::create(builder, loc, elementBytes)));
    auto i64 = builder.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
    Value integer = arith::IndexCastOp::create(builder, loc, i64, address);
    Value pointer = LLVM::IntToPtrOp::create(builder, loc, ptr, integer);
    int32_t flags = (races ? GPUMEM_SHARED_CHECK_RACES : 0) |
                    (init ? GPUMEM_SHARED_CHECK_INIT : 0);
    if (isa<memref::LoadOp, vector::LoadOp>(op))
      flags |= GPUMEM_SHARED_READ;
    else if (isa<memref::StoreOp, vector::StoreOp>(op))
      flags |= GPUMEM_SHARED_WRITE;
    else
      flags |= GPUMEM_SHARED_READ | GPUMEM_SHARED_WRITE | GPUMEM_SHARED_ATOMIC;
    Value bytes = arith::ConstantIntOp::create(
        builder, loc, i64, elementBytes * access.lastExtent);
    Value flagValue =
        arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), flags);
    Value whatString = hostkernel::getStringPointer(builder, loc, module, what);
    Value where = hostkernel::getLocationString(builder, loc, module);
    hostkernel::ContextAccess(builder, loc, context)
        .call(service, {context, pointer, bytes, flagValue, whatString, where});
  }

  /// Runs `op` only when its indices are inside its memref, else reports
  /// each index out of bounds through services->accessError.
  void checkBounds(Operation *op, const Access &access, Value context,
                   gpu::GPUModuleOp module, const std::string &what) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    // Zeros for a skipped load, made before the check.
    SmallVector<Value> zeros;
    for (Type resultType : op->getResultTypes()) {
      Value zero = zeroOf(builder, loc, resultType);
      if (!zero)
        return; // no value to give: left unchecked
      zeros.push_back(zero);
    }
    // What a report names per dimension: the index, or for the last
    // dimension of a vector access whose first element is inside, its last
    // element.
    SmallVector<Value> inside, sizes, reported;
    Value all;
    for (auto [d, index] : llvm::enumerate(access.indices)) {
      Value size = memref::DimOp::create(builder, loc, access.memref, d);
      Value in = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       index, size);
      Value shown = index;
      if (d + 1 == access.indices.size() && access.lastExtent > 1) {
        Value last =
            arith::AddIOp::create(builder, loc, index,
                                  arith::ConstantIndexOp::create(
                                      builder, loc, access.lastExtent - 1));
        shown = arith::SelectOp::create(builder, loc, in, last, index);
        in = arith::AndIOp::create(
            builder, loc, in,
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, last,
                                  size));
      }
      reported.push_back(shown);
      inside.push_back(in);
      sizes.push_back(size);
      all = all ? arith::AndIOp::create(builder, loc, all, in).getResult() : in;
    }
    auto check = scf::IfOp::create(builder, loc, op->getResultTypes(), all,
                                   /*withElseRegion=*/true);
    op->replaceAllUsesWith(check.getResults());
    Block &then = check.getThenRegion().front();
    Block &otherwise = check.getElseRegion().front();
    if (op->getNumResults()) {
      op->moveBefore(&then, then.end());
      builder.setInsertionPointToEnd(&then);
      scf::YieldOp::create(builder, loc, op->getResults());
      builder.setInsertionPointToEnd(&otherwise);
    } else {
      op->moveBefore(then.getTerminator());
      builder.setInsertionPoint(otherwise.getTerminator());
    }
    Value whatString = hostkernel::getStringPointer(builder, loc, module, what);
    Value where = hostkernel::getLocationString(builder, loc, module);
    auto i64 = builder.getI64Type();
    // The view's first element: the aligned pointer plus the view's offset
    // (a subview's), for the report to say where in its buffer it starts.
    Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(
        builder, loc, access.memref);
    auto type = cast<MemRefType>(access.memref.getType());
    Type element = type.getElementType();
    if (type.isStrided() &&
        isa<IntegerType, FloatType, IndexType, VectorType>(element)) {
      auto metadata =
          memref::ExtractStridedMetadataOp::create(builder, loc, access.memref);
      int64_t elementBytes =
          int64_t(DataLayout::closest(op).getTypeSize(element));
      aligned = arith::AddIOp::create(
          builder, loc, aligned,
          arith::MulIOp::create(
              builder, loc, metadata.getOffset(),
              arith::ConstantIndexOp::create(builder, loc, elementBytes)));
    }
    Value base = LLVM::IntToPtrOp::create(
        builder, loc, LLVM::LLVMPointerType::get(builder.getContext()),
        arith::IndexCastOp::create(builder, loc, i64, aligned).getResult());
    for (auto [d, in] : llvm::enumerate(inside)) {
      Value outside = arith::XOrIOp::create(
          builder, loc, in,
          arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
      auto report = scf::IfOp::create(builder, loc, outside,
                                      /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(report.getThenRegion().front().getTerminator());
      Value dim = arith::ConstantIntOp::create(builder, loc, i64, d);
      Value index = arith::IndexCastOp::create(builder, loc, i64, reported[d]);
      Value size = arith::IndexCastOp::create(builder, loc, i64, sizes[d]);
      hostkernel::ContextAccess(builder, loc, context)
          .call(GPUMEM_RUNTIME_SERVICE(accessError),
                {context, whatString, where, dim, index, size, base});
    }
    if (op->getNumResults())
      scf::YieldOp::create(builder, loc, zeros);
  }
};

} // namespace
