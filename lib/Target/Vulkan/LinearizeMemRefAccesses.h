//===----------------------------------------------------------------------===//
// Every memref access of a vulkan kernel addressed from a one-dimensional
// root (the algorithm is in LinearizeMemRefAccesses.cpp): memref arguments
// become `memref<?xT>` buffers with their metadata as index arguments,
// static attributions and allocas become `memref<NxT>`, views are expanded
// into reinterpret_casts of a root, and each load, store and atomic indexes
// its root at base + offset + sum(index * stride). Steps of
// gpumem-prepare-vulkan-kernels, which decides the launch ABI around them.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_VULKAN_LINEARIZEMEMREFACCESSES_H
#define GPUMEM_LIB_TARGET_VULKAN_LINEARIZEMEMREFACCESSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

namespace gpumem::vulkan {

/// A kernel's roots: the one-dimensional memrefs its accesses index.
struct MemRefRoots {
  /// Every root, in the order they were made (errors name the first bad use
  /// in that order, the same on every run).
  llvm::SetVector<mlir::Value> all;
  /// Buffer roots (kernel arguments `memref<?xT>`), in argument order.
  llvm::SmallVector<mlir::BlockArgument> buffers;
  /// The element offset of each buffer root, added to every index into it.
  llvm::DenseMap<mlir::Value, mlir::Value> bufferBase;
  /// Roots of private allocas.
  llvm::SmallVector<mlir::Value> allocas;
};

/// Makes argument `index` of `kernel`, a strided memref, a buffer root:
/// appends a `memref<?xT>` argument (the same memory space) and 1 + 2 * rank
/// index arguments (offset, sizes, strides), the offset being the root's
/// base, and replaces the argument's uses with a reinterpret_cast of the
/// root (at offset 0) built by `builder`. The old argument is left for the
/// caller to erase. Returns the root's argument position, or fails after a
/// located diagnostic.
mlir::FailureOr<unsigned> makeBufferRoot(mlir::OpBuilder &builder,
                                         mlir::gpu::GPUFuncOp kernel,
                                         unsigned index, MemRefRoots &roots);

/// Makes `value`, a static identity memref (a workgroup attribution), a
/// root `memref<NxT>` in place; its uses see a reinterpret_cast built by
/// `builder` to the old type.
void makeFlatRoot(mlir::OpBuilder &builder, mlir::Value value,
                  MemRefRoots &roots);

/// Makes every private attribution (with `builder`) and memref.alloca of
/// `kernel` a flat root. Fails after a located diagnostic on one whose shape
/// is not static or whose layout is not the identity.
mlir::LogicalResult makePrivateRoots(mlir::OpBuilder &builder,
                                     mlir::gpu::GPUFuncOp kernel,
                                     MemRefRoots &roots);

/// Expands every view of `kernel` into a reinterpret_cast of a root's base
/// buffer, and folds memref.dim of one to its size.
mlir::LogicalResult expandViews(mlir::gpu::GPUFuncOp kernel);

/// Makes each load, store and atomic of `kernel` index its root directly.
/// Fails after a located diagnostic on one whose memref does not trace to a
/// root.
mlir::LogicalResult linearizeAccesses(mlir::gpu::GPUFuncOp kernel,
                                      const MemRefRoots &roots);

/// Fails after a located diagnostic when anything but a load, store or
/// atomic (or an unread extract_strided_metadata) still uses a root.
mlir::LogicalResult checkRootUses(const MemRefRoots &roots);

/// Gives buffer roots the global and alloca roots the private memory space
/// where they have none, and `kernel` the function type of its arguments.
void retypeRoots(mlir::gpu::GPUFuncOp kernel, const MemRefRoots &roots);

} // namespace gpumem::vulkan

#endif // GPUMEM_LIB_TARGET_VULKAN_LINEARIZEMEMREFACCESSES_H
