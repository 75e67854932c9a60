//===----------------------------------------------------------------------===//
// --sanitize on memref accesses, for every target whose kernels run on host
// cores (SanitizeMemRefAccesses.h).
//
// Each access (memref.load, memref.store, memref.atomic_rmw,
// memref.generic_atomic_rmw, vector.load, vector.store) in any function of
// the gpu.module is rewritten, with memcheck, as
//   in = AND over dimensions d of (index_d <u dim_d)   (unsigned: a
//        negative index is out too; for a vector, its last element too)
//   scf.if in { the access } else {
//     for each d out of bounds: accessError(what, location, d, index_d,
//                                           dim_d, the view's first byte)
//     a load yields zero }
// so an out-of-bounds access is reported and skipped instead of reading or
// corrupting another buffer. The memref's sizes are those of the view the
// access uses (memref.dim), which bounds views, subviews and device-function
// arguments alike, in every memory space. With racecheck or initcheck, each
// access also tells the runtime its address and size (sharedAccess for
// workgroup memory, deviceAccess for the rest but the thread's own), and
// the runtime compares it with its shadows; a workgroup access also names
// the planned buffer it goes through when the planner gave that buffer
// another's bytes, whose writes then do not initialize it. The services are
// reached through the thread context (cpu) or through functions the device
// lowering binds to them (cuda-emu, rocm-emu); the reports are the
// runtime's, so they read the same on every target. An access instrumented
// before a device lowering keeps its location with kCheckedByMemRefMark,
// for the checks by address after it to leave alone what was checked here.
//===----------------------------------------------------------------------===//

#include "SanitizeMemRefAccesses.h"

#include "gpumem/Runtime/CPUKernelABI.h"
#include "gpumem/Transforms/MemRefAddress.h"
#include "gpumem/Transforms/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstddef>
#include <limits>
#include <string>

using namespace mlir;
using namespace gpumem;
using namespace gpumem::hostkernel;

std::optional<RuntimeService>
gpumem::hostkernel::getSanitizerService(StringRef name) {
  if (!name.consume_front(kSanitizerFunctionPrefix))
    return std::nullopt;
  if (name == "accessError" || name == "accessErrorShared")
    return GPUMEM_RUNTIME_SERVICE(accessError);
  if (name == "sharedAccess")
    return GPUMEM_RUNTIME_SERVICE(sharedAccess);
  if (name == "deviceAccess")
    return GPUMEM_RUNTIME_SERVICE(deviceAccess);
  if (name == "addressAccess")
    return GPUMEM_RUNTIME_SERVICE(addressAccess);
  if (name == "divisionError")
    return GPUMEM_RUNTIME_SERVICE(divisionError);
  return std::nullopt;
}

std::optional<StringRef> gpumem::hostkernel::isCheckedByMemRef(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  auto mark = fused ? dyn_cast_or_null<DictionaryAttr>(fused.getMetadata())
                    : DictionaryAttr();
  auto what =
      mark ? mark.getAs<StringAttr>(kCheckedByMemRefMark) : StringAttr();
  if (!what)
    return std::nullopt;
  return what.getValue();
}

std::optional<MemRefAccess>
gpumem::hostkernel::describeMemRefAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return MemRefAccess{load.getMemRef(), load.getIndices(), 1, "load from"};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return MemRefAccess{store.getMemRef(), store.getIndices(), 1, "store to"};
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return MemRefAccess{atomic.getMemref(), atomic.getIndices(), 1,
                        "atomic update of"};
  if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return MemRefAccess{atomic.getMemref(), atomic.getIndices(), 1,
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
    return MemRefAccess{load.getBase(), load.getIndices(),
                        extent(load.getVectorType(), load.getBase()),
                        "vector load from"};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return MemRefAccess{store.getBase(), store.getIndices(),
                        extent(store.getVectorType(), store.getBase()),
                        "vector store to"};
  return std::nullopt;
}

namespace {

using Access = MemRefAccess;

/// What a load yields when it is skipped; null when the type has no zero.
Value zeroOf(OpBuilder &builder, Location loc, Type type) {
  TypedAttr zero = dyn_cast_or_null<TypedAttr>(builder.getZeroAttr(type));
  if (!zero)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, zero);
}

/// The shared address space of NVVM and AMDGPU, where
/// SanitizerCalls::ThroughFunctions passes workgroup addresses.
constexpr unsigned kSharedAddressSpace = 3;

/// Instruments the accesses of one gpu.module.
class MemRefAccessInstrumentation {
public:
  MemRefAccessInstrumentation(gpu::GPUModuleOp module, int32_t checks,
                              SanitizerCalls calls)
      : module(module), calls(calls), bounds(checks & GPUMEM_CHECK_MEMCHECK),
        races(checks & GPUMEM_CHECK_RACECHECK),
        init(checks & GPUMEM_CHECK_INITCHECK) {}

  void run() {
    if (!bounds && !races && !init)
      return;
    SmallVector<std::pair<Operation *, Value>> accesses;
    for (auto func : module.getOps<FunctionOpInterface>()) {
      if (func.isExternal())
        continue;
      // The thread context, when the services are reached through it.
      Value context;
      if (calls == SanitizerCalls::ThroughContext) {
        if (func.getNumArguments() == 0 ||
            !isa<LLVM::LLVMPointerType>(func.getArgumentTypes().back()))
          continue;
        context = func.getArguments().back();
      }
      func.walk([&](Operation *op) {
        if (describeMemRefAccess(op))
          accesses.push_back({op, context});
        else if (bounds && isDivision(op))
          divisions.push_back({op, context});
      });
    }
    for (auto [op, context] : accesses)
      instrument(op, context);
    for (auto [op, context] : divisions)
      instrumentDivision(op, context);
  }

private:
  gpu::GPUModuleOp module;
  SanitizerCalls calls;
  bool bounds, races, init;
  SmallVector<std::pair<Operation *, Value>> divisions;

  /// A scalar integer division or remainder, which traps on a CPU when
  /// its divisor is 0 (or, signed, for the smallest value by -1).
  static bool isDivision(Operation *op) {
    if (!isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
             arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op) ||
        !op->getResult(0).getType().isIntOrIndex())
      return false;
    // A constant divisor that can neither be 0 nor overflow needs no check.
    APInt divisor;
    if (matchPattern(op->getOperand(1), m_ConstantInt(&divisor)))
      return divisor.isZero() || (isSignedDivision(op) && divisor.isAllOnes());
    return true;
  }

  static bool isSignedDivision(Operation *op) {
    return isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
               arith::FloorDivSIOp>(op);
  }

  /// memcheck on a division: `bad = divisor == 0 (or smallest / -1)`, the
  /// divisor becomes `bad ? 1 : divisor`, and `scf.if bad` reports it
  /// (divisionError), so the run goes on as a GPU's would.
  void instrumentDivision(Operation *op, Value context) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    Type type = op->getResult(0).getType();
    auto constant = [&](int64_t value) -> Value {
      if (isa<IndexType>(type))
        return arith::ConstantIndexOp::create(builder, loc, value);
      return arith::ConstantIntOp::create(builder, loc, type, value);
    };
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Value byZero = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         rhs, constant(0));
    Value bad = byZero;
    if (isSignedDivision(op)) {
      unsigned width = isa<IndexType>(type) ? 64 : type.getIntOrFloatBitWidth();
      Value smallest =
          isa<IndexType>(type)
              ? constant(std::numeric_limits<int64_t>::min())
              : arith::ConstantOp::create(
                    builder, loc,
                    builder.getIntegerAttr(
                        type, llvm::APInt::getSignedMinValue(width)))
                    .getResult();
      // In statements: the order of the ops is the order of the source.
      Value isSmallest = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, lhs, smallest);
      Value byMinusOne = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, rhs, constant(-1));
      Value overflow =
          arith::AndIOp::create(builder, loc, isSmallest, byMinusOne);
      bad = arith::OrIOp::create(builder, loc, byZero, overflow);
    }
    Value safe = arith::SelectOp::create(builder, loc, bad, constant(1), rhs);
    op->setOperand(1, safe);
    auto report =
        scf::IfOp::create(builder, loc, bad, /*withElseRegion=*/false);
    builder.setInsertionPoint(report.getThenRegion().front().getTerminator());
    Value overflowFlag = arith::ExtUIOp::create(
        builder, loc, builder.getI32Type(),
        arith::XOrIOp::create(builder, loc, byZero,
                              arith::ConstantIntOp::create(
                                  builder, loc, builder.getI1Type(), 1)));
    std::string what;
    llvm::raw_string_ostream(what) << op->getName() << " of " << type;
    callService(builder, loc, context, "divisionError",
                {overflowFlag, getStringPointer(builder, loc, module, what),
                 getLocationString(builder, loc, module)});
  }

  /// Calls the service `name` (of GPUMemRuntimeServices) with `args`.
  void callService(OpBuilder &builder, Location loc, Value context,
                   StringRef name, ValueRange args) {
    std::string callee = (kSanitizerFunctionPrefix + name).str();
    if (calls == SanitizerCalls::ThroughContext) {
      SmallVector<Value> withContext{context};
      withContext.append(args.begin(), args.end());
      ContextAccess(builder, loc, context)
          .call(*getSanitizerService(callee), withContext);
      return;
    }
    // LLVM dialect, which every GPU dialect's lowering leaves as it is.
    auto declared = module.lookupSymbol<LLVM::LLVMFuncOp>(callee);
    if (!declared) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(module.getBody());
      declared = LLVM::LLVMFuncOp::create(
          builder, module.getLoc(), callee,
          LLVM::LLVMFunctionType::get(
              LLVM::LLVMVoidType::get(builder.getContext()),
              llvm::to_vector(TypeRange(args))));
    }
    LLVM::CallOp::create(builder, loc, declared, args);
  }

  /// `address` (an index) as a pointer: in the shared address space for
  /// workgroup memory reached through functions.
  Value toPointer(OpBuilder &builder, Location loc, Value address,
                  bool workgroup) {
    unsigned space = calls == SanitizerCalls::ThroughFunctions && workgroup
                         ? kSharedAddressSpace
                         : 0;
    Value integer =
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), address);
    return LLVM::IntToPtrOp::create(
        builder, loc, LLVM::LLVMPointerType::get(builder.getContext(), space),
        integer);
  }

  void instrument(Operation *op, Value context) {
    Access access = *describeMemRefAccess(op);
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
    // Whether the access got every check asked for, for the mark.
    bool complete = true;
    // An access proved inside its memref for the whole block needs no
    // memcheck (kInBoundsMark); the runtime still sees it for the others.
    bool proved = op->hasAttr(kInBoundsMark);
    op->removeAttr(kInBoundsMark);
    if (bounds && type.getRank() != 0 && !proved)
      complete &= checkBounds(op, access, context, what);
    if (probe)
      return;
    // The address needs a strided layout and an element with a size.
    Type element = type.getElementType();
    bool addressable =
        type.isStrided() &&
        isa<IntegerType, FloatType, IndexType, VectorType, ComplexType>(
            element);
    bool shared = isWorkgroupMemorySpace(type.getMemorySpace());
    bool device = !shared && !isPrivate(access.memref);
    // On the cpu target, where no check by address follows, memcheck asks
    // the runtime whether a workgroup view that may have been made outside
    // its buffer stays in the block's shared memory.
    bool askBounds = bounds && shared &&
                     calls == SanitizerCalls::ThroughContext &&
                     mayLeaveItsBuffer(access.memref);
    if ((races || init || askBounds) && !addressable)
      complete = false;
    else if (races || init || askBounds) {
      if (shared)
        reportAccess("sharedAccess", op, access, context, what, askBounds);
      else if (device)
        reportAccess("deviceAccess", op, access, context, what);
    }
    // On the cpu target, a launch whose memref arguments lie in freed
    // memory has ctx->freedArguments set (argumentCheck, in the launch
    // wrappers): its device accesses then ask where their address lies,
    // and the use after free is reported at the access. (cuda-emu and
    // rocm-emu ask for every access, by address.)
    if (bounds && device && addressable && !proved &&
        calls == SanitizerCalls::ThroughContext)
      askWhenArgumentsFreed(op, access, context, what);
    if (calls == SanitizerCalls::ThroughFunctions && complete) {
      // The mark holds the access's words, for the checks by address to
      // report in them too.
      MLIRContext *mlir = op->getContext();
      auto mark = DictionaryAttr::get(
          mlir, {NamedAttribute(StringAttr::get(mlir, kCheckedByMemRefMark),
                                StringAttr::get(mlir, what))});
      op->setLoc(FusedLoc::get(mlir, {op->getLoc()}, mark));
    }
  }

  /// `if (ctx->freedArguments) addressAccess(address of op's bytes)`.
  void askWhenArgumentsFreed(Operation *op, const Access &access, Value context,
                             const std::string &what) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    Value freed =
        ContextAccess(builder, loc, context)
            .load(context, offsetof(GPUMemThreadContext, freedArguments),
                  builder.getI64Type());
    Value set = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ne, freed,
        arith::ConstantIntOp::create(builder, loc, builder.getI64Type(), 0));
    auto ask = scf::IfOp::create(builder, loc, set, /*withElseRegion=*/false);
    builder.setInsertionPoint(ask.getThenRegion().front().getTerminator());
    auto [pointer, bytes] = addressOf(builder, op, access);
    int32_t flags = GPUMEM_ACCESS_CHECK_BOUNDS | kindOf(op);
    Value flagValue =
        arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), flags);
    callService(builder, loc, context, "addressAccess",
                {pointer, bytes, flagValue,
                 getStringPointer(builder, loc, module, what),
                 getLocationString(builder, loc, module)});
  }

  /// The GPUMemSharedAccess kind of `op`.
  static int32_t kindOf(Operation *op) {
    if (isa<memref::LoadOp, vector::LoadOp>(op))
      return GPUMEM_SHARED_READ;
    if (isa<memref::StoreOp, vector::StoreOp>(op))
      return GPUMEM_SHARED_WRITE;
    return GPUMEM_SHARED_READ | GPUMEM_SHARED_WRITE | GPUMEM_SHARED_ATOMIC;
  }

  /// The address of the bytes `op` touches, as a pointer, and their count
  /// (an i64), built at `builder`'s insertion point.
  std::pair<Value, Value> addressOf(OpBuilder &builder, Operation *op,
                                    const Access &access) {
    Location loc = op->getLoc();
    auto type = cast<MemRefType>(access.memref.getType());
    int64_t elementBytes =
        int64_t(DataLayout::closest(op).getTypeSize(type.getElementType()));
    Value linear =
        getLinearElement(builder, loc, access.memref, access.indices);
    Value address =
        getElementAddress(builder, loc, access.memref, linear, elementBytes);
    Value pointer = toPointer(builder, loc, address,
                              isWorkgroupMemorySpace(type.getMemorySpace()));
    Value bytes = arith::ConstantIntOp::create(
        builder, loc, builder.getI64Type(), elementBytes * access.lastExtent);
    return {pointer, bytes};
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

  /// The buffer a memref.reinterpret_cast on `memref`'s way made it from,
  /// when that is a memref.alloca or memref.alloc of the function, or an
  /// argument of it outside workgroup memory (a kernel's device buffer),
  /// with an identity layout and the same element type; null otherwise.
  static Value getReinterpretedBuffer(Value memref) {
    Type element = cast<MemRefType>(memref.getType()).getElementType();
    bool reinterpreted = false;
    // (An unranked buffer, a memref.cast's source, has no extent here.)
    auto whole = [&](Value buffer) {
      auto type = dyn_cast<MemRefType>(buffer.getType());
      return type && reinterpreted && type.getLayout().isIdentity() &&
                     type.getElementType() == element
                 ? buffer
                 : Value();
    };
    if (isa<BlockArgument>(memref))
      return Value();
    while (Operation *def = memref.getDefiningOp()) {
      if (isa<memref::AllocaOp, memref::AllocOp>(def))
        return whole(memref);
      if (auto reinterpret = dyn_cast<memref::ReinterpretCastOp>(def)) {
        reinterpreted = true;
        memref = reinterpret.getSource();
      } else if (auto view = dyn_cast<ViewLikeOpInterface>(def);
                 view && !isa<memref::ViewOp>(def)) {
        memref = view.getViewSource();
      } else {
        return Value();
      }
      // (A workgroup attribution is left to the checks of where the
      // access lands, which the cpu target's planned views get too.)
      if (isa<BlockArgument>(memref))
        return isWorkgroupMemorySpace(
                   cast<BaseMemRefType>(memref.getType()).getMemorySpace())
                   ? Value()
                   : whole(memref);
    }
    return Value();
  }

  /// The first and last element `op` touches, counted from the aligned
  /// pointer of its memref (which views made without memref.view share
  /// with the buffer they come from).
  std::pair<Value, Value> elementsFromBase(OpBuilder &builder, Operation *op,
                                           const Access &access) {
    Location loc = op->getLoc();
    Value lastStride;
    Value linear = getLinearElement(builder, loc, access.memref, access.indices,
                                    &lastStride);
    Value last = linear;
    if (access.lastExtent > 1)
      last = arith::AddIOp::create(
          builder, loc, linear,
          arith::MulIOp::create(builder, loc, lastStride,
                                arith::ConstantIndexOp::create(
                                    builder, loc, access.lastExtent - 1)));
    return {linear, last};
  }

  /// Whether `memref` may view memory outside the buffer it was made from:
  /// a memref.reinterpret_cast or a subview at a dynamic offset on its way,
  /// or a value whose origin is not known here (a function's argument, a
  /// region's result).
  static bool mayLeaveItsBuffer(Value memref) {
    while (Operation *def = memref.getDefiningOp()) {
      if (isa<memref::ReinterpretCastOp>(def))
        return true;
      if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
        if (!subview.getOffsets().empty())
          return true;
        memref = subview.getSource();
        continue;
      }
      // A buffer, or a view that the planners (and, of dynamic shared
      // memory, gpumem-check-dynamic-shared-bounds) keep inside one.
      if (isa<memref::AllocaOp, memref::AllocOp, memref::GetGlobalOp,
              memref::ViewOp, UnrealizedConversionCastOp,
              gpu::DynamicSharedMemoryOp>(def))
        return false;
      auto view = dyn_cast<ViewLikeOpInterface>(def); // casts too
      if (!view)
        return true;
      memref = view.getViewSource();
    }
    auto argument = cast<BlockArgument>(memref);
    auto kernel = dyn_cast<gpu::GPUFuncOp>(argument.getOwner()->getParentOp());
    return !kernel ||
           !llvm::is_contained(kernel.getWorkgroupAttributions(), argument);
  }

  /// Calls the service sharedAccess or deviceAccess (`service`) right
  /// before `op` with the address and size of the bytes it touches; with
  /// `askBounds`, the runtime also reports an address outside the block's
  /// shared memory.
  void reportAccess(StringRef service, Operation *op, const Access &access,
                    Value context, const std::string &what,
                    bool askBounds = false) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    auto [pointer, bytes] = addressOf(builder, op, access);
    int32_t flags = (races ? GPUMEM_SHARED_CHECK_RACES : 0) |
                    (init ? GPUMEM_SHARED_CHECK_INIT : 0) |
                    (askBounds ? GPUMEM_ACCESS_CHECK_BOUNDS : 0) | kindOf(op);
    // A buffer sharing bytes with another one is named, for initcheck to
    // count only its own writes.
    if (service == "sharedAccess")
      if (uint32_t buffer = getSharedBytesBuffer(access.memref);
          buffer && buffer < (1u << (31 - GPUMEM_SHARED_BUFFER_SHIFT)))
        flags |= int32_t(buffer << GPUMEM_SHARED_BUFFER_SHIFT);
    Value flagValue =
        arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), flags);
    Value whatString = getStringPointer(builder, loc, module, what);
    Value where = getLocationString(builder, loc, module);
    callService(builder, loc, context, service,
                {pointer, bytes, flagValue, whatString, where});
  }

  /// Runs `op` only when its indices are inside its memref, else reports
  /// each index out of bounds through the service accessError; false when
  /// the op is left unchecked.
  bool checkBounds(Operation *op, const Access &access, Value context,
                   const std::string &what) {
    OpBuilder builder(op);
    Location loc = op->getLoc();
    // Zeros for a skipped load, made before the check.
    SmallVector<Value> zeros;
    for (Type resultType : op->getResultTypes()) {
      Value zero = zeroOf(builder, loc, resultType);
      if (!zero)
        return false; // no value to give: left unchecked
      zeros.push_back(zero);
    }
    // What a report names per dimension: the index, or for the last
    // dimension of a vector access whose first element is inside, its last
    // element.
    SmallVector<Value> inside, sizes, reported;
    SmallVector<int64_t> dims;
    Value all;
    for (auto [d, index] : llvm::enumerate(access.indices)) {
      dims.push_back(int64_t(d));
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
    // A view made by memref.reinterpret_cast of a buffer allocated here
    // may lie outside it with every index inside the view: the element
    // the access reaches, counted from the buffer's start, must be one of
    // the buffer's too (reported as dimension -1, only when the indices
    // are inside).
    Value buffer = cast<MemRefType>(access.memref.getType()).isStrided()
                       ? getReinterpretedBuffer(access.memref)
                       : Value();
    if (buffer) {
      auto [linear, last] = elementsFromBase(builder, op, access);
      Value elements = arith::ConstantIndexOp::create(builder, loc, 1);
      for (int64_t d = 0, e = cast<MemRefType>(buffer.getType()).getRank();
           d < e; ++d)
        elements = arith::MulIOp::create(
            builder, loc, elements,
            memref::DimOp::create(builder, loc, buffer, d));
      Value firstIn = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, linear, elements);
      Value lastIn = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ult, last, elements);
      Value in = arith::AndIOp::create(builder, loc, firstIn, lastIn);
      Value outsideView = arith::XOrIOp::create(
          builder, loc, all,
          arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
      inside.push_back(arith::OrIOp::create(builder, loc, outsideView, in));
      reported.push_back(
          arith::SelectOp::create(builder, loc, firstIn, last, linear));
      sizes.push_back(elements);
      dims.push_back(-1);
      all = arith::AndIOp::create(builder, loc, all, in);
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
    Value whatString = getStringPointer(builder, loc, module, what);
    Value where = getLocationString(builder, loc, module);
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
    bool workgroup = isWorkgroupMemorySpace(type.getMemorySpace());
    Value base = toPointer(builder, loc, aligned, workgroup);
    for (auto [d, in] : llvm::enumerate(inside)) {
      Value outside = arith::XOrIOp::create(
          builder, loc, in,
          arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
      auto report = scf::IfOp::create(builder, loc, outside,
                                      /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(report.getThenRegion().front().getTerminator());
      Value dim = arith::ConstantIntOp::create(builder, loc, i64, dims[d]);
      Value index = arith::IndexCastOp::create(builder, loc, i64, reported[d]);
      Value size = arith::IndexCastOp::create(builder, loc, i64, sizes[d]);
      callService(builder, loc, context,
                  workgroup && calls == SanitizerCalls::ThroughFunctions
                      ? "accessErrorShared"
                      : "accessError",
                  {whatString, where, dim, index, size, base});
    }
    if (op->getNumResults())
      scf::YieldOp::create(builder, loc, zeros);
    return true;
  }
};

} // namespace

void gpumem::hostkernel::instrumentMemRefAccesses(gpu::GPUModuleOp module,
                                                  int32_t checks,
                                                  SanitizerCalls calls) {
  MemRefAccessInstrumentation(module, checks, calls).run();
}
