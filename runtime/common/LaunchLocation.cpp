//===----------------------------------------------------------------------===//
// The launch location both runtimes' errors name (LaunchLocation.h). One
// process-wide value: worker threads that fail inside a kernel report the
// launch the host thread is waiting on.
//===----------------------------------------------------------------------===//

#include "LaunchLocation.h"

#include <atomic>

namespace {
std::atomic<const char *> location{nullptr};
/// Per thread: host threads allocate and copy independently.
thread_local const char *memoryCall = nullptr;
} // namespace

extern "C" void gpumemMemoryCallLocation(const char *where) {
  memoryCall = where;
}

const char *gpumem::runtime::currentMemoryCallLocation() { return memoryCall; }

void gpumem::runtime::clearMemoryCallLocation() { memoryCall = nullptr; }

extern "C" void gpumemLaunchLocation(const char *where) {
  location.store(where, std::memory_order_release);
}

const char *gpumem::runtime::currentLaunchLocation() {
  return location.load(std::memory_order_acquire);
}

void gpumem::runtime::clearLaunchLocation() {
  location.store(nullptr, std::memory_order_release);
}
