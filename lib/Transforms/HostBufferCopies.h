//===----------------------------------------------------------------------===//
// Copy mode of gpumem-host-buffers-to-device (step 4; HostBufferAnalysis.h
// finds the buffers): each host buffer lives on the device for runs of
// launches, with a copy in before and a copy out after.
//
// Groups. In the block that defines the buffer (and the blocks of its
// region it dominates), ops are scanned in order: a synchronous launch
// using the buffer, or an op with regions (scf.for, scf.if, ...) whose
// launches use it without any host access inside, joins the current group;
// a host access ends it (and an op with both is searched the same way,
// block by block). An asynchronous launch is a group of its own.
//
// Emission. A group gets one device buffer (gpu.alloc of the buffer's type,
// dynamic sizes from memref.dim; for non-identity layouts a flat buffer over
// the extent plus a memref.reinterpret_cast; at the location of the host
// allocation, so that reports name it), one copy in before its first op
// (unless the buffer was just allocated in that block and nothing touched
// it yet), one copy out after its last op when a member may write it (never
// into a constant global), and a gpu.dealloc after that. Launches use the
// device buffer: the views between root and captured value are cloned at
// the start of the body. An asynchronous launch's group has its
// gpu.alloc/memcpy/dealloc async, chained to the launch's tokens.
//
// Every group of a function is planned on the unchanged IR before any is
// emitted.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TRANSFORMS_HOSTBUFFERCOPIES_H
#define GPUMEM_LIB_TRANSFORMS_HOSTBUFFERCOPIES_H

#include "HostBufferAnalysis.h"

#include "mlir/IR/Dominance.h"

namespace gpumem::hostbuffers {

/// A run of ops of one block during which the buffer lives on the device.
struct CopyGroup {
  HostBuffer *buffer;
  llvm::SmallVector<mlir::Operation *> members;
  Access access;
  bool async = false;
  /// The buffer was allocated in this block and nothing used it before.
  bool fresh = false;
};

/// Plans and emits the copy groups of the buffers of one function.
class HostBufferCopies {
public:
  HostBufferCopies(mlir::FunctionOpInterface func,
                   const HostBufferAnalysis &analysis)
      : func(func), analysis(analysis), dominance(func) {}

  /// Fails, with an error at a launch, when copy mode cannot copy `buffer`
  /// (unranked, or a layout that is not strided).
  mlir::LogicalResult checkCopyable(HostBuffer &buffer);
  /// Appends the groups of `buffer`, a buffer `checkCopyable` accepted, to
  /// `groups`. The IR is not changed.
  void plan(HostBuffer &buffer, llvm::SmallVectorImpl<CopyGroup> &groups);
  /// Rewrites the IR for one planned group.
  void emit(CopyGroup &group);

  unsigned numDeviceBuffers = 0, numCopiesIn = 0, numCopiesOut = 0;

private:
  /// The device copy of a host buffer: `flat` is what is allocated and
  /// copied (the buffer's type, or a 1-D buffer over its extent), `view`
  /// what kernels use (the buffer's type).
  struct DeviceCopy {
    mlir::Value flat, view, hostFlat;
  };

  void planBlock(HostBuffer &buffer, mlir::Block &block,
                 mlir::Block::iterator begin, bool fresh,
                 llvm::SmallVectorImpl<CopyGroup> &groups);
  Access groupAccess(HostBuffer &buffer,
                     llvm::ArrayRef<mlir::Operation *> members);
  DeviceCopy allocateDevice(mlir::OpBuilder &builder, HostBuffer &buffer,
                            mlir::Location loc, mlir::Value asyncDep,
                            mlir::Value *token);
  mlir::Value copy(mlir::OpBuilder &builder, mlir::Location loc,
                   mlir::Value dst, mlir::Value src, mlir::Value asyncDep);
  void useDeviceCopy(HostBuffer &buffer, mlir::Operation *launch,
                     mlir::Value device);

  mlir::FunctionOpInterface func;
  const HostBufferAnalysis &analysis;
  /// Of the unchanged IR: used while planning only.
  mlir::DominanceInfo dominance;
};

} // namespace gpumem::hostbuffers

#endif // GPUMEM_LIB_TRANSFORMS_HOSTBUFFERCOPIES_H
