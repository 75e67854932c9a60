//===----------------------------------------------------------------------===//
// CUDA's device-side printf (vprintf, cuda-emu only) and the messages of
// a failed assert (both cpu targets).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_CUDAEMULATION_H
#define GPUMEM_RUNTIME_CPU_CUDAEMULATION_H

#include "gpumem/Runtime/CPUKernelABI.h"

namespace gpumem::cpu {

/// services->vprintf.
int32_t cudaVprintf(GPUMemThreadContext *ctx, const char *format,
                    const void *arguments);
/// Prints CUDA's line for a thread that failed an assert, "file:line:
/// function: block: [x,y,z], thread: [x,y,z] Assertion `message` failed.",
/// on stderr, after what the program printed so far.
void printAssertFailure(const GPUMemThreadContext *ctx, const char *message,
                        const char *file, uint32_t line, const char *function);
/// Stops the program after a launch of `kernel` in which asserts failed:
/// for cuda-emu kernels as the cuda runtime reports a kernel that trapped.
[[noreturn]] void reportFailedAssertions(const GPUMemCPUKernel *kernel);

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_CUDAEMULATION_H
