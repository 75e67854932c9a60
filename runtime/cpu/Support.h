//===----------------------------------------------------------------------===//
// Error reporting and configuration shared by the CPU runtime's parts.
//
// The mgpu* ABI returns no error codes, so every error stops the program:
// one line "gpumem: error: ..." on stderr, C stdio flushed, exit code 1.
// Workers may still be running blocks when one of them fails, so the
// process ends with _exit: no destructor or atexit handler runs next to
// code that is still executing.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_SUPPORT_H
#define GPUMEM_RUNTIME_CPU_SUPPORT_H

#include "gpumem/Runtime/CPUKernelABI.h"

#include "Fatal.h"

#include <cstddef>
#include <cstdint>

namespace gpumem::cpu {

using gpumem::runtime::fatal;

/// The kernel's name for messages.
inline const char *nameOf(const GPUMemCPUKernel *kernel) {
  return kernel->name ? kernel->name : "<unnamed>";
}

/// A source location for messages: compiled code may pass null.
inline const char *locationOr(const char *location) {
  return location ? location : "<unknown location>";
}

/// Number of workers: GPUMEM_CPU_THREADS when set (a positive integer),
/// else std::thread::hardware_concurrency() (at least 1).
unsigned workerCountFromEnvironment();

/// Bytes per fiber stack: GPUMEM_CPU_STACK_SIZE when set (bytes, with an
/// optional K, M or G suffix, at least 16 KiB), else 64 KiB.
size_t stackBytesFromEnvironment();

/// `value` rounded up to a multiple of `alignment` (a power of two).
constexpr uint64_t alignTo(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_SUPPORT_H
