//===----------------------------------------------------------------------===//
// Allocations with the source line that made them (Allocations.h): an
// ordered map from start to size, kind and location, guarded by a mutex; a
// lookup takes the last allocation starting at or before the address. Only
// programs compiled with --sanitize name memory calls, so others keep
// nothing.
//===----------------------------------------------------------------------===//

#include "Allocations.h"
#include "LaunchLocation.h"
#include "SanitizerReports.h"

#include <iterator>
#include <map>
#include <mutex>

using namespace gpumem::cuda;

namespace {

struct Allocation {
  uint64_t bytes;
  AllocationKind kind;
  std::string location;
};

struct Allocations {
  std::mutex mutex;
  std::map<uintptr_t, Allocation> byStart;
};

/// A function-local static: allocations can come from global constructors.
Allocations &allocations() {
  static Allocations *all = new Allocations;
  return *all;
}

} // namespace

void gpumem::cuda::recordAllocation(uintptr_t start, uint64_t bytes,
                                    AllocationKind kind) {
  const char *location = gpumem::runtime::currentMemoryCallLocation();
  if (!location || !start)
    return;
  std::lock_guard<std::mutex> lock(allocations().mutex);
  allocations().byStart[start] = {bytes, kind, location};
}

void gpumem::cuda::forgetAllocation(uintptr_t start) {
  std::lock_guard<std::mutex> lock(allocations().mutex);
  allocations().byStart.erase(start);
}

std::string gpumem::cuda::describeAllocation(uintptr_t address) {
  std::lock_guard<std::mutex> lock(allocations().mutex);
  auto &byStart = allocations().byStart;
  auto after = byStart.upper_bound(address);
  if (after == byStart.begin())
    return "";
  auto found = std::prev(after);
  const Allocation &allocation = found->second;
  uint64_t offset = address - found->first;
  if (offset >= allocation.bytes)
    return "";
  const char *name = allocation.kind == AllocationKind::Managed
                         ? "managed memory"
                         : "device memory";
  return std::string(name) + " of " + std::to_string(allocation.bytes) +
         " bytes from byte " + std::to_string(offset) + ", allocated at " +
         gpumem::runtime::withSource(allocation.location.c_str());
}
