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

namespace gpumem::cuda {

/// Prints "gpumem: error: " followed by the formatted message and a newline
/// to stderr, flushes C stdio and ends the process with exit code 1. When
/// several threads fail at once, only the first one prints.
[[noreturn]] void fatal(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_SUPPORT_H
