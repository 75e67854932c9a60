//===----------------------------------------------------------------------===//
// The host buffers a host function's launches use, and who touches them:
// steps 1 to 3 of gpumem-host-buffers-to-device (HostBuffersToDevice.cpp
// says what the pass makes of them).
//
//  1. Buffers. Every memref a launch captures (a gpu.launch body uses it but
//     it is defined outside; a gpu.launch_func passes it) in the default
//     memory space is traced through views (ViewLikeOpInterface,
//     memref.transpose) to its root: memref.alloc, memref.alloca, a function
//     argument, memref.get_global (all get_globals of one symbol are one
//     buffer), or anything else ("unknown": loaded, returned by a call, a
//     block argument). Roots from gpu.alloc or gpumem.alloc_managed are
//     device memory already, and a buffer the function passes to
//     gpu.host_register is the user's business: both are left alone.
//  2. Uses. Every use of the buffer or of a view of it is a device use (in a
//     launch body, a gpu.launch_func operand), a view, or a host use. A host
//     use with a memory effect on the value (or none at all, like
//     memref.dim) is an access, anything else (a call, a return, a store of
//     the memref itself) an access that lets the buffer escape. Arguments,
//     globals and unknown roots count as escaped. For an escaped buffer, any
//     host op that may touch memory the pass cannot attribute to a distinct
//     root (a call, an unknown op, an effect on an unknown pointer) is an
//     access too.
//  3. Device effects. MemoryEffectOpInterface on the uses inside the launch
//     body (through views made there) says read and/or write; anything else
//     (a call to a device function, a region op) is read and write. For
//     gpu.launch_func the kernel's gpu.func argument is analysed the same
//     way, or read and write when the body is not there.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TRANSFORMS_HOSTBUFFERANALYSIS_H
#define GPUMEM_LIB_TRANSFORMS_HOSTBUFFERANALYSIS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

namespace gpumem::hostbuffers {

/// What a host buffer's root is.
enum class RootKind { Alloc, Alloca, Argument, Global, Unknown };

/// Whether something may read or write a buffer.
struct Access {
  bool read = false;
  bool write = false;
  bool any() const { return read || write; }
  void add(Access other) {
    read |= other.read;
    write |= other.write;
  }
};

/// One host buffer of a function: its root and everything derived from it.
struct HostBuffer {
  RootKind kind = RootKind::Unknown;
  /// The root value (for globals, the first memref.get_global seen).
  mlir::Value root;
  /// The values that are the whole buffer (every get_global of a global).
  llvm::SmallVector<mlir::Value> bases;
  mlir::memref::GlobalOp global;
  /// The block the buffer is defined in, and the op defining it (null for
  /// block arguments and globals).
  mlir::Block *scope = nullptr;
  mlir::Operation *def = nullptr;
  /// Bases and all views of them.
  llvm::SetVector<mlir::Value> derived;
  /// gpu.launch ops and the derived values each captures.
  llvm::MapVector<mlir::Operation *, llvm::SetVector<mlir::Value>> launches;
  /// gpu.launch_func ops and the operand numbers that are derived values.
  llvm::MapVector<mlir::Operation *, llvm::SmallVector<unsigned>> launchFuncs;
  /// Host ops that access the buffer (outside any launch).
  llvm::SmallPtrSet<mlir::Operation *, 8> hostAccesses;
  /// The ops above and including host accesses / device uses / async
  /// device uses.
  llvm::SmallPtrSet<mlir::Operation *, 16> hostAncestors, deviceAncestors,
      asyncAncestors;
  llvm::SmallVector<mlir::memref::DeallocOp> deallocs;
  bool escapes = false;
  bool registeredByUser = false;
  /// A memref.alloc that can become a managed allocation.
  bool managedCandidate = false;
  /// Per launch or launch_func: what it may do to the buffer.
  llvm::DenseMap<mlir::Operation *, Access> deviceAccess;

  bool isConstantGlobal() {
    return kind == RootKind::Global && global && global.getConstant();
  }
  mlir::Location getLoc() { return root ? root.getLoc() : global.getLoc(); }
  /// The whole buffer at `builder`'s insertion point: the root, or for a
  /// global a new memref.get_global.
  mlir::Value createHostValue(mlir::OpBuilder &builder, mlir::Location loc);
};

/// True for gpu.launch and gpu.launch_func.
bool isLaunch(mlir::Operation *op);
/// True for a launch that returns an async token.
bool isAsyncLaunch(mlir::Operation *op);
/// The memref `result` of `op` is a view of: the source of a view-like op,
/// or null.
mlir::Value getViewSource(mlir::Operation *op, mlir::Value result);

/// Steps 1 to 3 for one host function.
class HostBufferAnalysis {
public:
  HostBufferAnalysis(mlir::FunctionOpInterface func,
                     mlir::SymbolTableCollection &symbols)
      : func(func), symbols(symbols) {}

  /// Finds and analyses the buffers; the IR is not changed.
  void run();

  /// Buffers, keyed by root value or global symbol, in the order the
  /// function's launches first use them.
  llvm::MapVector<const void *, std::unique_ptr<HostBuffer>> &getBuffers() {
    return buffers;
  }

  /// True when `op` (or an op nested in it) may touch `buffer` on the host.
  bool isHostFor(HostBuffer &buffer, mlir::Operation *op) const {
    return buffer.hostAncestors.contains(op) ||
           (buffer.escapes && unknownAccessAncestors.contains(op));
  }

private:
  void collectBuffers();
  HostBuffer *getOrCreateBuffer(mlir::Value captured);
  void analyseBuffer(HostBuffer &buffer);
  void collectUnknownAccesses();
  bool mayAccessUnknownMemory(mlir::Operation *op);
  RootKind classifyRoot(mlir::Value root, mlir::memref::GlobalOp *global);

  mlir::FunctionOpInterface func;
  mlir::SymbolTableCollection &symbols;
  llvm::MapVector<const void *, std::unique_ptr<HostBuffer>> buffers;
  /// Host ops that may touch memory of an escaped buffer, and ancestors.
  llvm::SmallPtrSet<mlir::Operation *, 16> unknownAccessAncestors;
};

} // namespace gpumem::hostbuffers

#endif // GPUMEM_LIB_TRANSFORMS_HOSTBUFFERANALYSIS_H
