//===----------------------------------------------------------------------===//
// Streams and events (Streams.h). Enqueueing work on an idle stream defers
// the stream: gpu-to-llvm lowers a synchronous launch or copy to create,
// enqueue, synchronize, destroy, and a host thread that synchronizes a
// stream whose work has not started runs that work itself, without waking
// anyone (a wake-up and the hand-back cost tens of microseconds a launch).
// Deferred streams go to the executor pool (an idle executor thread, or a
// new one when every executor is busy, drains the queue in order) as soon
// as the host waits for anything else (another stream, an event), and
// otherwise when an idle executor's periodic check finds them, within
// about a millisecond. So two streams always progress at once, whatever
// their kernels wait for (two kernels that spin until each other has
// started finish, as on a GPU), and work the host never waits for runs
// while the host goes on. Whichever thread finishes a work item goes on
// with the next one, so the queue keeps its order.
//
// An event record enqueues "reached record n"; a stream waiting for an
// event enqueues "wait until record n is reached", n being the event's last
// record at the time of the call, as cuStreamWaitEvent captures it.
//===----------------------------------------------------------------------===//

#include "Streams.h"
#include "CPURuntime.h"
#include "Support.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <pthread.h>
#include <unordered_set>

using namespace gpumem::cpu;

namespace gpumem::cpu {

/// The executor threads: detached, made when work waits and none is idle.
/// When static destructors run (at exit, or before the library is
/// unloaded), the idle ones park: they sleep for good instead of waking
/// periodically into code that may be gone. They do not exit, because a
/// thread's exit runs its thread-local destructors, which would race with
/// the process's own teardown. A busy one parks after its work.
class StreamExecutors {
public:
  static StreamExecutors &get() {
    static StreamExecutors *executors = [] {
      auto *made = new StreamExecutors();
      pthread_atfork(nullptr, nullptr, [] { get().forgetThreadsAfterFork(); });
      return made;
    }();
    static Stopper stopper;
    return *executors;
  }

  /// `stream` has work and nobody to drain it: the host may, or else an
  /// executor will.
  void defer(Stream *stream) {
    std::lock_guard<std::mutex> lock(mutex);
    deferred.push_back(stream);
    // An idle executor checks the deferred streams periodically; one that
    // sleeps without a timeout (idle for long) is woken.
    if (stopping)
      return; // only a thread that synchronizes the stream will run it
    if (threads == 0)
      startThread();
    else if (sleepingLong)
      wakeUp.notify_one();
  }

  /// Takes `stream` back from the deferred ones: whether it was there (the
  /// caller then drains it).
  bool claim(Stream *stream) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = std::find(deferred.begin(), deferred.end(), stream);
    if (it == deferred.end())
      return false;
    deferred.erase(it);
    return true;
  }

  /// Hands every deferred stream but `except` to the executors: the caller
  /// is about to wait, maybe for them.
  void flushDeferred(Stream *except = nullptr) {
    std::lock_guard<std::mutex> lock(mutex);
    readyDeferred(except);
  }

  /// Every stream that exists, for Stream::synchronizeAll.
  std::mutex streamsMutex;
  std::unordered_set<Stream *> streams;

private:
  /// Under the mutex: every deferred stream but `except` is made ready.
  void readyDeferred(Stream *except) {
    for (auto it = deferred.begin(); it != deferred.end();) {
      if (*it == except) {
        ++it;
        continue;
      }
      makeReady(*it);
      it = deferred.erase(it);
    }
  }

  /// Under the mutex: an executor will drain `stream`.
  void makeReady(Stream *stream) {
    ready.push_back(stream);
    if (ready.size() > idle)
      startThread();
    else
      wakeUp.notify_one();
  }

  void startThread() {
    ++threads;
    pthread_t thread;
    if (int error = pthread_create(&thread, nullptr, &threadMain, this))
      fatal("cannot start a stream's thread: %s", std::strerror(error));
    pthread_detach(thread);
  }

  static void *threadMain(void *self) {
    auto &executors = *static_cast<StreamExecutors *>(self);
    pthread_setname_np(pthread_self(), "gpumem-stream");
    std::unique_lock<std::mutex> lock(executors.mutex);
    for (;;) {
      ++executors.idle;
      executors.waitForReady(lock);
      --executors.idle;
      Stream *stream = executors.ready.front();
      executors.ready.pop_front();
      ++executors.busy;
      lock.unlock();
      {
        std::unique_lock<std::mutex> streamLock(stream->mutex);
        stream->drain(streamLock);
        // The stream may be destroyed as soon as this is false.
        stream->scheduled = false;
        stream->changed.notify_all();
      }
      lock.lock();
      --executors.busy;
    }
  }

  /// An idle executor's wait, under the mutex: every millisecond it hands
  /// the deferred streams to the executors; after a second without any,
  /// it sleeps until woken.
  void waitForReady(std::unique_lock<std::mutex> &lock) {
    int quietChecks = 0;
    while (ready.empty() || stopping) {
      if (stopping) {
        ++parked;
        stopped.notify_all();
        for (;;)
          wakeUp.wait(lock);
      }
      if (quietChecks >= 1000) {
        ++sleepingLong;
        wakeUp.wait(lock);
        --sleepingLong;
        quietChecks = 0;
      } else {
        wakeUp.wait_for(lock, std::chrono::milliseconds(1));
        ++quietChecks;
      }
      if (ready.empty() && !deferred.empty()) {
        quietChecks = 0;
        readyDeferred(nullptr);
      }
    }
  }

  /// Stops the executors when static destructors run.
  struct Stopper {
    ~Stopper() {
      StreamExecutors &executors = get();
      std::unique_lock<std::mutex> lock(executors.mutex);
      executors.stopping = true;
      executors.wakeUp.notify_all();
      executors.stopped.wait(lock, [&] {
        return executors.parked == executors.threads - executors.busy;
      });
    }
  };

  /// In the child of fork() only the forking thread exists.
  void forgetThreadsAfterFork() {
    new (&mutex) std::mutex();
    new (&wakeUp) std::condition_variable();
    new (&stopped) std::condition_variable();
    new (&streamsMutex) std::mutex();
    ready.clear();
    deferred.clear();
    idle = 0;
    busy = 0;
    threads = 0;
    parked = 0;
    sleepingLong = 0;
  }

  std::mutex mutex;
  std::condition_variable wakeUp, stopped;
  bool stopping = false; ///< static destructors ran: idle threads park
  std::deque<Stream *> ready;
  /// Streams with work that no thread drains yet (defer).
  std::deque<Stream *> deferred;
  size_t idle = 0;         ///< threads waiting for `ready`
  size_t busy = 0;         ///< threads draining a stream
  size_t threads = 0;      ///< executor threads started
  size_t parked = 0;       ///< threads asleep for good (stopping)
  size_t sleepingLong = 0; ///< idle threads that check no more
};

} // namespace gpumem::cpu

void Stream::enqueue(Work work) {
  std::lock_guard<std::mutex> lock(mutex);
  queue.push_back(std::move(work));
  if (running || scheduled)
    return; // the thread running the queue goes on with this work
  scheduled = true;
  StreamExecutors::get().defer(this);
}

void Stream::takeOver() {
  StreamExecutors &executors = StreamExecutors::get();
  if (executors.claim(this))
    scheduled = false; // no executor will drain it: the caller does
  // The work may wait for other streams' (an event, a kernel that spins).
  executors.flushDeferred(this);
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
  takeOver();
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
  takeOver();
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
  // The record may be in a stream nobody drains yet.
  StreamExecutors::get().flushDeferred();
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
