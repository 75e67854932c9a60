//===----------------------------------------------------------------------===//
// The launch location both runtimes' errors name (LaunchLocation.h). One
// process-wide value: worker threads that fail inside a kernel report the
// launch the host thread is waiting on.
//===----------------------------------------------------------------------===//

#include "LaunchLocation.h"

#include <atomic>

namespace {
std::atomic<const char *> location{nullptr};
} // namespace

extern "C" void gpumemLaunchLocation(const char *where) {
  location.store(where, std::memory_order_release);
}

const char *gpumem::runtime::currentLaunchLocation() {
  return location.load(std::memory_order_acquire);
}

void gpumem::runtime::clearLaunchLocation() {
  location.store(nullptr, std::memory_order_release);
}
