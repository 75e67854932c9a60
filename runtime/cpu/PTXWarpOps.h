//===----------------------------------------------------------------------===//
// The results of PTX's warp-synchronous instructions, computed from the
// operands every lane of the member mask brought (cuda-emu target).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_PTXWARPOPS_H
#define GPUMEM_RUNTIME_CPU_PTXWARPOPS_H

#include "gpumem/Runtime/CPUKernelABI.h"

#include <cstdint>

namespace gpumem::cpu {

/// The operands one lane brings to a warp-synchronous instruction.
struct WarpOperands {
  uint64_t value;
  int32_t b, c;
};

/// The result of `op` (GPUMemWarpOp) for lane `lane` of a warp of
/// `warpSize` lanes (GPUMEM_WARP_SIZE or GPUMEM_MAX_WARP_SIZE), with
/// `lanes[l]` the operands of lane l for every l in `memberMask`; *pred
/// receives the predicate result (0 where the instruction has none). In a
/// 64-lane warp shuffles have no clamp or segment mask (CPUKernelABI.h).
uint64_t ptxWarpResult(int32_t op, uint32_t lane, uint64_t memberMask,
                       const WarpOperands lanes[], int32_t *pred,
                       uint32_t warpSize = GPUMEM_WARP_SIZE);

/// The source lane of the shuffle `op` (SHFL_BFLY..SHFL_IDX) for lane
/// `lane` with operands `self`, or -1 where the shuffle is invalid there.
int32_t ptxShuffleSource(int32_t op, uint32_t lane, const WarpOperands &self,
                         uint32_t warpSize = GPUMEM_WARP_SIZE);

/// ptxWarpResult over the active lanes of a kernel whose warp operations
/// run over the lanes that reach them (AMD's EXEC mask,
/// GPUMemCPUKernel::warpOpsOverArrivedLanes): `active` is the member mask,
/// and a shuffle's valid source lane outside it reads as 0 with *pred 0.
uint64_t activeLanesWarpResult(int32_t op, uint32_t lane, uint64_t active,
                               const WarpOperands lanes[], int32_t *pred,
                               uint32_t warpSize);

/// Told of each memory access a matrix instruction makes, lane by lane and
/// before it is made (--sanitize): `what` says which ("wmma.load of 2
/// bytes").
struct MatrixAccessObserver {
  void (*access)(void *user, uint32_t lane, const void *address, int64_t bytes,
                 bool write, const char *what);
  void *user;
};

/// GPUMEM_WARP_MATRIX: the warp-level matrix instruction `descriptor`
/// (gpumem/Runtime/PTXMatrix.h) for the 32 lanes of `lanes`, whose values
/// are their records (PTXMatrixOps.cpp); `observer`, when given, hears of
/// every element each lane reads or writes in memory.
void ptxMatrixOp(int32_t descriptor, const WarpOperands lanes[],
                 const MatrixAccessObserver *observer = nullptr);

/// The PTX mnemonic of `op`, for messages ("shfl.sync.idx").
const char *ptxWarpOpName(int32_t op);

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_PTXWARPOPS_H
