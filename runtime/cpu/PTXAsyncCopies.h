//===----------------------------------------------------------------------===//
// PTX's asynchronous copies on the CPU (cuda-emu): the services behind
// cp.async, cp.async.commit_group and cp.async.wait_group / wait_all.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_PTXASYNCCOPIES_H
#define GPUMEM_RUNTIME_CPU_PTXASYNCCOPIES_H

#include "gpumem/Runtime/CPUKernelABI.h"

namespace gpumem::cpu {

/// services->asyncCopy, asyncCopyCommit and asyncCopyWait.
void ptxAsyncCopy(GPUMemThreadContext *ctx, void *queue, void *dst,
                  const void *src, int32_t bytes, int32_t srcBytes);
void ptxAsyncCopyCommit(GPUMemThreadContext *ctx, void *queue);
void ptxAsyncCopyWait(GPUMemThreadContext *ctx, void *queue, int32_t groups);

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_PTXASYNCCOPIES_H
