//===----------------------------------------------------------------------===//
// Streams and events of the cpu runtime: a stream is an ordered queue of
// work that runs concurrently with the host and with other streams.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_STREAMS_H
#define GPUMEM_RUNTIME_CPU_STREAMS_H

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace gpumem::cpu {

/// What mgpuStreamCreate and mgpuEventCreate return. One base, so that a
/// handle passed to the other kind's destroy function is still destroyed
/// correctly.
struct Handle {
  enum Kind : uint32_t { StreamKind, EventKind } kind;
  explicit Handle(Kind kind) : kind(kind) {}
  virtual ~Handle() = default;
};

/// An ordered queue. Its work runs on the host thread when it synchronizes
/// before the work started, or else on an executor thread taken from a
/// process-wide pool (Streams.cpp says when).
class Stream : public Handle {
public:
  using Work = std::function<void()>;

  Stream();
  /// Runs or waits for the queued work, as synchronize.
  ~Stream() override;

  /// Appends `work`; it runs after everything enqueued before it.
  void enqueue(Work work);
  /// Returns once every work enqueued so far has run.
  void synchronize();
  /// Synchronizes every stream that exists (what a null stream, and
  /// freeing device memory, wait for).
  static void synchronizeAll();

private:
  friend class StreamExecutors;
  /// Runs queued work on the calling thread until the queue is empty or
  /// another thread is running some.
  void drain(std::unique_lock<std::mutex> &lock);
  /// With the lock held, before the caller drains the queue itself: takes
  /// the stream back if it is deferred, and hands every other deferred
  /// stream to the executors.
  void takeOver();

  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Work> queue;
  bool running = false;   ///< a thread is running the front work
  bool scheduled = false; ///< deferred, or an executor was asked to drain
};

/// A point recorded in a stream. Its state is shared with the work that
/// records or waits for it, which may outlive the handle.
class Event : public Handle {
public:
  Event() : Handle(EventKind), state(std::make_shared<State>()) {}

  /// Marks the end of the work `stream` holds now.
  void record(Stream &stream);
  /// Makes `stream`'s later work wait for the last record.
  void makeWait(Stream &stream);
  /// Returns once the last record is reached (at once when never recorded).
  void synchronize();

private:
  struct State {
    std::mutex mutex;
    std::condition_variable reachedChanged;
    uint64_t recorded = 0, reached = 0;
    void waitFor(uint64_t record);
  };
  std::shared_ptr<State> state;
};

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_STREAMS_H
