//===----------------------------------------------------------------------===//
// Submitting work to the device's one queue, on streams, and waiting for it.
//
// Ordering is CUDA's: a stream is a timeline semaphore, and each submission
// on it waits for the stream's previous value and signals the next one, so
// work on one stream runs in order while work on different streams may run
// at once (a semaphore wait also makes the writes before its signal
// visible). mgpuStreamWaitEvent adds the event's (semaphore, value) to the
// waits of the stream's next submission. The null stream is CUDA's legacy
// default stream: its submissions wait for the last submission of every
// stream, and every stream's submissions wait for its last one. Each
// command buffer ends with a barrier that makes its writes visible to the
// host once its value is signalled. The host's own accesses (copies between
// host-visible memory, frees, unloads) first wait for all submitted work.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_QUEUE_H
#define GPUMEM_RUNTIME_VULKAN_QUEUE_H

#include "Diagnostics.h"
#include "Loader.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpumem::vulkan {

/// A timeline semaphore and the last value a submission will signal on it.
/// Shared by its stream and by the submissions and events that refer to
/// it; with the last of them, the semaphore goes back to a pool for the
/// next timeline (Queue.cpp says why it is never destroyed).
struct Timeline {
  Timeline();
  ~Timeline();
  Timeline(const Timeline &) = delete;
  Timeline &operator=(const Timeline &) = delete;
  VkSemaphore semaphore = VK_NULL_HANDLE;
  uint64_t last = 0; ///< guarded by the queue's lock
};

/// A point on a timeline: reached once the semaphore's value is `value`.
struct Point {
  std::shared_ptr<Timeline> timeline;
  uint64_t value = 0; ///< 0: reached from the start
};

/// What mgpuStreamCreate returns. Guarded by the queue's lock.
struct Stream {
  std::shared_ptr<Timeline> timeline = std::make_shared<Timeline>();
  std::vector<Point> waits; ///< for its next submission (events)
};

/// What mgpuEventCreate returns: the point it recorded.
struct Event {
  Point recorded;
};

/// One submission in the making: the queue is locked from construction to
/// submit.
class Recording {
public:
  /// Locks the queue and returns a command buffer, begun.
  Recording();
  VkCommandBuffer commands() const { return buffer; }
  /// Runs `action` once the work is done (frees what it used).
  void whenDone(std::function<void()> action) {
    done.push_back(std::move(action));
  }
  /// Records the trailing barrier and submits on `stream` (null: the
  /// default stream). `what` ("kernel 'k'", "a copy") names the work in
  /// errors. `diagnostics`, when given, is reported once the work is done.
  /// Returns the point the work reaches; does not wait.
  Point submit(Stream *stream, std::string what,
               std::unique_ptr<Diagnostics> diagnostics = nullptr);

private:
  std::unique_lock<std::mutex> lock;
  VkCommandBuffer buffer;
  std::vector<std::function<void()>> done;
};

/// Waits until `point` is reached, then retires all finished work.
void waitFor(const Point &point);
/// Waits for all submitted work.
void waitAll();

/// The queue's side of streams and events (Streams.cpp), each under the
/// queue's lock.
/// Creates the queue (choosing the device) if there is none yet.
void openQueue();
/// A new stream, known to the queue.
Stream *addStream();
/// Forgets `stream` and deletes it. Its work stays queued, holding its
/// timeline, and is retired by later waits.
void removeStream(Stream *stream);
/// The point that `stream`'s work submitted so far reaches.
Point lastPoint(const Stream &stream);
/// Makes the next submission on `stream` (null: the default stream) wait
/// for `point`.
void waitBeforeNext(Stream *stream, const Point &point);

/// At exit: waits for submitted work (the driver must not be running
/// kernels while it is finalized). Nothing when nothing was submitted.
void drainAtExit();

} // namespace gpumem::vulkan

#endif // GPUMEM_RUNTIME_VULKAN_QUEUE_H
