//===----------------------------------------------------------------------===//
// The messages of a failed device-side assert (DeviceAssert.h).
//===----------------------------------------------------------------------===//

#include "DeviceAssert.h"
#include "Fatal.h"

#include <cstdio>

void gpumem::runtime::printAssertFailure(const char *where,
                                         const int64_t block[3],
                                         const int64_t thread[3],
                                         const char *message) {
  char text[4096];
  int length = std::snprintf(
      text, sizeof(text),
      "%s: block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] Assertion `%s` "
      "failed.\n",
      where, (long long)block[0], (long long)block[1], (long long)block[2],
      (long long)thread[0], (long long)thread[1], (long long)thread[2],
      message ? message : "");
  if (length < 0)
    return;
  if (size_t(length) >= sizeof(text)) {
    length = int(sizeof(text) - 1);
    text[length - 1] = '\n';
  }
  std::fflush(stdout);
  std::fwrite(text, 1, size_t(length), stderr);
}

void gpumem::runtime::failAfterAssertions(const char *kernel) {
  fatal("kernel '%s': an assertion failed (the failing threads are listed "
        "above)",
        kernel);
}
