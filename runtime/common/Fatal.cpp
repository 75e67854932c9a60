//===----------------------------------------------------------------------===//
// The runtimes' fatal error report (see Fatal.h), with the source location
// of the launch or memory call in progress when there is one.
//===----------------------------------------------------------------------===//

#include "Fatal.h"
#include "LaunchLocation.h"

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
  if (const char *launch = currentLaunchLocation())
    std::fprintf(stderr, "gpumem: note: in the launch at %s\n", launch);
  else if (const char *call = currentMemoryCallLocation())
    std::fprintf(stderr, "gpumem: note: at %s\n", call);
  std::fflush(nullptr);
  _exit(1);
}
