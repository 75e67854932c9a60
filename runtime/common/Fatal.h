//===----------------------------------------------------------------------===//
// Fatal errors of gpumem's runtimes, compiled into each runtime library.
//
// The mgpu* ABI returns no error codes, so every error stops the program:
// one line "gpumem: error: ..." on stderr, C stdio flushed, exit code 1. The
// process ends with _exit: worker threads or the driver may still run, and
// no destructor or atexit handler should run next to a failure. Nothing has
// a dynamic initializer: modules load from global constructors that may run
// before a runtime library's own.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_FATAL_H
#define GPUMEM_RUNTIME_COMMON_FATAL_H

namespace gpumem::runtime {

/// Prints "gpumem: error: " followed by the formatted message and a newline
/// to stderr, flushes C stdio and ends the process with exit code 1. When
/// several threads fail at once, only the first one prints.
[[noreturn]] void fatal(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_FATAL_H
