//===----------------------------------------------------------------------===//
// Error reporting shared by the CUDA runtime's parts.
//
// The mgpu* ABI returns no error codes, so every error stops the program:
// one line "gpumem: error: ..." on stderr (a JIT log may follow on the next
// lines), C stdio flushed, exit code 1. The process ends with _exit: the
// driver may hold locks or run threads of its own, and no destructor or
// atexit handler should run next to a failed call.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_SUPPORT_H
#define GPUMEM_RUNTIME_CUDA_SUPPORT_H

#include "Fatal.h"

namespace gpumem::cuda {

using gpumem::runtime::fatal;

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_SUPPORT_H
