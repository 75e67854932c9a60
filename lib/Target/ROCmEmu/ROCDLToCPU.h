//===----------------------------------------------------------------------===//
// The rocm-emu target's per-op lowering: the ROCDL ops that upstream's
// convert-gpu-to-rocdl makes (work-item ids, barriers, mbcnt, ds_bpermute,
// readlane, ...) become host code for the cpu runtime with AMDGPU's
// semantics (docs/rocm-emu.md, "AMDGPU semantics"). The module-level work
// (shared memory, context arguments, kernel entries, coroutines) is the
// host-kernel layer's (../HostKernel); these are what it asks of a device
// dialect: the patterns of one function's ops, which ops wait for other
// threads, which of them are block-wide barriers, and which ops have a
// lowering at all.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_ROCMEMU_ROCDLTOCPU_H
#define GPUMEM_LIB_TARGET_ROCMEMU_ROCDLTOCPU_H

#include "../HostKernel/DeviceFunctions.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace gpumem::rocmemu {

/// Patterns that lower, in the function `state` describes, ROCDL ops (and
/// refuse HIP's __ockl_printf_* calls with a located error), one pattern
/// per op (ROCDLOps.cpp, ROCDLWarpOps.cpp). They build their lowering in
/// front of the op, replace or erase it, and touch no other op of the
/// function; they leave the ops they do not know alone. A pattern that
/// refuses its op reports at it and sets state.failed. `state` must outlive
/// them.
void populateROCDLToCPUPatterns(mlir::RewritePatternSet &patterns,
                                hostkernel::DeviceFunctionState &state);

/// Ops where a thread waits for other threads of its workgroup or
/// wavefront: barriers and the cross-lane ops (ds_bpermute, ds_swizzle,
/// readlane, readfirstlane, ballot).
bool isSynchronizingROCDLOp(mlir::Operation *op);

/// The workgroup-wide barriers (rocdl.barrier, rocdl.s.barrier): a
/// coroutine kernel that waits only at these suspends without a service
/// call.
bool isBlockBarrierROCDLOp(mlir::Operation *op);

/// The ROCDL ops populateROCDLToCPUPatterns lowers. A pattern may still
/// refuse one of them at its op: a ds_swizzle whose offset is not a
/// constant of a known mode, readlane of a value wider than 64 bits.
bool isSupportedROCDLOp(mlir::Operation *op);

/// Whether `intrinsic` is llvm.amdgcn.dispatch.ptr, which
/// populateDispatchPacketPatterns lowers (DispatchPacket.cpp).
bool isDispatchPacketIntrinsic(llvm::StringRef intrinsic);
/// The pattern that makes each llvm.amdgcn.dispatch.ptr a pointer to an HSA
/// dispatch packet filled from the thread context.
void populateDispatchPacketPatterns(mlir::RewritePatternSet &patterns,
                                    hostkernel::DeviceFunctionState &state);

/// Renames ocml's __ocml_* declarations to the libm functions with the same
/// results, and checks that every other declared function is one the host
/// provides; errors name the calls (OCMLFunctions.cpp).
mlir::LogicalResult mapOCMLCalls(mlir::gpu::GPUModuleOp module);
/// Gives bodies to the __ocml_* functions libm has no counterpart of
/// (rsqrt, pown); called once the context arguments are in place.
mlir::LogicalResult defineOCMLHelpers(mlir::gpu::GPUModuleOp module);

} // namespace gpumem::rocmemu

#endif // GPUMEM_LIB_TARGET_ROCMEMU_ROCDLTOCPU_H
