//===----------------------------------------------------------------------===//
// Checks of the managed memory hint arguments: one message for both
// runtimes.
//===----------------------------------------------------------------------===//

#include "MemoryHintChecks.h"
#include "Fatal.h"

#include "gpumem/Runtime/MemoryHints.h"

void gpumem::runtime::checkPrefetchDestination(int32_t destination) {
  if (destination != GPUMEM_PREFETCH_TO_DEVICE &&
      destination != GPUMEM_PREFETCH_TO_HOST)
    fatal("gpumemMemPrefetch: unknown destination %d (0: the device, 1: the "
          "host)",
          destination);
}

void gpumem::runtime::checkMemoryAdvice(int32_t advice) {
  if (advice < 0 || advice >= GPUMEM_ADVISE_COUNT)
    fatal("gpumemMemAdvise: unknown advice %d (0..%d)", advice,
          GPUMEM_ADVISE_COUNT - 1);
}
