//===----------------------------------------------------------------------===//
// Memory and devices of the mgpu* ABI on the CPU: allocation, free, host
// registration and memory hints (copies and fills are in Copies.cpp).
//
// "Device" memory is host memory, aligned to 64 bytes (a cache line, more
// than any vector type needs), each allocation a mapping of its own between
// inaccessible guards (its data ends at a page's end, so a store past it
// faults and is reported with its kernel, never corrupting the host heap);
// allocations of 2 MiB and more, and host memory registered for the device,
// get huge pages (HugePages.cpp).
// Freeing device memory waits
// for every stream first, as cudaFree does. Managed memory is host memory
// too, so prefetch and advice only check their arguments.
//
// Every allocation is recorded (start and size, in a map under a mutex).
// Freed memory is kept in a quarantine of up to 64 MiB and 4096 blocks
// before it goes back to malloc, so that no host or device allocation
// reuses its addresses meanwhile and the mistakes a GPU would let pass
// silently or crash on later are errors here: freeing memory twice,
// freeing a pointer that is not an allocation's start, copying from or to
// freed memory, and a copy whose source and destination overlap
// (undefined in CUDA).
//
// Once a module compiled with --sanitize's initcheck or racecheck is
// loaded, each new allocation of device memory (not host-shared) gets a
// DeviceMemoryShadow: copies and fills into it mark bytes written, and
// each worker looks up the allocation (or the gap between allocations) a
// kernel's access falls in once per launch and range (findShadowedRange).
//===----------------------------------------------------------------------===//

#include "CPURuntime.h"
#include "DeviceMemoryShadow.h"
#include "HugePages.h"
#include "LaunchLocation.h"
#include "MemRefRegion.h"
#include "MemoryHintChecks.h"
#include "Sanitizer.h"
#include "Streams.h"
#include "Support.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

using namespace gpumem::cpu;
using gpumem::runtime::MemoryCallScope;

namespace {

constexpr uint64_t memoryAlignment = 64;
/// Bytes after each allocation that belong to it but no one may touch: an
/// access there is out of bounds (--sanitize on cuda-emu), never another
/// buffer.
constexpr uint64_t redzoneBytes = 256;

/// Under --sanitize (once a module that checks memory is loaded),
/// device memory is a mapping of its own whose pages after the allocation,
/// and this much more, belong to it as its redzone: a store that far past
/// the end is reported as out of bounds and lands in the allocation's own
/// mapping, never in the host heap (anonymous, not reserved, so untouched
/// pages cost nothing).
constexpr uint64_t mappedRedzoneBytes = 1ull << 20;

/// Without --sanitize, device memory is a mapping of its own too, its data
/// ending where an inaccessible guard of this many bytes begins (and a page
/// before it): a kernel's store past the end of a buffer faults, and the
/// fault is reported with the kernel and its launch (KernelFaults.cpp)
/// instead of corrupting the host heap. Reserved address space only.
constexpr uint64_t guardBytes = 1ull << 20;

/// The bytes an allocation of `size` holds, its redzone included.
uint64_t footprint(uint64_t size) {
  return alignTo(size ? size : 1, memoryAlignment) + redzoneBytes;
}

/// Live allocations by start address, and the quarantine of freed ones.
struct Allocations {
  std::mutex mutex;
  std::map<uintptr_t, uint64_t> live;
  std::deque<std::pair<uintptr_t, uint64_t>> freed; ///< newest last
  std::map<uintptr_t, uint64_t> freedIndex;         ///< the same, by start
  /// Where live and quarantined allocations were made, when host code said
  /// (gpumemMemoryCallLocation).
  std::map<uintptr_t, const char *> sites;
  /// Shadows of live device and managed allocations, by start
  /// (--sanitize).
  std::map<uintptr_t, std::shared_ptr<DeviceMemoryShadow>> shadows;
  /// Host memory registered while shadowing (--sanitize), by start: its
  /// size, and its shadow, which knows where it was registered.
  std::map<uintptr_t, uint64_t> registered;
  std::map<uintptr_t, std::shared_ptr<DeviceMemoryShadow>> registeredShadows;
  /// Host buffers whose writes host code reports (trackHostBuffer), by
  /// start: their size and the byte ranges written, [first, end) by first.
  struct TrackedHostBuffer {
    uint64_t bytes;
    std::map<uint64_t, uint64_t> written;
  };
  std::map<uintptr_t, TrackedHostBuffer> trackedHost;
  /// Allocations made as mappings of their own (--sanitize), by start: the
  /// mapping's length, all of it the allocation's footprint.
  std::map<uintptr_t, uint64_t> mapped;
  /// Allocations between guards (no --sanitize), by start: their mapping.
  std::map<uintptr_t, std::pair<void *, uint64_t>> guarded;
  std::atomic<bool> shadowing{false};
  /// Whether new device allocations get mappings of their own.
  std::atomic<bool> mapping{false};
  uint64_t freedBytes = 0;
  static constexpr size_t freedKept = 4096;
  static constexpr uint64_t freedBytesKept = 64ull << 20;
};
Allocations &allocations() {
  static Allocations *all = new Allocations;
  return *all;
}

/// The allocation of `map` (start to size) whose first `extent(start,
/// size)` bytes hold `address`, as (start, size); false if none.
template <typename Extent>
bool holding(const std::map<uintptr_t, uint64_t> &map, uintptr_t address,
             std::pair<uintptr_t, uint64_t> &found, Extent extent) {
  auto next = map.upper_bound(address);
  if (next == map.begin())
    return false;
  auto it = std::prev(next);
  if (address - it->first >= extent(it->first, it->second))
    return false;
  found = *it;
  return true;
}

uint64_t atLeastOne(uintptr_t, uint64_t size) {
  return std::max<uint64_t>(size, 1);
}

/// The footprint of the allocation at `start` of `size` bytes.
uint64_t footprintOf(const Allocations &all, uintptr_t start, uint64_t size) {
  auto it = all.mapped.find(start);
  return it == all.mapped.end() ? footprint(size) : it->second;
}

/// The live allocation holding `address`, as (start, size); false if none.
bool liveAllocation(Allocations &all, uintptr_t address,
                    std::pair<uintptr_t, uint64_t> &found) {
  return holding(all.live, address, found, atLeastOne);
}

/// A freed allocation holding `address`; false if none.
bool freedAllocation(Allocations &all, uintptr_t address,
                     std::pair<uintptr_t, uint64_t> &found) {
  return holding(all.freedIndex, address, found, atLeastOne);
}

/// The allocation of `map` whose footprint (redzone included) holds
/// `address`; false if none.
bool footprintHolding(const Allocations &all,
                      const std::map<uintptr_t, uint64_t> &map,
                      uintptr_t address,
                      std::pair<uintptr_t, uint64_t> &found) {
  return holding(map, address, found, [&](uintptr_t start, uint64_t size) {
    return footprintOf(all, start, size);
  });
}

/// The end of the last entry of `map` before `address`, as `extent(start,
/// size)` says where it ends (0 if none), and the start of the next entry
/// (UINTPTR_MAX if none), narrowing [start, end).
template <typename Extent>
void gapAround(const std::map<uintptr_t, uint64_t> &map, uintptr_t address,
               uintptr_t &start, uintptr_t &end, Extent extent) {
  auto next = map.upper_bound(address);
  if (next != map.end())
    end = std::min(end, next->first);
  if (next != map.begin()) {
    auto previous = std::prev(next);
    start = std::max(start, previous->first +
                                extent(previous->first, previous->second));
  }
}

/// The shadow of the live allocation holding `address`, with the address's
/// offset in it; null if none.
DeviceMemoryShadow *shadowOf(Allocations &all, const void *address,
                             uint64_t &offset) {
  std::pair<uintptr_t, uint64_t> found;
  if (all.shadows.empty() || !liveAllocation(all, uintptr_t(address), found))
    return nullptr;
  auto it = all.shadows.find(found.first);
  if (it == all.shadows.end())
    return nullptr;
  offset = uintptr_t(address) - found.first;
  return it->second.get();
}

} // namespace

void gpumem::cpu::enableDeviceMemoryShadows() {
  allocations().shadowing = true;
  allocations().mapping = true;
}

void gpumem::cpu::enableDeviceMemoryMappings() { allocations().mapping = true; }

bool gpumem::cpu::describeGuardFault(const void *address, char *text,
                                     size_t size) {
  Allocations &all = allocations();
  // A fault inside the runtime may hold the lock: describe nothing then.
  std::unique_lock<std::mutex> lock(all.mutex, std::try_to_lock);
  if (!lock.owns_lock())
    return false;
  uintptr_t where = uintptr_t(address);
  for (const auto &[start, mapping] : all.guarded) {
    uintptr_t base = uintptr_t(mapping.first);
    if (where < base || where >= base + mapping.second)
      continue;
    auto live = all.live.find(start);
    bool freed = live == all.live.end();
    uint64_t bytes = freed ? all.freedIndex[start] : live->second;
    auto site = all.sites.find(start);
    char made[128] = "";
    if (site != all.sites.end())
      std::snprintf(made, sizeof(made), ", allocated at %s", site->second);
    if (where >= start)
      std::snprintf(text, size,
                    " at %p, %llu bytes past the end of %sdevice memory of "
                    "%llu bytes%s",
                    address, (unsigned long long)(where - start - bytes),
                    freed ? "freed " : "", (unsigned long long)bytes, made);
    else
      std::snprintf(text, size,
                    " at %p, %llu bytes before %sdevice memory of %llu "
                    "bytes%s",
                    address, (unsigned long long)(start - where),
                    freed ? "freed " : "", (unsigned long long)bytes, made);
    return true;
  }
  return false;
}

void gpumem::cpu::shadowCopy(void *dst, const void *src, uint64_t bytes) {
  Allocations &all = allocations();
  if (!all.shadowing.load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> lock(all.mutex);
  uint64_t to, from;
  DeviceMemoryShadow *target = shadowOf(all, dst, to);
  if (!target)
    return;
  DeviceMemoryShadow *source = src ? shadowOf(all, src, from) : nullptr;
  if (source)
    target->copyInitialized(to, *source, from, bytes);
  else
    target->markWritten(to, bytes);
}

void gpumem::cpu::trackHostBuffer(uintptr_t start, uint64_t bytes) {
  Allocations &all = allocations();
  if (!all.shadowing.load(std::memory_order_relaxed) || !bytes)
    return;
  std::lock_guard<std::mutex> lock(all.mutex);
  all.trackedHost[start] = {bytes, {}};
}

bool gpumem::cpu::noteTrackedHostWrite(uintptr_t address, uint64_t bytes) {
  Allocations &all = allocations();
  if (!all.shadowing.load(std::memory_order_relaxed))
    return false;
  std::lock_guard<std::mutex> lock(all.mutex);
  auto buffer = all.trackedHost.upper_bound(address);
  if (buffer == all.trackedHost.begin())
    return false;
  --buffer;
  uint64_t first = address - buffer->first;
  if (first >= buffer->second.bytes)
    return false;
  uint64_t end = std::min(first + bytes, buffer->second.bytes);
  // Joined with the range before it when they touch (a loop's stores come
  // in order), then with those after it that it reaches.
  std::map<uint64_t, uint64_t> &written = buffer->second.written;
  auto at = written.upper_bound(first);
  if (at != written.begin() && std::prev(at)->second >= first) {
    at = std::prev(at);
    at->second = std::max(at->second, end);
  } else {
    at = written.emplace_hint(at, first, end);
  }
  for (auto next = std::next(at);
       next != written.end() && next->first <= at->second;
       next = written.erase(next))
    at->second = std::max(at->second, next->second);
  return true;
}

void gpumem::cpu::forgetTrackedHostBuffer(uintptr_t start) {
  Allocations &all = allocations();
  std::lock_guard<std::mutex> lock(all.mutex);
  all.trackedHost.erase(start);
}

ShadowedRange gpumem::cpu::findShadowedRange(const void *address) {
  Allocations &all = allocations();
  std::lock_guard<std::mutex> lock(all.mutex);
  uintptr_t at = uintptr_t(address);
  std::pair<uintptr_t, uint64_t> found;
  ShadowedRange range;
  auto describe = [&](ShadowedRange::Kind kind, uintptr_t start,
                      uint64_t bytes) {
    range.kind = kind;
    range.start = start;
    range.bytes = bytes;
    range.allocation = found.first;
    range.allocationBytes = found.second;
    auto site = all.sites.find(found.first);
    range.allocatedAt = site == all.sites.end() ? nullptr : site->second;
  };
  if (liveAllocation(all, at, found)) {
    describe(ShadowedRange::Allocation, found.first,
             std::max<uint64_t>(found.second, 1));
    auto it = all.shadows.find(found.first);
    if (it != all.shadows.end()) {
      range.shadow = it->second;
      range.memory = it->second->memory();
    }
  } else if (holding(all.registered, at, found,
                     [](uintptr_t, uint64_t size) { return size; })) {
    // Registered host memory, which no allocation overlaps.
    const auto &shadow = all.registeredShadows[found.first];
    describe(ShadowedRange::Allocation, found.first, found.second);
    range.shadow = shadow;
    range.memory = shadow->memory();
    range.allocatedAt = shadow->site();
  } else if (footprintHolding(all, all.live, at, found)) {
    uintptr_t end = found.first + footprintOf(all, found.first, found.second);
    uintptr_t start = found.first + std::max<uint64_t>(found.second, 1);
    describe(ShadowedRange::Redzone, start, end - start);
  } else if (footprintHolding(all, all.freedIndex, at, found)) {
    describe(ShadowedRange::Freed, found.first,
             footprintOf(all, found.first, found.second));
  } else {
    // The gap between the allocations around the address.
    uintptr_t start = 0, end = UINTPTR_MAX;
    auto footprint = [&](uintptr_t first, uint64_t size) {
      return footprintOf(all, first, size);
    };
    gapAround(all.live, at, start, end, footprint);
    gapAround(all.freedIndex, at, start, end, footprint);
    // Nor into registered host memory.
    gapAround(all.registered, at, start, end,
              [](uintptr_t, uint64_t size) { return size; });
    range.kind = ShadowedRange::Gap;
    range.start = start;
    range.bytes = end - start;
  }
  return range;
}

bool gpumem::cpu::findFreedDeviceMemory(const void *address, uint64_t &start,
                                        uint64_t &bytes) {
  Allocations &all = allocations();
  std::lock_guard<std::mutex> lock(all.mutex);
  std::pair<uintptr_t, uint64_t> found;
  if (liveAllocation(all, uintptr_t(address), found) ||
      !freedAllocation(all, uintptr_t(address), found))
    return false;
  start = found.first;
  bytes = found.second;
  return true;
}

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                              bool isHostShared) {
  MemoryCallScope scope;
  // aligned_alloc wants a multiple of the alignment; a zero-byte allocation
  // still gets a unique pointer.
  // Large allocations take whole huge pages (HugePages.cpp).
  uint64_t rounded = alignTo(sizeBytes ? sizeBytes : 1, memoryAlignment);
  uint64_t total = rounded + redzoneBytes;
  uint64_t alignment = total >= hugePageBytes ? hugePageBytes : memoryAlignment;
  uint64_t padded = alignTo(total, alignment);
  if (rounded < sizeBytes || padded < total)
    fatal("mgpuMemAlloc: cannot allocate %llu bytes",
          (unsigned long long)sizeBytes);
  Allocations &all = allocations();
  bool ownMapping = !isHostShared && all.mapping.load();
  uint64_t mappedBytes = 0;
  void *ptr = nullptr;
  std::pair<void *, uint64_t> guardedMapping{nullptr, 0};
  if (!isHostShared && !ownMapping) {
    // [page guard][data, ending at a page's end (large ones start on a huge
    // page instead)][guard]
    uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
    uint64_t span = alignTo(rounded, page);
    uint64_t start = alignment == hugePageBytes ? hugePageBytes : page;
    uint64_t length = page + (start - page) + span + guardBytes;
    void *base = mmap(nullptr, length, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base != MAP_FAILED) {
      char *data =
          reinterpret_cast<char *>(alignTo(uintptr_t(base) + page, start));
      if (mprotect(data, span, PROT_READ | PROT_WRITE) == 0) {
        ptr = alignment == hugePageBytes ? data : data + span - rounded;
        guardedMapping = {base, length};
        if (alignment == hugePageBytes)
          adviseHugePages(data, span);
      } else {
        munmap(base, length);
      }
    }
  } else if (ownMapping) {
    mappedBytes =
        alignTo(total, uint64_t(sysconf(_SC_PAGESIZE))) + mappedRedzoneBytes;
    ptr = mmap(nullptr, mappedBytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (ptr == MAP_FAILED)
      ptr = nullptr;
  } else {
    ptr = std::aligned_alloc(alignment, padded);
  }
  if (!ptr)
    fatal("mgpuMemAlloc: out of memory allocating %llu bytes",
          (unsigned long long)sizeBytes);
  if (alignment == hugePageBytes && !guardedMapping.first)
    adviseHugePages(ptr, ownMapping ? mappedBytes : padded);
  std::lock_guard<std::mutex> lock(all.mutex);
  if (ownMapping)
    all.mapped[uintptr_t(ptr)] = mappedBytes;
  if (guardedMapping.first)
    all.guarded[uintptr_t(ptr)] = guardedMapping;
  all.live[uintptr_t(ptr)] = sizeBytes;
  if (const char *site = gpumem::runtime::currentMemoryCallLocation())
    all.sites[uintptr_t(ptr)] = site;
  else
    all.sites.erase(uintptr_t(ptr));
  if (all.shadowing) {
    auto shadow = std::make_shared<DeviceMemoryShadow>(
        sizeBytes, gpumem::runtime::currentMemoryCallLocation(),
        isHostShared ? DeviceMemoryShadow::kManaged
                     : DeviceMemoryShadow::kDevice);
    // The host writes managed memory directly, unseen.
    if (isHostShared)
      shadow->markWritten(0, sizeBytes);
    all.shadows[uintptr_t(ptr)] = std::move(shadow);
  }
  return ptr;
}

extern "C" void mgpuMemFree(void *ptr, void *stream) {
  MemoryCallScope scope;
  if (!ptr)
    return;
  // No kernel or copy may still use it.
  Stream::synchronizeAll();
  Allocations &all = allocations();
  {
    std::lock_guard<std::mutex> lock(all.mutex);
    auto it = all.live.find(uintptr_t(ptr));
    if (it != all.live.end()) {
      all.freed.emplace_back(*it);
      all.freedIndex.insert(*it);
      all.freedBytes += it->second;
      all.live.erase(it);
      all.shadows.erase(uintptr_t(ptr));
      while (all.freed.size() > Allocations::freedKept ||
             all.freedBytes > Allocations::freedBytesKept) {
        uintptr_t oldest = all.freed.front().first;
        all.freedBytes -= all.freed.front().second;
        all.freedIndex.erase(oldest);
        all.sites.erase(oldest);
        auto mapping = all.mapped.find(oldest);
        auto guarded = all.guarded.find(oldest);
        if (mapping != all.mapped.end()) {
          munmap(reinterpret_cast<void *>(oldest), mapping->second);
          all.mapped.erase(mapping);
        } else if (guarded != all.guarded.end()) {
          munmap(guarded->second.first, guarded->second.second);
          all.guarded.erase(guarded);
        } else {
          std::free(reinterpret_cast<void *>(oldest));
        }
        all.freed.pop_front();
      }
      return;
    }
    std::pair<uintptr_t, uint64_t> found;
    if (liveAllocation(all, uintptr_t(ptr), found))
      fatal("mgpuMemFree: %p is %llu bytes into device memory of %llu bytes, "
            "not its start",
            ptr, (unsigned long long)(uintptr_t(ptr) - found.first),
            (unsigned long long)found.second);
    if (freedAllocation(all, uintptr_t(ptr), found) &&
        found.first == uintptr_t(ptr))
      fatal("mgpuMemFree: device memory of %llu bytes at %p was already "
            "freed (double free)",
            (unsigned long long)found.second, ptr);
  }
  fatal("mgpuMemFree: %p is not device memory from mgpuMemAlloc", ptr);
}

// Registered host memory is what kernels read and write in place: its
// large parts get huge pages, as device allocations do.
extern "C" void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  MemoryCallScope scope;
  collapseIntoHugePages(ptr, sizeBytes);
  // Under --sanitize kernels' races on it are found as on device memory.
  // When the host code reported its writes (a tracked host buffer), the
  // bytes it wrote count as written; otherwise the host wrote it unseen,
  // so all of it counts as written.
  Allocations &all = allocations();
  if (!all.shadowing || !sizeBytes)
    return;
  auto shadow = std::make_shared<DeviceMemoryShadow>(
      sizeBytes, gpumem::runtime::currentMemoryCallLocation(),
      DeviceMemoryShadow::kHost);
  std::lock_guard<std::mutex> lock(all.mutex);
  uintptr_t start = uintptr_t(ptr);
  auto tracked = all.trackedHost.upper_bound(start);
  if (tracked != all.trackedHost.begin() &&
      start - std::prev(tracked)->first + sizeBytes <=
          std::prev(tracked)->second.bytes) {
    --tracked;
    uint64_t from = start - tracked->first, to = from + sizeBytes;
    for (auto [first, end] : tracked->second.written)
      if (first < to && end > from)
        shadow->markWritten(std::max(first, from) - from,
                            std::min(end, to) - std::max(first, from));
    // Followed up to here only: what the kernels write while it is
    // registered is the shadow's, which a registration after an
    // unregistration would not have (it then counts all as written).
    all.trackedHost.erase(tracked);
  } else {
    shadow->markWritten(0, sizeBytes);
  }
  all.registered[uintptr_t(ptr)] = sizeBytes;
  all.registeredShadows[uintptr_t(ptr)] = std::move(shadow);
}
extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  auto region = gpumem::runtime::memrefRegion("mgpuMemHostRegisterMemRef", rank,
                                              descriptor, elementSizeBytes);
  mgpuMemHostRegister(region.start, region.bytes);
}
extern "C" void mgpuMemHostUnregister(void *ptr) {
  Allocations &all = allocations();
  std::lock_guard<std::mutex> lock(all.mutex);
  all.registered.erase(uintptr_t(ptr));
  all.registeredShadows.erase(uintptr_t(ptr));
}
extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  auto region = gpumem::runtime::memrefRegion(
      "mgpuMemHostUnregisterMemRef", rank, descriptor, elementSizeBytes);
  mgpuMemHostUnregister(region.start);
}

extern "C" void mgpuSetDefaultDevice(int32_t device) {}

extern "C" void gpumemMemPrefetch(void *ptr, uint64_t sizeBytes,
                                  int32_t destination, void *stream) {
  gpumem::runtime::checkPrefetchDestination(destination);
}

extern "C" void gpumemMemAdvise(void *ptr, uint64_t sizeBytes, int32_t advice) {
  gpumem::runtime::checkMemoryAdvice(advice);
}
