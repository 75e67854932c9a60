//===----------------------------------------------------------------------===//
// Checks of the managed memory hint arguments (gpumem/Runtime/MemoryHints.h)
// every runtime applies before acting on them.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_MEMORYHINTCHECKS_H
#define GPUMEM_RUNTIME_COMMON_MEMORYHINTCHECKS_H

#include <cstdint>

namespace gpumem::runtime {

/// Stops the program unless `destination` is a GPUMemPrefetchDestination.
void checkPrefetchDestination(int32_t destination);

/// Stops the program unless `advice` is a GPUMemMemoryAdvice.
void checkMemoryAdvice(int32_t advice);

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_MEMORYHINTCHECKS_H
