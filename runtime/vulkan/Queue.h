//===----------------------------------------------------------------------===//
// Submitting work to the device's one queue, and waiting for it.
//
// Ordering: every stream submits to the same queue, and every command
// buffer starts with a full compute (and host-write) to compute memory
// barrier, which orders it after everything submitted before it, and ends
// with a compute to host barrier. So all launches run one after another in
// the order they were submitted, across streams (stronger than CUDA's
// streams promise, and so correct for any program that is correct with
// them), and a wait for a submission's fence makes its writes and those of
// every earlier one visible to the host. A stream remembers the serial of
// its last submission, an event the serial it recorded; synchronizing
// waits for the fences up to that serial. The null stream stands for all
// work.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_QUEUE_H
#define GPUMEM_RUNTIME_VULKAN_QUEUE_H

#include "Diagnostics.h"
#include "Loader.h"

#include <cstdint>
#include <memory>
#include <mutex>

namespace gpumem::vulkan {

/// What mgpuStreamCreate returns. Guarded by the queue's lock.
struct Stream {
  uint64_t last = 0; ///< serial of its last submission; 0: none
};

/// What mgpuEventCreate returns.
struct Event {
  uint64_t serial = 0; ///< the work it waits for; 0: none
};

/// One submission in the making: the queue is locked from begin to submit.
class Recording {
public:
  /// Locks the queue and returns a command buffer, begun, with the leading
  /// barrier recorded.
  Recording();
  VkCommandBuffer commands() const { return buffer; }
  /// Records the trailing barrier and submits on `stream` (null: the
  /// default stream). `pool` (may be null) is destroyed once the work is
  /// done; `kernel` names it in errors and must outlive the wait. Does not
  /// wait.
  /// `diagnostics`, when given, is reported once the work is done.
  void submit(Stream *stream, VkDescriptorPool pool, const char *kernel,
              std::unique_ptr<Diagnostics> diagnostics = nullptr);

private:
  std::unique_lock<std::mutex> lock;
  VkCommandBuffer buffer;
};

/// Waits for every submission up to `serial`, and for all work when
/// `serial` is UINT64_MAX.
void waitFor(uint64_t serial);
inline void waitAll() { waitFor(UINT64_MAX); }

/// At exit: waits for submitted work (the driver must not be running
/// kernels while it is finalized). Nothing when nothing was submitted.
void drainAtExit();

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_QUEUE_H
