//===----------------------------------------------------------------------===//
// --sanitize by address, for the targets that run a GPU's device code on
// host cores (cuda-emu, rocm-emu).
//
// Their kernels are LLVM dialect with pointers, so checks go by address,
// as compute-sanitizer's do. After lowerDeviceModuleToHost every function
// with a body but the launch wrappers takes the thread context last. Before
// each llvm.load, llvm.store, llvm.atomicrmw and llvm.cmpxchg in those, the
// thread calls the runtime's addressAccess service with the address, the
// bytes, what the access does and its location; the runtime tells shared
// memory, device allocations, their redzones and freed memory apart and
// reports out-of-bounds accesses, use after free, races and uninitialized
// reads; of an access the memref checks already saw
// (SanitizeMemRefAccesses.h), only where its address lies. The access
// itself runs unchanged: an address just past an
// allocation or the block's shared memory lies in a redzone the runtime
// owns. LDS offsets (rocm-emu) are host addresses by then. (The device
// lowering records the checks in the kernel table.)
//===----------------------------------------------------------------------===//

#include "SanitizeAccesses.h"
#include "HostCode.h"
#include "SanitizeMemRefAccesses.h"

#include "gpumem/Runtime/CPUKernelABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/DenseSet.h"

#include <cstddef>
#include <string>

using namespace mlir;

namespace {

/// The address, the type of the value and the GPUMemSharedAccess kind of a
/// memory access; a null address for other ops.
struct Access {
  Value address;
  Type value;
  int32_t kind = 0;
  const char *verb = "";
};

Access describe(Operation *op) {
  if (auto load = dyn_cast<LLVM::LoadOp>(op))
    return {load.getAddr(), load.getType(), GPUMEM_SHARED_READ, "load"};
  if (auto store = dyn_cast<LLVM::StoreOp>(op))
    return {store.getAddr(), store.getValue().getType(), GPUMEM_SHARED_WRITE,
            "store"};
  int32_t atomic =
      GPUMEM_SHARED_READ | GPUMEM_SHARED_WRITE | GPUMEM_SHARED_ATOMIC;
  if (auto rmw = dyn_cast<LLVM::AtomicRMWOp>(op))
    return {rmw.getPtr(), rmw.getVal().getType(), atomic, "atomic update"};
  if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(op))
    return {cmpxchg.getPtr(), cmpxchg.getVal().getType(), atomic,
            "atomic compare-and-swap"};
  return {};
}

/// Functions that run kernel code: not the wrappers that unpack a launch's
/// parameters, nor the coroutine resumer (which takes no context).
bool runsKernelCode(LLVM::LLVMFuncOp func) {
  StringRef name = func.getName();
  return !func.isExternal() && func.getNumArguments() > 0 &&
         isa<LLVM::LLVMPointerType>(
             func.getArgumentTypes()[func.getNumArguments() - 1]) &&
         !name.starts_with("__gpumem_run_thread_") &&
         !name.starts_with("__gpumem_start_coroutine_") &&
         name != "__gpumem_resume_coroutine";
}

void instrument(Operation *op, Value context, int32_t flags,
                const DataLayout &layout, gpu::GPUModuleOp module,
                const llvm::DenseSet<Value> &swapped) {
  Access access = describe(op);
  // An access checked by memref before the device lowering
  // (SanitizeMemRefAccesses.h): its races and uninitialized reads are
  // known; its address may still lie in freed memory or outside its
  // allocation (a view made outside its buffer).
  std::optional<StringRef> memrefWords =
      gpumem::hostkernel::isCheckedByMemRef(op->getLoc());
  if (memrefWords)
    flags &= GPUMEM_ACCESS_CHECK_BOUNDS;
  if (!flags)
    return;
  // A plain load of an address the function also compare-and-swaps
  // starts a compare-and-swap loop (memref.generic_atomic_rmw's
  // lowering): it races with plain writes only, as an atomic does.
  if (isa<LLVM::LoadOp>(op) && swapped.contains(access.address))
    access.kind |= GPUMEM_SHARED_ATOMIC;
  OpBuilder builder(op);
  Location loc = op->getLoc();
  // The bytes the access touches: a vector<3xi32> stores 12, although
  // the data layout rounds its size up to 16.
  int64_t bytes = int64_t(layout.getTypeSize(access.value));
  if (auto vector = dyn_cast<VectorType>(access.value))
    bytes = (vector.getNumElements() *
                 int64_t(layout.getTypeSizeInBits(vector.getElementType())) +
             7) /
            8;
  std::string what = memrefWords ? memrefWords->str()
                                 : std::string(access.verb) + " of " +
                                       std::to_string(bytes) + " byte" +
                                       (bytes == 1 ? "" : "s");
  auto i32 = builder.getI32Type();
  auto i64 = builder.getI64Type();
  Value size = LLVM::ConstantOp::create(builder, loc, i64, bytes);
  Value kind =
      LLVM::ConstantOp::create(builder, loc, i32, int64_t(access.kind | flags));
  Value whatString =
      gpumem::hostkernel::getStringPointer(builder, loc, module, what);
  Value where = gpumem::hostkernel::getLocationString(builder, loc, module);
  gpumem::hostkernel::ContextAccess(builder, loc, context)
      .call(GPUMEM_RUNTIME_SERVICE(addressAccess),
            {context, access.address, size, kind, whatString, where});
}

} // namespace

void gpumem::hostkernel::instrumentAccessesByAddress(gpu::GPUModuleOp module,
                                                     int32_t checks) {
  int32_t flags =
      (checks & GPUMEM_CHECK_MEMCHECK ? GPUMEM_ACCESS_CHECK_BOUNDS : 0) |
      (checks & GPUMEM_CHECK_RACECHECK ? GPUMEM_SHARED_CHECK_RACES : 0) |
      (checks & GPUMEM_CHECK_INITCHECK ? GPUMEM_SHARED_CHECK_INIT : 0);
  if (!flags)
    return;
  DataLayout layout = DataLayout::closest(module);
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!runsKernelCode(func))
      continue;
    Value context = func.getArgument(func.getNumArguments() - 1);
    SmallVector<Operation *> accesses;
    llvm::DenseSet<Value> swapped;
    func.walk([&](Operation *op) {
      if (describe(op).address)
        accesses.push_back(op);
      if (auto cmpxchg = dyn_cast<LLVM::AtomicCmpXchgOp>(op))
        swapped.insert(cmpxchg.getPtr());
    });
    for (Operation *op : accesses)
      instrument(op, context, flags, layout, module, swapped);
  }
}
