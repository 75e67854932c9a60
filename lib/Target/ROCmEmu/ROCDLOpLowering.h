//===----------------------------------------------------------------------===//
// What the rocm-emu per-op lowerings share (populateROCDLToCPUPatterns):
// the builder each pattern uses in front of its op and the pattern base are
// the host-kernel layer's (../HostKernel/DeviceOpLowering.h: thread context
// fields, the linear work-item id, services->warpSync in the function's
// waiting mode, block-wide barriers); here is the populate function of the
// cross-lane ops. ROCDLOps.cpp lowers ids, barriers, waits, mbcnt and
// printf and is the entry point; ROCDLWarpOps.cpp lowers the cross-lane ops.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_ROCMEMU_ROCDLOPLOWERING_H
#define GPUMEM_LIB_TARGET_ROCMEMU_ROCDLOPLOWERING_H

#include "ROCDLToCPU.h"

#include "../HostKernel/DeviceFunctions.h"
#include "../HostKernel/DeviceOpLowering.h"

#include "mlir/IR/PatternMatch.h"

namespace gpumem::rocmemu::rocdlops {

using hostkernel::BlockBarrierPattern;
using hostkernel::DeviceFunctionState;
using hostkernel::DevicePattern;
using hostkernel::SharedLayout;
using hostkernel::Waiting;
/// Builds the lowering of one ROCDL op in front of it.
using Emitter = hostkernel::DeviceOpEmitter;

/// Whether `op` is one of the cross-lane ops of ROCDLWarpOps.cpp.
bool isCrossLaneOp(mlir::Operation *op);

/// The patterns of the cross-lane ops (ds_bpermute, ds_swizzle, readlane,
/// readfirstlane, ballot), in ROCDLWarpOps.cpp.
void populateCrossLanePatterns(mlir::RewritePatternSet &patterns,
                               DeviceFunctionState &state);

} // namespace gpumem::rocmemu::rocdlops

#endif // GPUMEM_LIB_TARGET_ROCMEMU_ROCDLOPLOWERING_H
