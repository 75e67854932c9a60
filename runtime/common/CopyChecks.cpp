//===----------------------------------------------------------------------===//
// gpumemMemcpySizeMismatch: the report of a gpu.memcpy between buffers of
// different run-time sizes (gpumem-check-memcpy-sizes), exported by both
// runtimes.
//===----------------------------------------------------------------------===//

#include "Fatal.h"

#include <cstdint>

extern "C" __attribute__((visibility("default"))) void
gpumemMemcpySizeMismatch(int64_t sourceBytes, int64_t destinationBytes,
                         const char *where) {
  gpumem::runtime::fatal("gpu.memcpy at %s copies %lld bytes into a buffer of "
                         "%lld bytes: the sizes must match",
                         where ? where : "an unknown location",
                         (long long)sourceBytes, (long long)destinationBytes);
}
