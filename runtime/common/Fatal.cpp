//===----------------------------------------------------------------------===//
// The runtimes' fatal error report (see Fatal.h).
//===----------------------------------------------------------------------===//

#include "Fatal.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <unistd.h>

void gpumem::runtime::fatal(const char *format, ...) {
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
