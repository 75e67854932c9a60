//===----------------------------------------------------------------------===//
// The runtime services --sanitize's instrumentation calls, on the worker
// that runs the block (BlockRunner.h): kernel arguments in freed memory,
// workgroup and device accesses for racecheck and initcheck, out-of-bounds
// reports with the memory a memref views, and cuda-emu's accesses by
// address, classified as the block's shared memory, a device allocation,
// the redzone after one, freed memory, or none of those (not checked).
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"
#include "DeviceMemoryShadow.h"
#include "Sanitizer.h"

#include <string>

using namespace gpumem::cpu;

void BlockRunner::argumentCheck(GPUMemThreadContext *ctx, const void *pointer,
                                int64_t argument, const char *location) {
  // A memref argument in freed memory is no error until the kernel uses
  // it: its accesses then ask addressAccess, which reports the use at its
  // line.
  for (auto [checked, freed] : checkedPointers)
    if (checked == pointer) {
      ctx->freedArguments |= freed;
      return;
    }
  uint64_t start, bytes;
  bool freed = findFreedDeviceMemory(pointer, start, bytes);
  checkedPointers.push_back({pointer, freed});
  ctx->freedArguments |= freed;
}

void BlockRunner::sharedAccess(GPUMemThreadContext *ctx, const void *address,
                               int64_t bytes, int32_t flags, const char *what,
                               const char *location) {
  if (queuedCopies && (flags & GPUMEM_SHARED_CHECK_RACES))
    checkAsyncCopies(ctx, address, bytes, flags, what, location);
  // memcheck on the cpu target: a view made outside the block's shared
  // memory (cuda-emu and rocm-emu find it by address, in the same words).
  uint64_t shared = uint64_t(launch->staticBytes + launch->dynamicBytes);
  uintptr_t at = uintptr_t(address);
  if ((flags & GPUMEM_ACCESS_CHECK_BOUNDS) &&
      (at < uintptr_t(arena) ||
       at + uint64_t(bytes) > uintptr_t(arena) + shared)) {
    reportAddressError(ctx, "out-of-bounds", what, location,
                       describeOutsideArena(at));
    return;
  }
  if (!(flags & (GPUMEM_SHARED_CHECK_RACES | GPUMEM_SHARED_CHECK_INIT)))
    return; // memcheck only
  shadow.prepare(size_t(shared));
  shadow.access(ctx, epoch, arena, address, bytes, flags, what, location);
}

void BlockRunner::deviceAccess(GPUMemThreadContext *ctx, const void *address,
                               int64_t bytes, int32_t flags, const char *what,
                               const char *location) {
  if (queuedCopies && (flags & GPUMEM_SHARED_CHECK_RACES))
    checkAsyncCopies(ctx, address, bytes, flags, what, location);
  const ShadowedRange &range = rangeOf(address);
  if (range.shadow)
    range.shadow->access(ctx, epoch, uintptr_t(address) - range.start, bytes,
                         flags, what, location);
}

const ShadowedRange &BlockRunner::rangeOf(const void *address) {
  for (const ShadowedRange &range : deviceRanges)
    if (range.holds(address))
      return range;
  ShadowedRange &slot = deviceRanges[nextCachedRange];
  nextCachedRange = (nextCachedRange + 1) % kCachedRanges;
  slot = findShadowedRange(address);
  return slot;
}

std::string gpumem::cpu::describeDeviceBuffer(const void *base) {
  uintptr_t at = uintptr_t(base);
  ShadowedRange range = findShadowedRange(base);
  if (range.kind != ShadowedRange::Allocation)
    return "";
  return std::string(range.memory.name) + " of " +
         std::to_string(range.allocationBytes) + " bytes from byte " +
         std::to_string(at - range.allocation) +
         (range.allocatedAt ? std::string(", ") + range.memory.made + " at " +
                                  withSource(range.allocatedAt)
                            : std::string());
}

void BlockRunner::accessError(GPUMemThreadContext *ctx, const char *what,
                              const char *location, int64_t dim, int64_t index,
                              int64_t size, const void *base) {
  uintptr_t at = uintptr_t(base);
  std::string buffer =
      at - uintptr_t(arena) < arenaCapacity
          ? gpumem::runtime::describeWorkgroupBytes(at - uintptr_t(arena))
          : describeDeviceBuffer(base);
  gpumem::runtime::reportAccessError(reportingThread(ctx), what, location, dim,
                                     index, size, buffer);
}

int32_t BlockRunner::addressCheckFlags() const {
  int32_t checks = launch->kernel->checks;
  return (checks & GPUMEM_CHECK_MEMCHECK ? GPUMEM_ACCESS_CHECK_BOUNDS : 0) |
         (checks & GPUMEM_CHECK_RACECHECK ? GPUMEM_SHARED_CHECK_RACES : 0) |
         (checks & GPUMEM_CHECK_INITCHECK ? GPUMEM_SHARED_CHECK_INIT : 0);
}

void BlockRunner::addressAccess(GPUMemThreadContext *ctx, const void *address,
                                int64_t bytes, int32_t flags, const char *what,
                                const char *location) {
  if (queuedCopies && (flags & GPUMEM_SHARED_CHECK_RACES))
    checkAsyncCopies(ctx, address, bytes, flags, what, location);
  uintptr_t at = uintptr_t(address);
  bool bounds = flags & GPUMEM_ACCESS_CHECK_BOUNDS;
  // The block's shared memory, and the rest of the arena after it.
  uint64_t shared = uint64_t(launch->staticBytes + launch->dynamicBytes);
  if (nearArena(at)) {
    uint64_t offset = at - uintptr_t(arena);
    if (at < uintptr_t(arena) || offset + uint64_t(bytes) > shared) {
      if (bounds)
        reportAddressError(ctx, "out-of-bounds", what, location,
                           describeOutsideArena(at));
      return;
    }
    if (flags & (GPUMEM_SHARED_CHECK_RACES | GPUMEM_SHARED_CHECK_INIT)) {
      shadow.prepare(size_t(shared));
      shadow.access(ctx, epoch, arena, address, bytes, flags, what, location);
    }
    return;
  }
  const ShadowedRange &range = rangeOf(address);
  uint64_t offset = at - range.allocation;
  // For reports only: it reads the source line.
  auto allocation = [&] {
    return std::string(range.memory.name) + " of " +
           std::to_string(range.allocationBytes) + " bytes" +
           (range.allocatedAt ? std::string(" ") + range.memory.made + " at " +
                                    withSource(range.allocatedAt)
                              : std::string());
  };
  switch (range.kind) {
  case ShadowedRange::Gap:
    return;
  case ShadowedRange::Redzone:
    if (bounds)
      reportAddressError(ctx, "out-of-bounds", what, location,
                         std::to_string(offset - range.allocationBytes) +
                             " bytes after the end of " + allocation());
    return;
  case ShadowedRange::Freed:
    if (bounds)
      reportAddressError(ctx, "use after free", what, location,
                         "byte " + std::to_string(offset) + " of " +
                             allocation() + ", which was freed");
    return;
  case ShadowedRange::Allocation:
    if (bounds && offset + uint64_t(bytes) > range.allocationBytes)
      reportAddressError(ctx, "out-of-bounds", what, location,
                         "bytes " + std::to_string(offset) + ".." +
                             std::to_string(offset + uint64_t(bytes) - 1) +
                             " of " + allocation());
    else if (range.shadow)
      range.shadow->access(ctx, epoch, offset, bytes, flags, what, location);
    return;
  }
}
