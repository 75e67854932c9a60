//===----------------------------------------------------------------------===//
// Streams and events of the mgpu* ABI on Vulkan. A stream is a timeline
// semaphore that its submissions signal in order; an event is the point a
// stream had reached when it was recorded. The queue beneath them, and the
// ordering they give, are in Queue.h and Queue.cpp.
//===----------------------------------------------------------------------===//

#include "Queue.h"
#include "VulkanRuntime.h"

using namespace gpumem::vulkan;

extern "C" void *mgpuStreamCreate(void) { return addStream(); }

extern "C" void mgpuStreamDestroy(void *stream) {
  // Its work stays queued, holding its timeline, and is retired by later
  // waits.
  if (!stream)
    return;
  removeStream(static_cast<Stream *>(stream));
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  if (!stream)
    return waitAll();
  waitFor(lastPoint(*static_cast<Stream *>(stream)));
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  if (!event)
    fatal("mgpuStreamWaitEvent: null event");
  waitBeforeNext(static_cast<Stream *>(stream),
                 static_cast<Event *>(event)->recorded);
}

extern "C" void *mgpuEventCreate(void) {
  openQueue();
  return new Event;
}

extern "C" void mgpuEventDestroy(void *event) {
  delete static_cast<Event *>(event);
}

extern "C" void mgpuEventSynchronize(void *event) {
  if (!event)
    fatal("mgpuEventSynchronize: null event");
  waitFor(static_cast<Event *>(event)->recorded);
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  if (!event)
    fatal("mgpuEventRecord: null event");
  Point &recorded = static_cast<Event *>(event)->recorded;
  if (!stream) {
    // The legacy default stream follows every stream: an empty submission
    // on it reaches the point after all work so far.
    recorded = Recording().submit(nullptr, "an event");
    return;
  }
  recorded = lastPoint(*static_cast<Stream *>(stream));
}
