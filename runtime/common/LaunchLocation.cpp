//===----------------------------------------------------------------------===//
// The launch location the runtimes' errors name (LaunchLocation.h). One
// value per thread: the host thread records it before a launch, and the
// threads that run the launch's blocks (a stream's, the worker pool's) set
// theirs from the launch, so that concurrent launches each report their
// own.
//===----------------------------------------------------------------------===//

#include "LaunchLocation.h"

namespace {
thread_local const char *location = nullptr;
/// Per thread: host threads allocate and copy independently.
thread_local const char *memoryCall = nullptr;
} // namespace

extern "C" void gpumemMemoryCallLocation(const char *where) {
  memoryCall = where;
}

const char *gpumem::runtime::currentMemoryCallLocation() { return memoryCall; }

void gpumem::runtime::clearMemoryCallLocation() { memoryCall = nullptr; }

extern "C" void gpumemLaunchLocation(const char *where) { location = where; }

const char *gpumem::runtime::currentLaunchLocation() { return location; }

void gpumem::runtime::setLaunchLocation(const char *where) { location = where; }

void gpumem::runtime::clearLaunchLocation() { location = nullptr; }
