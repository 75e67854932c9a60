//===----------------------------------------------------------------------===//
// Environment variables of the CPU runtime. Nothing here has a dynamic
// initializer: modules are loaded from global constructors that may run
// before this library's own.
//===----------------------------------------------------------------------===//

#include "Support.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace gpumem::cpu {

/// Parses a decimal integer with an optional K/M/G suffix; false when
/// `text` is not one or overflows.
static bool parseSize(const char *text, uint64_t &result) {
  if (*text < '0' || *text > '9')
    return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (errno != 0)
    return false;
  unsigned shift = 0;
  switch (*end) {
  case '\0':
    break;
  case 'k':
  case 'K':
    shift = 10;
    ++end;
    break;
  case 'm':
  case 'M':
    shift = 20;
    ++end;
    break;
  case 'g':
  case 'G':
    shift = 30;
    ++end;
    break;
  default:
    return false;
  }
  if (*end != '\0' || value > (UINT64_MAX >> shift))
    return false;
  result = value << shift;
  return true;
}

unsigned workerCountFromEnvironment() {
  constexpr uint64_t maxWorkers = 4096;
  if (const char *text = std::getenv("GPUMEM_CPU_THREADS")) {
    uint64_t value = 0;
    if (!parseSize(text, value) || value < 1 || value > maxWorkers)
      fatal("GPUMEM_CPU_THREADS must be an integer in 1..%llu, not '%s'",
            (unsigned long long)maxWorkers, text);
    return unsigned(value);
  }
  unsigned cores = std::thread::hardware_concurrency();
  return cores ? cores : 1;
}

size_t stackBytesFromEnvironment() {
  constexpr uint64_t minBytes = 16 << 10, maxBytes = uint64_t(1) << 30;
  if (const char *text = std::getenv("GPUMEM_CPU_STACK_SIZE")) {
    uint64_t value = 0;
    if (!parseSize(text, value) || value < minBytes || value > maxBytes)
      fatal("GPUMEM_CPU_STACK_SIZE must be a size from 16K to 1G (bytes, or "
            "with a K, M or G suffix), not '%s'",
            text);
    return size_t(value);
  }
  return 64 << 10;
}

} // namespace gpumem::cpu
