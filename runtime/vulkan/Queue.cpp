//===----------------------------------------------------------------------===//
// The queue under streams and events (see Queue.h for the ordering they
// give; the mgpu* stream and event functions are in Streams.cpp).
//
// Submissions in flight are kept in submission order with the point they
// reach. Retiring runs oldest first over those whose semaphore has reached
// their value: it frees the command buffer, runs the submission's
// whenDone actions and reports its diagnostics (prints the kernel's printf
// output, or ends the program on a failed assert). Every wait retires all
// that has finished; every submission retires the finished ones before the
// oldest unfinished one, so the list stays short at constant cost. One mutex
// guards the command pool, the queue, the list, the streams and their
// timelines' last values; host waits on semaphores run without it. A
// submission holds the timelines it waits on, so no timeline ends while
// work that refers to it is pending; a timeline's semaphore is then
// recycled, never destroyed.
//===----------------------------------------------------------------------===//

#include "Queue.h"
#include "Device.h"
#include "VulkanRuntime.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <tuple>
#include <utility>

using namespace gpumem::vulkan;

namespace {

struct Submission {
  Point reaches;
  VkCommandBuffer buffer;
  std::vector<std::shared_ptr<Timeline>> waitsOn;
  std::vector<std::function<void()>> done;
  std::string what;
  std::unique_ptr<Diagnostics> diagnostics;
};

struct QueueState {
  std::mutex mutex;
  VkCommandPool pool = VK_NULL_HANDLE;
  std::deque<Submission> inFlight; ///< in submission order
  Stream defaultStream;
  std::vector<Stream *> streams; ///< created and not yet destroyed
};

/// Constant-initialized, never destroyed: created by the first stream or
/// submission.
std::atomic<QueueState *> queueState{nullptr};
std::mutex creating;

QueueState &state() {
  if (QueueState *existing = queueState.load(std::memory_order_acquire))
    return *existing;
  const Device &current = device();
  std::lock_guard<std::mutex> lock(creating);
  QueueState *existing = queueState.load(std::memory_order_relaxed);
  if (!existing) {
    existing = new QueueState;
    VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    info.queueFamilyIndex = current.queueFamily;
    check(
        vk.vkCreateCommandPool(current.device, &info, nullptr, &existing->pool),
        "vkCreateCommandPool");
    queueState.store(existing, std::memory_order_release);
  }
  return *existing;
}

/// The semaphores' counter values read during one retirement pass: each
/// read once.
class Counters {
public:
  bool reached(const Submission &submission) {
    VkSemaphore semaphore = submission.reaches.timeline->semaphore;
    for (const auto &[known, value] : read)
      if (known == semaphore)
        return value >= submission.reaches.value;
    uint64_t value = 0;
    VkResult result =
        vk.vkGetSemaphoreCounterValueKHR(device().device, semaphore, &value);
    if (result != VK_SUCCESS)
      fatal("%s failed on the Vulkan device: %s", submission.what.c_str(),
            describe(result));
    read.emplace_back(semaphore, value);
    return value >= submission.reaches.value;
  }

private:
  std::vector<std::pair<VkSemaphore, uint64_t>> read;
};

/// Retires finished submissions, oldest first: all of them, or when
/// `onlyOldest`, those before the first unfinished one (cheap enough for
/// every submission). Caller holds the lock.
void retireFinished(QueueState &queue, bool onlyOldest = false) {
  VkDevice handle = device().device;
  Counters counters;
  for (auto it = queue.inFlight.begin(); it != queue.inFlight.end();) {
    if (!counters.reached(*it)) {
      if (onlyOldest)
        return;
      ++it;
      continue;
    }
    Submission finished = std::move(*it);
    it = queue.inFlight.erase(it);
    vk.vkFreeCommandBuffers(handle, queue.pool, 1, &finished.buffer);
    for (std::function<void()> &action : finished.done)
      action();
    if (finished.diagnostics)
      reportDiagnostics(std::move(finished.diagnostics));
  }
}

/// Waits, without the lock, until every point is reached; `what` names the
/// work in errors.
void waitUnlocked(const std::vector<Point> &points, const char *what) {
  std::vector<VkSemaphore> semaphores;
  std::vector<uint64_t> values;
  for (const Point &point : points)
    if (point.value) {
      semaphores.push_back(point.timeline->semaphore);
      values.push_back(point.value);
    }
  if (semaphores.empty())
    return;
  VkSemaphoreWaitInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = uint32_t(semaphores.size());
  info.pSemaphores = semaphores.data();
  info.pValues = values.data();
  VkResult result = vk.vkWaitSemaphoresKHR(device().device, &info, UINT64_MAX);
  if (result != VK_SUCCESS)
    fatal("%s failed on the Vulkan device: %s", what, describe(result));
}

/// Adds `point` to a submission's waits, once per semaphore (its latest
/// value).
void addWait(std::vector<Point> &waits, const Point &point) {
  if (!point.value)
    return;
  for (Point &existing : waits)
    if (existing.timeline == point.timeline) {
      existing.value = std::max(existing.value, point.value);
      return;
    }
  waits.push_back(point);
}

/// Semaphores of timelines that are gone, with their values. Never
/// destroyed: lavapipe's queue thread may still touch a semaphore after a
/// wait for its value has returned, so destroying one races with it
/// (seen as crashes at exit); reusing it does not, and saves a creation
/// per stream.
struct RecycledSemaphores {
  std::mutex mutex;
  std::vector<std::pair<VkSemaphore, uint64_t>> semaphores;
};
RecycledSemaphores &recycledSemaphores() {
  static RecycledSemaphores *recycled = new RecycledSemaphores;
  return *recycled;
}

void barrier(VkCommandBuffer buffer, VkPipelineStageFlags from,
             VkAccessFlags fromAccess, VkPipelineStageFlags to,
             VkAccessFlags toAccess) {
  VkMemoryBarrier memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  memory.srcAccessMask = fromAccess;
  memory.dstAccessMask = toAccess;
  vk.vkCmdPipelineBarrier(buffer, from, to, 0, 1, &memory, 0, nullptr, 0,
                          nullptr);
}

} // namespace

namespace gpumem::vulkan {

Timeline::Timeline() {
  {
    RecycledSemaphores &recycled = recycledSemaphores();
    std::lock_guard<std::mutex> lock(recycled.mutex);
    if (!recycled.semaphores.empty()) {
      std::tie(semaphore, last) = recycled.semaphores.back();
      recycled.semaphores.pop_back();
      return;
    }
  }
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = 0;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  check(vk.vkCreateSemaphore(device().device, &info, nullptr, &semaphore),
        "vkCreateSemaphore");
}

Timeline::~Timeline() {
  // Every submission on it has retired, so the semaphore's value is
  // `last`; the next timeline goes on from there.
  RecycledSemaphores &recycled = recycledSemaphores();
  std::lock_guard<std::mutex> lock(recycled.mutex);
  recycled.semaphores.emplace_back(semaphore, last);
}

Recording::Recording() {
  QueueState &queue = state();
  lock = std::unique_lock<std::mutex>(queue.mutex);
  VkCommandBufferAllocateInfo info{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = queue.pool;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  check(vk.vkAllocateCommandBuffers(device().device, &info, &buffer),
        "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vk.vkBeginCommandBuffer(buffer, &begin), "vkBeginCommandBuffer");
}

Point Recording::submit(Stream *stream, std::string what,
                        std::unique_ptr<Diagnostics> diagnostics) {
  QueueState &queue = state();
  barrier(buffer,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT);
  check(vk.vkEndCommandBuffer(buffer), "vkEndCommandBuffer");
  retireFinished(queue, /*onlyOldest=*/true);

  Stream &on = stream ? *stream : queue.defaultStream;
  std::vector<Point> waits;
  addWait(waits, {on.timeline, on.timeline->last});
  for (const Point &point : on.waits)
    addWait(waits, point);
  on.waits.clear();
  if (&on == &queue.defaultStream) {
    for (Stream *other : queue.streams)
      addWait(waits, {other->timeline, other->timeline->last});
  } else {
    const Stream &legacy = queue.defaultStream;
    addWait(waits, {legacy.timeline, legacy.timeline->last});
  }
  std::vector<VkSemaphore> semaphores;
  std::vector<uint64_t> values;
  std::vector<std::shared_ptr<Timeline>> waitsOn;
  for (const Point &point : waits) {
    semaphores.push_back(point.timeline->semaphore);
    values.push_back(point.value);
    waitsOn.push_back(point.timeline);
  }
  std::vector<VkPipelineStageFlags> stages(semaphores.size(),
                                           VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  uint64_t value = on.timeline->last + 1;
  VkTimelineSemaphoreSubmitInfo timeline{
      VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline.waitSemaphoreValueCount = uint32_t(values.size());
  timeline.pWaitSemaphoreValues = values.data();
  timeline.signalSemaphoreValueCount = 1;
  timeline.pSignalSemaphoreValues = &value;
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.pNext = &timeline;
  info.waitSemaphoreCount = uint32_t(semaphores.size());
  info.pWaitSemaphores = semaphores.data();
  info.pWaitDstStageMask = stages.data();
  info.commandBufferCount = 1;
  info.pCommandBuffers = &buffer;
  info.signalSemaphoreCount = 1;
  info.pSignalSemaphores = &on.timeline->semaphore;
  VkResult result = vk.vkQueueSubmit(device().queue, 1, &info, VK_NULL_HANDLE);
  if (result != VK_SUCCESS)
    fatal("vkQueueSubmit failed for %s: %s", what.c_str(), describe(result));
  on.timeline->last = value;
  Point reaches{on.timeline, value};
  queue.inFlight.push_back({reaches, buffer, std::move(waitsOn),
                            std::move(done), std::move(what),
                            std::move(diagnostics)});
  lock.unlock();
  return reaches;
}

void waitFor(const Point &point) {
  QueueState *queue = queueState.load(std::memory_order_acquire);
  if (!queue || !point.value)
    return;
  waitUnlocked({point}, "work on the Vulkan device");
  std::lock_guard<std::mutex> lock(queue->mutex);
  retireFinished(*queue);
}

void waitAll() {
  QueueState *queue = queueState.load(std::memory_order_acquire);
  if (!queue)
    return;
  std::vector<Point> points;
  {
    std::lock_guard<std::mutex> lock(queue->mutex);
    for (const Submission &submission : queue->inFlight)
      addWait(points, submission.reaches);
  }
  waitUnlocked(points, "work on the Vulkan device");
  std::lock_guard<std::mutex> lock(queue->mutex);
  retireFinished(*queue);
}

void drainAtExit() { waitAll(); }

void openQueue() { state(); }

Stream *addStream() {
  QueueState &queue = state();
  auto *stream = new Stream;
  std::lock_guard<std::mutex> lock(queue.mutex);
  queue.streams.push_back(stream);
  return stream;
}

void removeStream(Stream *stream) {
  QueueState &queue = state();
  std::lock_guard<std::mutex> lock(queue.mutex);
  auto &streams = queue.streams;
  streams.erase(std::remove(streams.begin(), streams.end(), stream),
                streams.end());
  delete stream;
}

Point lastPoint(const Stream &stream) {
  QueueState &queue = state();
  std::lock_guard<std::mutex> lock(queue.mutex);
  return {stream.timeline, stream.timeline->last};
}

void waitBeforeNext(Stream *stream, const Point &point) {
  QueueState &queue = state();
  std::lock_guard<std::mutex> lock(queue.mutex);
  Stream &on = stream ? *stream : queue.defaultStream;
  addWait(on.waits, point);
}

} // namespace gpumem::vulkan
