//===----------------------------------------------------------------------===//
// Fatal errors of the CUDA runtime. Nothing here has a dynamic initializer:
// modules are loaded from global constructors that may run before this
// library's own.
//===----------------------------------------------------------------------===//

#include "Support.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <unistd.h>

namespace gpumem::cuda {

void fatal(const char *format, ...) {
  // Constant-initialized; never unlocked: the first failing thread ends the
  // process and any other one waits here until it is gone.
  static std::mutex reporting;
  reporting.lock();
  std::fflush(stdout);
  va_list args;
  va_start(args, format);
  std::fputs("gpumem: error: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
  std::fflush(nullptr);
  _exit(1);
}

} // namespace gpumem::cuda
