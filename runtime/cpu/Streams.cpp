//===----------------------------------------------------------------------===//
// Streams and events (Streams.h). Enqueueing work on an idle stream hands
// the stream to the executor pool: an idle executor thread, or a new one
// when every executor is busy, drains the queue in order. So two streams
// always progress at once, whatever their kernels wait for (two kernels
// that spin until each other has started finish, as on a GPU). A host
// thread that synchronizes a stream whose work has not started yet runs
// that work itself: gpu-to-llvm lowers a synchronous launch or copy to
// create, enqueue, synchronize, destroy, and then nothing changes threads.
// Whichever thread finishes a work item goes on with the next one, so the
// queue keeps its order.
//
// An event record enqueues "reached record n"; a stream waiting for an
// event enqueues "wait until record n is reached", n being the event's last
// record at the time of the call, as cuStreamWaitEvent captures it.
//===----------------------------------------------------------------------===//

#include "Streams.h"
#include "CPURuntime.h"
#include "Support.h"

#include <cstring>
#include <new>
#include <pthread.h>
#include <unordered_set>

using namespace gpumem::cpu;

namespace gpumem::cpu {

/// The executor threads: detached, never stopped, made when work waits
/// and none is idle.
class StreamExecutors {
public:
  static StreamExecutors &get() {
    static StreamExecutors *executors = [] {
      auto *made = new StreamExecutors();
      pthread_atfork(nullptr, nullptr, [] { get().forgetThreadsAfterFork(); });
      return made;
    }();
    return *executors;
  }

  /// `stream` has work and no executor: one will drain it.
  void schedule(Stream *stream) {
    std::lock_guard<std::mutex> lock(mutex);
    ready.push_back(stream);
    if (ready.size() > idle)
      startThread();
    else
      wakeUp.notify_one();
  }

  /// Every stream that exists, for Stream::synchronizeAll.
  std::mutex streamsMutex;
  std::unordered_set<Stream *> streams;

private:
  void startThread() {
    pthread_t thread;
    if (int error = pthread_create(&thread, nullptr, &threadMain, this))
      fatal("cannot start a stream's thread: %s", std::strerror(error));
    pthread_detach(thread);
  }

  static void *threadMain(void *self) {
    auto &executors = *static_cast<StreamExecutors *>(self);
    std::unique_lock<std::mutex> lock(executors.mutex);
    for (;;) {
      ++executors.idle;
      executors.wakeUp.wait(lock, [&] { return !executors.ready.empty(); });
      --executors.idle;
      Stream *stream = executors.ready.front();
      executors.ready.pop_front();
      lock.unlock();
      {
        std::unique_lock<std::mutex> streamLock(stream->mutex);
        stream->drain(streamLock);
        // The stream may be destroyed as soon as this is false.
        stream->scheduled = false;
        stream->changed.notify_all();
      }
      lock.lock();
    }
  }

  /// In the child of fork() only the forking thread exists.
  void forgetThreadsAfterFork() {
    new (&mutex) std::mutex();
    new (&wakeUp) std::condition_variable();
    new (&streamsMutex) std::mutex();
    ready.clear();
    idle = 0;
  }

  std::mutex mutex;
  std::condition_variable wakeUp;
  std::deque<Stream *> ready;
  size_t idle = 0; ///< threads waiting for `ready`
};

} // namespace gpumem::cpu

void Stream::enqueue(Work work) {
  std::lock_guard<std::mutex> lock(mutex);
  queue.push_back(std::move(work));
  if (running || scheduled)
    return; // the thread running the queue goes on with this work
  scheduled = true;
  StreamExecutors::get().schedule(this);
}

void Stream::drain(std::unique_lock<std::mutex> &lock) {
  while (!queue.empty() && !running) {
    Work work = std::move(queue.front());
    queue.pop_front();
    running = true;
    lock.unlock();
    work();
    lock.lock();
    running = false;
  }
  changed.notify_all();
}

void Stream::synchronize() {
  std::unique_lock<std::mutex> lock(mutex);
  drain(lock);
  changed.wait(lock, [&] { return queue.empty() && !running; });
}

Stream::Stream() : Handle(Handle::StreamKind) {
  StreamExecutors &executors = StreamExecutors::get();
  std::lock_guard<std::mutex> streamsLock(executors.streamsMutex);
  executors.streams.insert(this);
}

Stream::~Stream() {
  {
    StreamExecutors &executors = StreamExecutors::get();
    std::lock_guard<std::mutex> streamsLock(executors.streamsMutex);
    executors.streams.erase(this);
  }
  std::unique_lock<std::mutex> lock(mutex);
  drain(lock);
  // An executor that was handed the stream must be done with it.
  changed.wait(lock, [&] { return queue.empty() && !running && !scheduled; });
}

void Stream::synchronizeAll() {
  StreamExecutors &executors = StreamExecutors::get();
  // Under the lock, so that none is destroyed meanwhile: work never makes
  // or destroys streams, so the work waited for never needs the lock.
  std::lock_guard<std::mutex> streamsLock(executors.streamsMutex);
  for (Stream *stream : executors.streams)
    stream->synchronize();
}

void Event::State::waitFor(uint64_t record) {
  std::unique_lock<std::mutex> lock(mutex);
  reachedChanged.wait(lock, [&] { return reached >= record; });
}

void Event::record(Stream &stream) {
  uint64_t record;
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    record = ++state->recorded;
  }
  stream.enqueue([state = state, record] {
    std::lock_guard<std::mutex> lock(state->mutex);
    state->reached = std::max(state->reached, record);
    state->reachedChanged.notify_all();
  });
}

void Event::makeWait(Stream &stream) {
  uint64_t record;
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    record = state->recorded;
  }
  if (record)
    stream.enqueue([state = state, record] { state->waitFor(record); });
}

void Event::synchronize() {
  uint64_t record;
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    record = state->recorded;
  }
  state->waitFor(record);
}

namespace {
template <typename T>
T &handle(void *pointer, Handle::Kind kind, const char *function) {
  if (!pointer)
    fatal("%s: null %s", function,
          kind == Handle::StreamKind ? "stream" : "event");
  auto *base = static_cast<Handle *>(pointer);
  if (base->kind != kind)
    fatal("%s: %p is %s, not %s", function, pointer,
          base->kind == Handle::StreamKind ? "a stream" : "an event",
          kind == Handle::StreamKind ? "a stream" : "an event");
  return *static_cast<T *>(base);
}
} // namespace

extern "C" void *mgpuStreamCreate(void) { return new Stream(); }
extern "C" void mgpuStreamDestroy(void *stream) {
  delete static_cast<Handle *>(stream);
}
extern "C" void mgpuStreamSynchronize(void *stream) {
  if (!stream)
    return Stream::synchronizeAll();
  handle<Stream>(stream, Handle::StreamKind, "mgpuStreamSynchronize")
      .synchronize();
}
extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  handle<Event>(event, Handle::EventKind, "mgpuStreamWaitEvent")
      .makeWait(
          handle<Stream>(stream, Handle::StreamKind, "mgpuStreamWaitEvent"));
}

extern "C" void *mgpuEventCreate(void) { return new Event(); }
extern "C" void mgpuEventDestroy(void *event) {
  delete static_cast<Handle *>(event);
}
extern "C" void mgpuEventSynchronize(void *event) {
  handle<Event>(event, Handle::EventKind, "mgpuEventSynchronize").synchronize();
}
extern "C" void mgpuEventRecord(void *event, void *stream) {
  handle<Event>(event, Handle::EventKind, "mgpuEventRecord")
      .record(handle<Stream>(stream, Handle::StreamKind, "mgpuEventRecord"));
}
