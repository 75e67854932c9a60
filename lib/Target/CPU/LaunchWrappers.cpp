//===----------------------------------------------------------------------===//
// The launch wrappers of a cpu kernel (LaunchWrappers.h), built with the
// host-kernel wrapper builder (../HostKernel/KernelWrappers.h) and the cpu
// rule for an argument: a memref is its descriptor's fields. run_thread
// unpacks the params and calls the kernel for the thread the runtime set in
// the context. run_blocks unpacks them once, then steps through the blocks
// first..last (x fastest), storing each block's id in the context, and runs
// the block either as the kernel's barrier-free block-wide copy or as three
// loops over the threads (z outermost, x innermost, the order of CUDA's
// warps) with the thread id stored before each call.
//===----------------------------------------------------------------------===//

#include "LaunchWrappers.h"

#include "../HostKernel/KernelWrappers.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include <cstddef>
#include <functional>

using namespace mlir;
using namespace gpumem;

namespace {

constexpr int64_t kContextThreadId = offsetof(GPUMemThreadContext, threadId);
constexpr int64_t kContextBlockId = offsetof(GPUMemThreadContext, blockId);
constexpr int64_t kContextBlockDim = offsetof(GPUMemThreadContext, blockDim);
constexpr int64_t kContextGridDim = offsetof(GPUMemThreadContext, gridDim);

/// The cpu target's rule for a kernel argument (hostkernel::ArgumentUnpacker):
/// a memref is its descriptor's fields (allocated and aligned pointers,
/// offset, sizes, strides), one param each; an index is an i64 param.
Value unpackArgument(OpBuilder &builder, Location loc, Type type,
                     llvm::function_ref<Value(Type)> nextParam,
                     const LLVMTypeConverter &converter) {
  auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
  auto i64 = builder.getI64Type();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    SmallVector<Value> fields{nextParam(ptr), nextParam(ptr), nextParam(i64)};
    for (int64_t i = 0, e = 2 * memref.getRank(); i < e; ++i)
      fields.push_back(nextParam(i64));
    Value descriptor =
        MemRefDescriptor::pack(builder, loc, converter, memref, fields);
    return UnrealizedConversionCastOp::create(builder, loc, type, descriptor)
        .getResult(0);
  }
  if (isa<IndexType>(type))
    return arith::IndexCastOp::create(builder, loc, type, nextParam(i64));
  return nextParam(type);
}

/// The id of the block after `id` (x fastest, carrying into y and z) in a
/// grid of `gridX` x `gridY` x any blocks; `zero` and `one` are the index
/// constants.
SmallVector<Value> nextBlockId(OpBuilder &b, Location loc, ValueRange id,
                               Value gridX, Value gridY, Value zero,
                               Value one) {
  auto carry = [&](Value wrapped) {
    return arith::SelectOp::create(b, loc, wrapped, one, zero);
  };
  Value nextX = arith::AddIOp::create(b, loc, id[0], one);
  Value wrapX =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, nextX, gridX);
  Value nextY = arith::AddIOp::create(b, loc, id[1], carry(wrapX));
  Value wrapY =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, nextY, gridY);
  Value nextZ = arith::AddIOp::create(b, loc, id[2], carry(wrapY));
  return {arith::SelectOp::create(b, loc, wrapX, zero, nextX),
          arith::SelectOp::create(b, loc, wrapY, zero, nextY), nextZ};
}

} // namespace

hostkernel::KernelTableEntry gpumem::cpu::createLaunchWrappers(
    gpu::GPUFuncOp stub, func::FuncOp impl, func::FuncOp blockImpl,
    int64_t sharedBytes, bool fibers, bool asserts,
    const LLVMTypeConverter &converter, llvm::DenseSet<Operation *> &wrappers) {
  Location loc = stub.getLoc();
  MLIRContext *context = stub.getContext();
  auto i64 = IntegerType::get(context, 64);
  TypeRange argTypes = stub.getFunctionType().getInputs();
  OpBuilder builder(stub);
  DataLayout layout = DataLayout::closest(stub);
  auto unpack = [&](OpBuilder &b, Location loc, Type type,
                    llvm::function_ref<Value(Type)> nextParam) {
    return unpackArgument(b, loc, type, nextParam, converter);
  };

  hostkernel::KernelWrapper<func::FuncOp> runThread =
      hostkernel::createRunThread(
          builder, loc, ("__gpumem_run_thread_" + stub.getName()).str(), impl,
          argTypes, layout, unpack);
  wrappers.insert(runThread.function);

  hostkernel::KernelTableEntry entry;
  entry.name = stub.getName().str();
  entry.runThread = FlatSymbolRefAttr::get(runThread.function);
  entry.sharedBytes = sharedBytes;
  // A block-wide copy without barriers runs without fibers.
  entry.needsFibers = fibers && !blockImpl;
  entry.numParams = int32_t(runThread.paramBytes.size());
  entry.paramBytes = runThread.paramBytes;
  std::optional<ArrayRef<int32_t>> known = stub.getKnownBlockSize();
  if (known)
    entry.knownBlockSize = {(*known)[0], (*known)[1], (*known)[2]};

  if (!blockImpl && (fibers || asserts))
    return entry;

  // runBlocks(params, ctx, first, last): the params are unpacked once, then
  // a loop over the blocks runs each block's code.
  hostkernel::KernelWrapper<func::FuncOp> blocks =
      hostkernel::createKernelWrapper<func::FuncOp>(
          builder, loc, ("__gpumem_run_blocks_" + stub.getName()).str(),
          argTypes, layout, unpack, /*result=*/{}, {i64, i64});
  wrappers.insert(blocks.function);
  func::FuncOp runBlocks = blocks.function;
  OpBuilder &body = blocks.body;
  SmallVector<Value> &args = blocks.arguments;
  // Nothing but the blocks' own code touches the context while runBlocks
  // runs (the runtime sets it up before and services get it as an
  // argument), so the context is noalias there: LLVM then keeps the thread
  // ids in registers and hoists block values out of the thread loops,
  // which lets it vectorize them.
  runBlocks.setArgAttr(1, LLVM::LLVMDialect::getNoAliasAttrName(),
                       UnitAttr::get(context));
  Value contextArg = args.back();
  Value zero = arith::ConstantIndexOp::create(body, loc, 0);
  Value one = arith::ConstantIndexOp::create(body, loc, 1);
  ContextAccess access(body, loc, contextArg);
  auto toIndex = [&](OpBuilder &b, Value value) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
  };
  Value gridX = access.dimension(kContextGridDim, gpu::Dimension::x);
  Value gridY = access.dimension(kContextGridDim, gpu::Dimension::y);
  Value first = toIndex(body, runBlocks.getArgument(2));
  Value last = toIndex(body, runBlocks.getArgument(3));
  // The thread loops' bounds, for kernels without a block-wide copy.
  Value dims[3];
  for (int d = 0; d < 3 && !blockImpl; ++d)
    dims[d] = known ? arith::ConstantIndexOp::create(body, loc, (*known)[d])
                    : access.dimension(kContextBlockDim,
                                       static_cast<gpu::Dimension>(d));
  // The first block's id; later ones are stepped from it.
  Value rows = arith::DivUIOp::create(body, loc, first, gridX);
  Value firstId[3] = {arith::RemUIOp::create(body, loc, first, gridX),
                      arith::RemUIOp::create(body, loc, rows, gridY),
                      arith::DivUIOp::create(body, loc, rows, gridY)};
  auto blockLoop =
      scf::ForOp::create(body, loc, first, last, one, ValueRange(firstId));
  OpBuilder inner = OpBuilder::atBlockBegin(blockLoop.getBody());
  ValueRange blockId = blockLoop.getRegionIterArgs();
  ContextAccess innerAccess(inner, loc, contextArg);
  // Relaxed atomic stores: LLVM neither sinks them out of the loop nor
  // merges them, so a fault report names the block that faulted. (Volatile
  // stores would do that too, but they count as capturing the context,
  // which would cost its noalias.)
  for (int d = 0; d < 3; ++d) {
    Value id = arith::IndexCastOp::create(inner, loc, i64, blockId[d]);
    LLVM::StoreOp::create(
        inner, loc, id,
        innerAccess.address(contextArg, kContextBlockId + 8 * d),
        /*alignment=*/8, /*isVolatile=*/false, /*isNonTemporal=*/false,
        /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic);
  }

  if (blockImpl) {
    func::CallOp::create(inner, loc, blockImpl, args);
  } else {
    // z outermost, x innermost: the order threads have in CUDA's warps.
    std::function<void(OpBuilder &, int)> loopOver = [&](OpBuilder &b, int d) {
      auto loop = scf::ForOp::create(b, loc, zero, dims[d], one);
      OpBuilder threads = OpBuilder::atBlockBegin(loop.getBody());
      ContextAccess threadAccess(threads, loc, contextArg);
      Value id =
          arith::IndexCastOp::create(threads, loc, i64, loop.getInductionVar());
      LLVM::StoreOp::create(
          threads, loc, id,
          threadAccess.address(contextArg, kContextThreadId + 8 * d));
      if (d == 0)
        func::CallOp::create(threads, loc, impl, args);
      else
        loopOver(threads, d - 1);
    };
    loopOver(inner, 2);
  }

  scf::YieldOp::create(
      inner, loc, nextBlockId(inner, loc, blockId, gridX, gridY, zero, one));
  func::ReturnOp::create(body, loc);
  entry.runBlocks = FlatSymbolRefAttr::get(runBlocks);
  return entry;
}
