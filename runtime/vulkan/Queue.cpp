//===----------------------------------------------------------------------===//
// The queue, streams and events (see Queue.h for the ordering they give).
//
// Submissions in flight are a FIFO of (serial, fence, command buffer,
// descriptor pool), retired in order: a wait takes fences from the front
// until it reaches its serial; each submission also retires the ones
// already finished, so the FIFO stays short without waits. One mutex
// guards the command pool, the queue, the FIFO and the streams' serials.
// Retiring a submission with a diagnostics buffer reports it (prints the
// kernel's printf output, or ends the program on a failed assert).
//===----------------------------------------------------------------------===//

#include "Queue.h"
#include "Device.h"
#include "VulkanRuntime.h"

#include <atomic>
#include <deque>

using namespace gpumem::vulkan;

namespace {

struct Submission {
  uint64_t serial;
  VkFence fence;
  VkCommandBuffer buffer;
  VkDescriptorPool pool;
  const char *kernel;
  std::unique_ptr<Diagnostics> diagnostics;
};

struct QueueState {
  std::mutex mutex;
  VkCommandPool pool = VK_NULL_HANDLE;
  uint64_t submitted = 0;
  std::deque<Submission> inFlight;
  Stream defaultStream;
};

/// Constant-initialized, never destroyed: created by the first submission.
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

/// Retires the front submission, waiting for it unless `poll` and it is
/// not finished; false when polling found it running. Caller holds mutex.
bool retireFront(QueueState &queue, bool poll) {
  VkDevice handle = device().device;
  Submission &front = queue.inFlight.front();
  VkResult result =
      poll ? vk.vkGetFenceStatus(handle, front.fence)
           : vk.vkWaitForFences(handle, 1, &front.fence, VK_TRUE, UINT64_MAX);
  if (result == VK_NOT_READY)
    return false;
  if (result != VK_SUCCESS)
    fatal("kernel '%s' failed on the Vulkan device: %s", front.kernel,
          describe(result));
  vk.vkDestroyFence(handle, front.fence, nullptr);
  vk.vkFreeCommandBuffers(handle, queue.pool, 1, &front.buffer);
  if (front.pool)
    vk.vkDestroyDescriptorPool(handle, front.pool, nullptr);
  std::unique_ptr<Diagnostics> diagnostics = std::move(front.diagnostics);
  queue.inFlight.pop_front();
  if (diagnostics)
    reportDiagnostics(std::move(diagnostics));
  return true;
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
  barrier(buffer,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void Recording::submit(Stream *stream, VkDescriptorPool pool,
                       const char *kernel,
                       std::unique_ptr<Diagnostics> diagnostics) {
  QueueState &queue = state();
  const Device &current = device();
  barrier(buffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT);
  check(vk.vkEndCommandBuffer(buffer), "vkEndCommandBuffer");
  // Keep the FIFO short.
  while (!queue.inFlight.empty() && retireFront(queue, /*poll=*/true)) {
  }
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  check(vk.vkCreateFence(current.device, &fenceInfo, nullptr, &fence),
        "vkCreateFence");
  VkSubmitInfo info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  info.commandBufferCount = 1;
  info.pCommandBuffers = &buffer;
  VkResult result = vk.vkQueueSubmit(current.queue, 1, &info, fence);
  if (result != VK_SUCCESS)
    fatal("vkQueueSubmit failed for kernel '%s': %s", kernel, describe(result));
  uint64_t serial = ++queue.submitted;
  queue.inFlight.push_back(
      {serial, fence, buffer, pool, kernel, std::move(diagnostics)});
  (stream ? stream : &queue.defaultStream)->last = serial;
  lock.unlock();
}

void waitFor(uint64_t serial) {
  QueueState *queue = queueState.load(std::memory_order_acquire);
  if (!queue || serial == 0)
    return;
  std::lock_guard<std::mutex> lock(queue->mutex);
  while (!queue->inFlight.empty() && queue->inFlight.front().serial <= serial)
    retireFront(*queue, /*poll=*/false);
}

void drainAtExit() { waitAll(); }

} // namespace gpumem::vulkan

namespace {

/// The serial a stream's work reaches: all work for the null stream.
uint64_t lastOf(Stream *stream) {
  QueueState *queue = queueState.load(std::memory_order_acquire);
  if (!queue)
    return 0;
  std::lock_guard<std::mutex> lock(queue->mutex);
  return stream ? stream->last : queue->submitted;
}

} // namespace

extern "C" void *mgpuStreamCreate(void) {
  device();
  return new Stream;
}

extern "C" void mgpuStreamDestroy(void *stream) {
  // Its work stays queued and is retired by later waits.
  delete static_cast<Stream *>(stream);
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  waitFor(lastOf(static_cast<Stream *>(stream)));
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  // Nothing to do: all streams share one queue, in submission order.
  if (!event)
    fatal("mgpuStreamWaitEvent: null event");
}

extern "C" void *mgpuEventCreate(void) {
  device();
  return new Event;
}

extern "C" void mgpuEventDestroy(void *event) {
  delete static_cast<Event *>(event);
}

extern "C" void mgpuEventSynchronize(void *event) {
  if (!event)
    fatal("mgpuEventSynchronize: null event");
  waitFor(static_cast<Event *>(event)->serial);
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  if (!event)
    fatal("mgpuEventRecord: null event");
  static_cast<Event *>(event)->serial = lastOf(static_cast<Stream *>(stream));
}
