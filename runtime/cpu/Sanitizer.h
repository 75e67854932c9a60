//===----------------------------------------------------------------------===//
// The cpu runtime's side of --sanitize: reports of the checks that
// instrumented kernels make (gpumem-sanitize-memory-accesses), counted per
// site, and a summary that fails the program at its end.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_SANITIZER_H
#define GPUMEM_RUNTIME_CPU_SANITIZER_H

#include "gpumem/Runtime/CPUKernelABI.h"

namespace gpumem::cpu {

/// services->accessError.
void accessErrorService(GPUMemThreadContext *ctx, const char *what,
                        const char *location, int64_t dim, int64_t index,
                        int64_t size);

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_SANITIZER_H
