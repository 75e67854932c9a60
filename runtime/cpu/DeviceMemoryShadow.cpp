//===----------------------------------------------------------------------===//
// initcheck and racecheck on device memory (DeviceMemoryShadow.h).
//
// initcheck: a bit per byte, set by kernel writes and atomics, copies into
// the allocation (from another shadowed allocation: that one's bits; from
// anywhere else: set) and fills; a kernel's read or atomic of a clear byte
// is an uninitialized read.
//
// racecheck: per 4-byte word, the last plain write, plain read and atomic
// update: launch, block run, barrier phase, warp shuffle phase, thread, the
// bytes of the word it touched and its location. An access conflicts with an
// earlier one of the same launch on common bytes when that came from another
// block (blocks of one launch cannot order their plain accesses), or from
// another thread of the block in the same barrier phase with no shuffle of
// their warp between. A read after a write, a write after a read or a write
// after a write that conflict is a race, and so is an atomic update conflicting
// with a plain access either way (atomics do not race with each other).
// Reads (and atomics) of the word by several threads in one phase are kept
// as "several threads", by several blocks as "several blocks" (block 0),
// so a later write conflicts with all of them; accesses of other bytes of
// the word (neighbouring 8- or 16-bit elements) are not merged. Lanes of one
// warp writing the same bytes are not reported, as on workgroup memory. A
// word shared by accesses of different bytes keeps only the last one: a race
// between two of those may be missed, never invented. (Where views of two
// widths overlap in one word, a merged record covers the wider one's bytes.)
//===----------------------------------------------------------------------===//

#include "DeviceMemoryShadow.h"

#include <algorithm>
#include <bitset>
#include <cstdio>
#include <string>

using namespace gpumem::cpu;

DeviceMemoryShadow::DeviceMemoryShadow(uint64_t bytes, const char *allocatedAt,
                                       Memory memory)
    : size(bytes), allocatedAt(allocatedAt), memoryKind(memory),
      bits((bytes + 63) / 64, 0) {}

std::string DeviceMemoryShadow::allocationLine() const {
  if (!allocatedAt)
    return "";
  return std::string("  ") + memoryKind.made + " at " +
         withSource(allocatedAt) + "\n";
}

/// The bits of [begin, end) in the 64-bit word `w` of a bitmap.
static uint64_t bitsOf(uint64_t w, uint64_t begin, uint64_t end) {
  uint64_t low = std::max(begin, w * 64) - w * 64;
  uint64_t high = std::min(end, w * 64 + 64) - w * 64;
  uint64_t upto = high == 64 ? ~uint64_t(0) : (uint64_t(1) << high) - 1;
  return upto & ~((uint64_t(1) << low) - 1);
}

void DeviceMemoryShadow::markWritten(uint64_t offset, uint64_t count) {
  uint64_t end = std::min(offset + count, size);
  for (uint64_t w = offset / 64; w * 64 < end; ++w)
    __atomic_fetch_or(&bits[w], bitsOf(w, offset, end), __ATOMIC_RELAXED);
}

void DeviceMemoryShadow::forgetWrites() {
  for (uint64_t &word : bits)
    __atomic_store_n(&word, 0, __ATOMIC_RELAXED);
}

uint64_t DeviceMemoryShadow::firstUnwritten(uint64_t begin,
                                            uint64_t end) const {
  for (uint64_t w = begin / 64; w * 64 < end; ++w) {
    uint64_t want = bitsOf(w, begin, end);
    uint64_t absent = want & ~__atomic_load_n(&bits[w], __ATOMIC_RELAXED);
    if (absent)
      return w * 64 + uint64_t(__builtin_ctzll(absent));
  }
  return end;
}

void DeviceMemoryShadow::copyInitialized(uint64_t offset,
                                         const DeviceMemoryShadow &source,
                                         uint64_t sourceOffset,
                                         uint64_t count) {
  for (uint64_t k = 0; k < count && offset + k < size; ++k) {
    uint64_t to = offset + k, from = sourceOffset + k;
    uint64_t bit = uint64_t(1) << (to % 64);
    if (from < source.size && source.initialized(from))
      bits[to / 64] |= bit;
    else
      bits[to / 64] &= ~bit;
  }
}

void DeviceMemoryShadow::reportRace(const GPUMemThreadContext *ctx,
                                    uint64_t byte, const char *kind,
                                    int32_t flags, const char *earlierVerb,
                                    const Access &earlier, const char *what,
                                    const char *location) const {
  std::unique_lock<std::mutex> lock;
  std::string siteKind =
      std::string("race (") + kind + ") on " + memoryKind.name;
  if (!firstAtSite(lock, siteKind, location))
    return;
  const int64_t *grid = ctx->gridDim;
  int64_t linearBlock =
      ctx->blockId[0] + grid[0] * (ctx->blockId[1] + grid[1] * ctx->blockId[2]);
  bool sameBlock = earlier.block != 0 && earlier.blockIndex == linearBlock;
  std::string who;
  if (earlier.block == 0)
    who = "several blocks";
  else if (earlier.thread == -2)
    who = "several threads";
  else
    who = std::string("thread ") +
          threadCoords(earlier.thread, ctx->blockDim).text;
  if (earlier.block != 0 && !sameBlock)
    who +=
        std::string(" of block ") + threadCoords(earlier.blockIndex, grid).text;
  std::fprintf(stderr,
               "gpumem: sanitizer: %s in kernel '%s', block %s: byte %llu of "
               "%s of %llu bytes (%s)\n"
               "  thread %s %s at %s\n"
               "  %s %s at %s, %s\n%s",
               siteKind.c_str(), ctx->kernelName, coords(ctx->blockId).text,
               (unsigned long long)byte, memoryKind.name,
               (unsigned long long)size, what ? what : "",
               coords(ctx->threadId).text, accessPhrase(flags),
               withSource(location).c_str(), who.c_str(), earlierVerb,
               withSource(earlier.at).c_str(),
               sameBlock            ? "with no barrier between"
               : earlier.block == 0 ? "in other blocks of the same launch"
                                    : "in another block of the same launch",
               allocationLine().c_str());
}

namespace {
/// Holds the stripes (of `count`) of chunks [first, last], a hash of the
/// chunk each, locked in the order of their index, until it goes out of
/// scope.
template <typename Lock, unsigned count> class StripeLocks {
public:
  StripeLocks(Lock (&stripes)[count], uint64_t first, uint64_t last)
      : stripes(stripes) {
    if (first == last) {
      single = int(stripeOf(first));
      stripes[single].lock();
      return;
    }
    if (last - first + 1 >= count)
      held.set();
    for (uint64_t chunk = first; !held.all() && chunk <= last; ++chunk)
      held.set(stripeOf(chunk));
    for (unsigned stripe = 0; stripe < count; ++stripe)
      if (held[stripe])
        stripes[stripe].lock();
  }
  ~StripeLocks() {
    if (single >= 0) {
      stripes[single].unlock();
      return;
    }
    for (unsigned stripe = 0; stripe < count; ++stripe)
      if (held[stripe])
        stripes[stripe].unlock();
  }
  StripeLocks(const StripeLocks &) = delete;
  StripeLocks &operator=(const StripeLocks &) = delete;

private:
  /// Chunks a power of two apart (what two workers running the two halves
  /// of a grid touch at once) fall in different stripes.
  static unsigned stripeOf(uint64_t chunk) {
    return unsigned((chunk * 0x9e3779b97f4a7c15ull) >> 40) % count;
  }
  Lock (&stripes)[count];
  std::bitset<count> held;
  int single = -1; ///< the one stripe, when the chunks are one
};
} // namespace

void DeviceMemoryShadow::access(const GPUMemThreadContext *ctx,
                                const BlockEpoch &epoch, uint64_t offset,
                                int64_t count, int32_t flags, const char *what,
                                const char *location) {
  if (count <= 0 || offset + uint64_t(count) > size)
    return; // past the allocation: memcheck's to report
  bool read = flags & GPUMEM_SHARED_READ, write = flags & GPUMEM_SHARED_WRITE;
  bool atomic = flags & GPUMEM_SHARED_ATOMIC;
  uint64_t end = offset + uint64_t(count);
  uint64_t missing = read && (flags & GPUMEM_SHARED_CHECK_INIT)
                         ? firstUnwritten(offset, end)
                         : end;
  std::unique_lock<std::mutex> reporting;
  // Managed and registered host memory are unwritten only where the host
  // code reports the host's stores (gpumem-track-host-writes).
  bool hostWrites = memoryKind.is(kManaged) || memoryKind.is(kHost);
  std::string uninitialized =
      std::string("uninitialized read of ") + memoryKind.name;
  if (missing != end && firstAtSite(reporting, uninitialized, location))
    std::fprintf(stderr,
                 "gpumem: sanitizer: %s in kernel '%s', block %s thread %s\n"
                 "  at %s\n  byte %llu of %s of %llu bytes (%s), "
                 "which nothing wrote (no kernel, copy or fill%s)\n%s",
                 uninitialized.c_str(), ctx->kernelName,
                 coords(ctx->blockId).text, coords(ctx->threadId).text,
                 withSource(location).c_str(), (unsigned long long)missing,
                 memoryKind.name, (unsigned long long)size, what ? what : "",
                 hostWrites ? ", nor the host" : "", allocationLine().c_str());
  if (reporting.owns_lock())
    reporting.unlock();
  if (write)
    markWritten(offset, uint64_t(count));
  if (!(flags & GPUMEM_SHARED_CHECK_RACES))
    return;

  std::call_once(wordsMade, [&] { words.resize((size + 3) / 4); });
  // The stripes of the access's bytes, each locked once and in order. They
  // are small, so that the blocks two workers run at once, which touch
  // neighbouring bytes, seldom wait for each other.
  StripeLocks held(stripes, offset / kStripeBytes, (end - 1) / kStripeBytes);
  int32_t thread = linearThreadId(ctx);
  int32_t lanesPerWarp = int32_t(epoch.warpSize);
  int32_t warp = thread / lanesPerWarp;
  uint32_t warpPhase = epoch.warpPhase(uint32_t(warp));
  const int64_t *grid = ctx->gridDim;
  int64_t linearBlock =
      ctx->blockId[0] + grid[0] * (ctx->blockId[1] + grid[1] * ctx->blockId[2]);
  // Whether `earlier` and this access may happen in either order.
  auto conflicts = [&](const Access &earlier, uint32_t mask) {
    if (earlier.launch != epoch.launch || !(earlier.bytes & mask) ||
        (earlier.thread == thread && earlier.block == epoch.block))
      return false;
    if (earlier.block != epoch.block)
      return true;
    if (earlier.phase != epoch.phase)
      return false;
    // A shuffle both lanes of one warp completed orders them.
    return earlier.thread < 0 || earlier.thread / lanesPerWarp != warp ||
           earlier.warpPhase == warpPhase;
  };
  // Reads (or atomics) of several threads of one phase, or of several
  // blocks of one launch, are kept as one record that conflicts with all.
  // Only accesses of common bytes merge: a record of other bytes of the
  // word (a neighbour's 16-bit element) is replaced, since the union would
  // make this thread's own bytes look touched by the other.
  auto merge = [&](Access &last, Access now) {
    if (last.launch == epoch.launch && !(last.bytes & now.bytes)) {
      // (replaced below)
    } else if (last.launch == epoch.launch && last.block != epoch.block) {
      now.block = 0;
      now.thread = -2;
      now.bytes |= last.bytes;
    } else if (last.launch == epoch.launch && last.phase == epoch.phase &&
               last.thread != thread) {
      now.thread = -2;
      now.bytes |= last.bytes;
    }
    last = now;
  };
  bool reported = false;
  for (uint64_t w = offset / 4; w * 4 < end; ++w) {
    uint32_t mask = 0;
    for (uint64_t k = std::max(offset, w * 4); k < std::min(end, w * 4 + 4);
         ++k)
      mask |= 1u << (k - w * 4);
    Word &word = words[w];
    uint64_t byte = std::max(offset, w * 4);
    if (!reported) {
      bool sameWarpWrite =
          write && !atomic && word.write.block == epoch.block &&
          word.write.thread >= 0 && word.write.thread / lanesPerWarp == warp;
      reported = true;
      if (conflicts(word.write, mask) && !sameWarpWrite)
        reportRace(ctx, byte,
                   atomic  ? "atomic after write"
                   : write ? "write after write"
                           : "read after write",
                   flags, "wrote it", word.write, what, location);
      else if (write && conflicts(word.read, mask))
        reportRace(ctx, byte, atomic ? "atomic after read" : "write after read",
                   flags, "read it", word.read, what, location);
      else if (!atomic && conflicts(word.atomic, mask))
        // Atomics race with plain accesses only.
        reportRace(ctx, byte,
                   write ? "write after atomic" : "read after atomic", flags,
                   "updated it atomically", word.atomic, what, location);
      else
        reported = false;
    }
    Access now;
    now.launch = epoch.launch;
    now.block = epoch.block;
    now.phase = epoch.phase;
    now.warpPhase = warpPhase;
    now.thread = thread;
    now.bytes = mask;
    now.blockIndex = linearBlock;
    now.at = location;
    if (atomic)
      merge(word.atomic, now);
    else if (write)
      word.write = now;
    else
      merge(word.read, now);
  }
}
