//===----------------------------------------------------------------------===//
// The workers that run the blocks of a launch.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_WORKERPOOL_H
#define GPUMEM_RUNTIME_CPU_WORKERPOOL_H

#include "BlockRunner.h"
#include "Launch.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <vector>

namespace gpumem::cpu {

/// N workers: the launching thread is worker 0, and N - 1 persistent
/// threads, started at the first launch of more than one block, are the
/// others. Each worker owns a BlockRunner. One launch at a time uses the
/// workers; a launch that starts meanwhile (from another stream) runs on
/// its own thread alone.
class WorkerPool {
public:
  /// The process's pool, made on first use and never destroyed: at exit (or
  /// when the library is unloaded) its threads are stopped and later
  /// launches, from global destructors say, run on the launching thread.
  static WorkerPool &get();

  /// Runs every block of `launch` and returns when all are done.
  void run(const LaunchInfo &launch);
  /// Stops the threads and drops every runner; see
  /// gpumemCPURuntimeConfigure.
  void configure(int32_t workers, int64_t stackBytes);
  /// Stops the threads for good.
  void shutDown();
  /// In the child of fork(): only the forking thread exists; forget the
  /// others without joining them and start afresh at the next launch.
  void forgetThreadsAfterFork();

private:
  WorkerPool();
  void startThreads();
  void stopThreads();
  /// A persistent thread, worker `index` (1..): runs the launches after
  /// `startGeneration`.
  static void *threadMain(void *start);
  /// run() but for the failed asserts.
  void runBlocks(const LaunchInfo &launch);
  /// Runs chunks of worker `self`'s range of blocks, then of the others'
  /// ranges, until no block is left.
  void takeBlocks(BlockRunner &runner, const LaunchInfo &launch, unsigned self);

  unsigned numWorkers;
  size_t stackBytes;
  /// How long a thread spins for the next launch, or for the others to
  /// finish one, before it sleeps.
  std::chrono::microseconds spinLimit;
  /// For launches that run alone: bumped by configure, and the stack size
  /// it set.
  std::atomic<uint64_t> configuration{0};
  std::atomic<size_t> stackBytesAtConfiguration;
  /// Held for a whole launch: one launch at a time. Guards the fields down
  /// to `mutex`.
  std::mutex launchMutex;
  std::unique_ptr<BlockRunner> callerRunner;
  /// Set at exit: no more threads; launches run on the caller.
  bool shutDownDone = false;
  /// Raw pthreads: nothing of theirs is on the heap, so a child of fork()
  /// can drop them without leaking.
  std::vector<pthread_t> threads;
  /// The generation when the threads were started.
  uint64_t startGeneration = 0;

  /// Guards the fields below it.
  std::mutex mutex;
  std::condition_variable wakeUp, allDone;
  const LaunchInfo *job = nullptr;
  /// Bumped once per multi-worker launch, and the threads still working
  /// on `job`: changed under the mutex, read without it by threads that
  /// spin before they sleep.
  std::atomic<uint64_t> generation{0};
  std::atomic<unsigned> busy{0};
  bool stopping = false;

  /// Blocks taken per trip to a range; set before the threads wake.
  int64_t chunk = 1;
  /// Worker w's share of a launch's blocks, [next, end): each on a cache
  /// line of its own, set before the threads wake.
  struct alignas(64) BlockRange {
    std::atomic<int64_t> next{0};
    int64_t end = 0;
  };
  std::unique_ptr<BlockRange[]> ranges;
};

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_WORKERPOOL_H
