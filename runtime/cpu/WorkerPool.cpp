//===----------------------------------------------------------------------===//
// The worker pool. A launch publishes itself as `job`, bumps `generation`
// and wakes the threads. The grid's linear block indices are split into one
// contiguous range per worker (the launching thread is worker 0): a worker
// takes chunks of its own range from the range's atomic counter, then helps
// with what is left of the others' ranges, and the launching thread waits
// for the others to report done. Contiguous ranges keep concurrently
// running blocks far apart in memory (no cache line written by two workers
// at once, as neighbouring blocks of a transpose would) and give a worker
// the same blocks, and so the same data, launch after launch. The mutex
// hand-offs also publish the blocks' memory writes to the launching
// thread. Before sleeping on a condition variable (a wake-up costs tens of
// microseconds), a thread waiting for the next launch, or the launching
// thread waiting for the others, spins for up to a millisecond: launches
// often come back to back, workers finish together, and a thread that
// spins keeps its core.
// A grid of one block, or a pool of one worker, runs on the launching
// thread alone and never wakes anyone. So does a launch that finds the
// pool busy with another stream's launch: concurrent launches must all
// progress (a kernel may spin until another one has run), so none waits
// for the pool.
//
// Each persistent thread makes its own BlockRunner, so its arena and fiber
// stacks are first touched where they are used. The pool itself lives
// forever; a function-local static stops and joins its threads at exit or
// when the library is unloaded, after which launches run on the caller.
// After fork() the child forgets the parent's threads (they do not exist
// there) and starts its own at its next multi-block launch.
//===----------------------------------------------------------------------===//

#include "WorkerPool.h"
#include "CUDAEmulation.h"
#include "LaunchLocation.h"
#include "Sanitizer.h"
#include "Support.h"

#include "gpumem/Runtime/TargetSelection.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>
#include <thread>

using namespace gpumem::cpu;

namespace {
/// The pool, for the fork handler.
WorkerPool *thePool;

/// Stops the pool's threads when static destructors run.
struct PoolStopper {
  ~PoolStopper() { thePool->shutDown(); }
};

/// Returns once `ready()` holds or `limit` has passed: the wait before
/// sleeping on a condition variable, whose wake-up costs tens of
/// microseconds.
template <typename Ready>
void spinFor(Ready ready, std::chrono::microseconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  do {
    for (int i = 0; i < 64; ++i) {
      if (ready())
        return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      asm volatile("yield");
#endif
    }
  } while (std::chrono::steady_clock::now() < until);
}

/// What a persistent thread starts with.
struct ThreadStart {
  WorkerPool *pool;
  unsigned index;
};
} // namespace

WorkerPool &WorkerPool::get() {
  static WorkerPool *pool = [] {
    thePool = new WorkerPool();
    pthread_atfork(nullptr, nullptr, [] { thePool->forgetThreadsAfterFork(); });
    return thePool;
  }();
  static PoolStopper stopper;
  return *pool;
}

/// A worker that sleeps between launches may be woken onto the launching
/// thread's core and wait there while another core idles (seen in a VM:
/// two workers then ran at one worker's speed in a tenth to a third of
/// the processes). So threads spin for a millisecond around a launch, as
/// OpenMP runtimes do, unless there are more workers than cores to spin on.
static std::chrono::microseconds spinLimitFor(unsigned workers) {
  unsigned cores = std::thread::hardware_concurrency();
  return std::chrono::microseconds(workers <= cores ? 1000 : 50);
}

WorkerPool::WorkerPool()
    : numWorkers(workerCountFromEnvironment()),
      stackBytes(stackBytesFromEnvironment()),
      spinLimit(spinLimitFor(numWorkers)),
      stackBytesAtConfiguration(stackBytes) {}

void WorkerPool::shutDown() {
  std::lock_guard<std::mutex> launchLock(launchMutex);
  stopThreads();
  shutDownDone = true;
}

void WorkerPool::forgetThreadsAfterFork() {
  // The locks may have been held by threads that are gone.
  new (&launchMutex) std::mutex();
  new (&mutex) std::mutex();
  new (&wakeUp) std::condition_variable();
  new (&allDone) std::condition_variable();
  threads.clear();
  job = nullptr;
  busy = 0;
  stopping = false;
}

void WorkerPool::configure(int32_t workers, int64_t bytes) {
  std::lock_guard<std::mutex> launchLock(launchMutex);
  stopThreads();
  callerRunner.reset();
  ranges.reset();
  numWorkers = workers > 0 ? unsigned(workers) : workerCountFromEnvironment();
  spinLimit = spinLimitFor(numWorkers);
  stackBytes = bytes > 0 ? size_t(bytes) : stackBytesFromEnvironment();
  stackBytesAtConfiguration.store(stackBytes, std::memory_order_relaxed);
  configuration.fetch_add(1, std::memory_order_release);
}

namespace {
/// Runs every block of `launch` with `runner`, on the calling thread.
void runAlone(BlockRunner &runner, const LaunchInfo &launch) {
  runner.prepare(launch);
  runner.run(0, launch.numBlocks);
}

/// Sets the calling thread's launch location for as long as it runs
/// blocks of one launch.
struct LocationScope {
  explicit LocationScope(const LaunchInfo &launch) {
    gpumem::runtime::setLaunchLocation(launch.location);
  }
  ~LocationScope() { gpumem::runtime::clearLaunchLocation(); }
};
} // namespace

void WorkerPool::run(const LaunchInfo &launch) {
  LocationScope location(launch);
  std::atomic<bool> assertFailed{false};
  LaunchInfo info = launch;
  info.assertFailed = &assertFailed;
  runBlocks(info);
  reportDeviceSanitizerLog(info.kernel, info.grid, info.block);
  // As on a GPU, the launch fails once its other threads are done.
  if (assertFailed.load(std::memory_order_relaxed))
    reportFailedAssertions(info.kernel);
}

void WorkerPool::runBlocks(const LaunchInfo &launch) {
  std::unique_lock<std::mutex> launchLock(launchMutex, std::try_to_lock);
  if (!launchLock.owns_lock()) {
    // The thread's own runner, made again after a reconfiguration.
    thread_local std::unique_ptr<BlockRunner> ownRunner;
    thread_local uint64_t ownConfiguration = 0;
    uint64_t current = configuration.load(std::memory_order_acquire);
    if (!ownRunner || ownConfiguration != current) {
      ownRunner = std::make_unique<BlockRunner>(
          stackBytesAtConfiguration.load(std::memory_order_relaxed));
      ownConfiguration = current;
    }
    return runAlone(*ownRunner, launch);
  }
  if (!callerRunner)
    callerRunner = std::make_unique<BlockRunner>(stackBytes);
  if (numWorkers == 1 || launch.numBlocks == 1 || shutDownDone)
    return runAlone(*callerRunner, launch);
  if (threads.empty())
    startThreads();
  {
    std::lock_guard<std::mutex> lock(mutex);
    job = &launch;
    // About 16 chunks per worker: few trips to the counters, and still
    // room to balance uneven blocks.
    chunk = std::clamp<int64_t>(launch.numBlocks / (16 * numWorkers), 1, 64);
    if (!ranges)
      ranges = std::make_unique<BlockRange[]>(numWorkers);
    for (unsigned w = 0; w < numWorkers; ++w) {
      ranges[w].next.store(launch.numBlocks * w / numWorkers,
                           std::memory_order_relaxed);
      ranges[w].end = launch.numBlocks * (w + 1) / numWorkers;
    }
    busy = unsigned(threads.size());
    ++generation;
    wakeUp.notify_all();
  }
  takeBlocks(*callerRunner, launch, 0);
  // The others usually finish within microseconds of the caller.
  spinFor([&] { return busy.load(std::memory_order_acquire) == 0; }, spinLimit);
  std::unique_lock<std::mutex> lock(mutex);
  allDone.wait(lock, [&] { return busy == 0; });
  job = nullptr;
}

void WorkerPool::takeBlocks(BlockRunner &runner, const LaunchInfo &launch,
                            unsigned self) {
  bool prepared = false;
  for (unsigned k = 0; k < numWorkers; ++k) {
    BlockRange &range = ranges[(self + k) % numWorkers];
    for (;;) {
      int64_t first = range.next.fetch_add(chunk, std::memory_order_relaxed);
      if (first >= range.end)
        break;
      if (!prepared) {
        runner.prepare(launch);
        prepared = true;
      }
      runner.run(first, std::min(first + chunk, range.end));
    }
  }
}

void WorkerPool::startThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = false;
    // A thread waits for a generation after this one, however late it
    // starts.
    startGeneration = generation;
  }
  threads.reserve(numWorkers - 1);
  for (unsigned i = 1; i < numWorkers; ++i) {
    pthread_t thread;
    // The thread frees it.
    auto *start = new ThreadStart{this, i};
    if (int error = pthread_create(&thread, nullptr, &threadMain, start))
      fatal("cannot start worker thread %u of %u: %s", i, numWorkers,
            std::strerror(error));
    threads.push_back(thread);
  }
}

void WorkerPool::stopThreads() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    wakeUp.notify_all();
  }
  for (pthread_t thread : threads)
    pthread_join(thread, nullptr);
  threads.clear();
}

void *WorkerPool::threadMain(void *start) {
  auto [poolPointer, index] = *static_cast<ThreadStart *>(start);
  delete static_cast<ThreadStart *>(start);
  WorkerPool &pool = *poolPointer;
  pthread_setname_np(pthread_self(), "gpumem-worker");
  BlockRunner runner(pool.stackBytes);
  uint64_t seen = pool.startGeneration;
  for (;;) {
    const LaunchInfo *launch;
    {
      // Launches often come back to back: spin a little before sleeping.
      spinFor(
          [&] {
            return pool.generation.load(std::memory_order_acquire) != seen;
          },
          pool.spinLimit);
      std::unique_lock<std::mutex> lock(pool.mutex);
      pool.wakeUp.wait(
          lock, [&] { return pool.stopping || pool.generation != seen; });
      if (pool.stopping)
        return nullptr;
      seen = pool.generation;
      launch = pool.job;
    }
    {
      LocationScope location(*launch);
      pool.takeBlocks(runner, *launch, index);
    }
    std::lock_guard<std::mutex> lock(pool.mutex);
    if (--pool.busy == 0)
      pool.allDone.notify_one();
  }
}

/// The cpu runtime's device is this machine's cores, always here.
extern "C" int gpumemRuntimeProbe(char *detail, size_t size) {
  snprintf(detail, size, "%u CPU cores", std::thread::hardware_concurrency());
  return GPUMEM_DEVICE_CPU;
}
