//===----------------------------------------------------------------------===//
// The runtime services only the cuda-emu target calls: CUDA's device-side
// printf (vprintf) and assert (__assertfail).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_CUDAEMULATION_H
#define GPUMEM_RUNTIME_CPU_CUDAEMULATION_H

#include "gpumem/Runtime/CPUKernelABI.h"

namespace gpumem::cpu {

/// services->vprintf.
int32_t cudaVprintf(GPUMemThreadContext *ctx, const char *format,
                    const void *arguments);
/// services->cudaAssertFail.
[[noreturn]] void cudaAssertFail(GPUMemThreadContext *ctx, const char *message,
                                 const char *file, uint32_t line,
                                 const char *function);

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_CUDAEMULATION_H
