//===----------------------------------------------------------------------===//
// What --sanitize's initcheck and racecheck know of one allocation of
// device memory (mgpuMemAlloc), managed memory (mgpuMemAlloc with host
// sharing) or registered host memory (mgpuMemHostRegister).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_DEVICEMEMORYSHADOW_H
#define GPUMEM_RUNTIME_CPU_DEVICEMEMORYSHADOW_H

#include "Sanitizer.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gpumem::cpu {

/// One bit per byte: whether anything wrote it (a kernel, a copy, a fill);
/// and, once a race-checked kernel touches the allocation, per 4-byte word
/// the last plain write, plain read and atomic update with their launch,
/// block, barrier phase, thread and location. Workers set and read the bits
/// atomically and lock stripes of 256 bytes for the words; copies and fills
/// run between launches.
class DeviceMemoryShadow {
public:
  /// The memory a shadow follows, as reports name it.
  struct Memory {
    const char *name; ///< "device memory"
    const char *made; ///< "allocated", "registered"
    /// Whether it is the memory of `other` (by name: a constant's string
    /// may have a copy in each object file).
    bool is(const Memory &other) const {
      return std::strcmp(name, other.name) == 0;
    }
  };
  static constexpr Memory kDevice{"device memory", "allocated"};
  /// gpu.alloc host_shared: the host reads and writes it directly, so its
  /// bytes count as written from the start, unless the host code reports
  /// its writes (gpumem-track-host-writes).
  static constexpr Memory kManaged{"managed memory", "allocated"};
  /// gpu.host_register: likewise.
  static constexpr Memory kHost{"host memory", "registered"};

  /// `allocatedAt`: the gpu.alloc's (gpu.host_register's) "file:line:col",
  /// or null.
  DeviceMemoryShadow(uint64_t bytes, const char *allocatedAt,
                     Memory memory = kDevice);
  const Memory &memory() const { return memoryKind; }
  /// Where it was allocated or registered, or null.
  const char *site() const { return allocatedAt; }
  /// Bytes [offset, offset + count) were written outside kernels.
  void markWritten(uint64_t offset, uint64_t count);
  /// Every byte counts as never written again (managed memory whose host
  /// writes the host code reports, gpumemMemHostWritesTracked).
  void forgetWrites();
  /// A copy from `source` at `sourceOffset`: the bytes are as initialized
  /// as the source's were.
  void copyInitialized(uint64_t offset, const DeviceMemoryShadow &source,
                       uint64_t sourceOffset, uint64_t count);
  /// services->deviceAccess of `count` bytes at `offset` by the thread of
  /// `ctx` at `epoch`.
  void access(const GPUMemThreadContext *ctx, const BlockEpoch &epoch,
              uint64_t offset, int64_t count, int32_t flags, const char *what,
              const char *location);

private:
  /// One thread's access of a word, or of several threads' (thread -2).
  struct Access {
    uint32_t launch = 0, block = 0, phase = 0, warpPhase = 0;
    int32_t thread = -1;
    uint32_t bytes = 0;     ///< the word's bytes it touched, as a mask
    int64_t blockIndex = 0; ///< linear in the grid, for reports
    const char *at = nullptr;
  };
  /// A word's last plain write, plain read and atomic update.
  struct Word {
    Access write, read, atomic;
  };
  bool initialized(uint64_t byte) const {
    return bits[byte / 64] >> (byte % 64) & 1;
  }
  /// The first byte of [begin, end) nothing wrote, or `end`.
  uint64_t firstUnwritten(uint64_t begin, uint64_t end) const;
  void reportRace(const GPUMemThreadContext *ctx, uint64_t byte,
                  const char *kind, int32_t flags, const char *earlierVerb,
                  const Access &earlier, const char *what,
                  const char *location) const;

  /// "  allocated at LOCATION: source line\n" ("registered at"), or ""
  /// when unknown.
  std::string allocationLine() const;

  /// The words' locks: each guards the chunks of kStripeBytes whose index
  /// hashes to it.
  static constexpr unsigned kStripes = 64;
  static constexpr uint64_t kStripeBytes = 256;
  /// A lock held for the few instructions of one word's update: spinning
  /// (then yielding) costs less than a mutex's calls there.
  /// One to a cache line: workers take different stripes at once.
  class alignas(64) StripeLock {
  public:
    void lock() {
      while (taken.exchange(true, std::memory_order_acquire))
        while (taken.load(std::memory_order_relaxed))
          std::this_thread::yield();
    }
    void unlock() { taken.store(false, std::memory_order_release); }

  private:
    std::atomic<bool> taken{false};
  };
  StripeLock stripes[kStripes];
  uint64_t size;
  const char *allocatedAt;
  Memory memoryKind;
  std::vector<uint64_t> bits;
  std::vector<Word> words; ///< empty until a race-checked access
  std::once_flag wordsMade;
};

/// Device memory tracking for initcheck and racecheck, in Memory.cpp: off
/// until a module with a kernel compiled with either check is loaded;
/// allocations made before then have no shadow and are not checked.
void enableDeviceMemoryShadows();
/// From a module with a kernel compiled with memcheck, initcheck or
/// racecheck on: each new allocation of device memory (not host-shared) is
/// a mapping of its own with a redzone of more than 1 MiB, so that an
/// access far past its end is reported and lands in that mapping, never in
/// the host heap (Memory.cpp).
void enableDeviceMemoryMappings();
/// Writes into `text` where `address` (of a fault) lies in the guards of a
/// device allocation made without --sanitize: " at A, N bytes past the end
/// of device memory of M bytes (allocated at file:line)"; false when in
/// none, or when the allocations cannot be read safely (Memory.cpp).
bool describeGuardFault(const void *address, char *text, size_t size);
/// Marks `bytes` bytes at `dst` written by a copy from `src` (null for a
/// fill) in the shadow of dst's allocation, if it has one (Memory.cpp).
void shadowCopy(void *dst, const void *src, uint64_t bytes);
/// initcheck of host memory the host code follows (HostWrites.cpp): the
/// host buffer of `bytes` bytes at `start` is written only where
/// noteTrackedHostWrite says, until it is registered (mgpuMemHostRegister
/// then gives its shadow those bytes alone, and stops following it) or
/// forgotten (freed). Nothing is kept without shadows. (Memory.cpp.)
void trackHostBuffer(uintptr_t start, uint64_t bytes);
/// Notes `bytes` written at `address` of a tracked host buffer not yet
/// registered; false when the address is in none.
bool noteTrackedHostWrite(uintptr_t address, uint64_t bytes);
void forgetTrackedHostBuffer(uintptr_t start);
/// Addresses [start, start + bytes) of one kind: an allocation from
/// mgpuMemAlloc (with its shadow, if it has one), the redzone after one,
/// one freed and still in quarantine, registered host memory (an
/// Allocation, of DeviceMemoryShadow::kHost), or the gap between them (other
/// host memory, stacks) that holds the address.
struct ShadowedRange {
  enum Kind : uint8_t { Gap, Allocation, Redzone, Freed } kind = Gap;
  uintptr_t start = 0;
  uint64_t bytes = 0;
  std::shared_ptr<DeviceMemoryShadow> shadow;
  /// The allocation (Allocation, Redzone, Freed): start, size, where made,
  /// and which memory it is.
  uintptr_t allocation = 0;
  uint64_t allocationBytes = 0;
  const char *allocatedAt = nullptr;
  DeviceMemoryShadow::Memory memory = DeviceMemoryShadow::kDevice;
  bool holds(const void *address) const {
    return uintptr_t(address) - start < bytes;
  }
};
/// The range holding `address`; a worker keeps it for the rest of a
/// launch (allocations change only between launches).
ShadowedRange findShadowedRange(const void *address);

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_DEVICEMEMORYSHADOW_H
