//===----------------------------------------------------------------------===//
// One worker's machinery for running the blocks of a launch.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_BLOCKRUNNER_H
#define GPUMEM_RUNTIME_CPU_BLOCKRUNNER_H

#include "DeviceMemoryShadow.h"
#include "FiberSanitizer.h"
#include "FiberStacks.h"
#include "Launch.h"
#include "Sanitizer.h"

#include <boost/context/detail/fcontext.hpp>

#include <csetjmp>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpumem::cpu {

/// Runs blocks on the calling thread. Owns the worker's workgroup arena,
/// thread contexts and fiber stacks, reused across blocks and launches; the
/// runtime services reach it through ctx->scheduler.
class BlockRunner {
public:
  explicit BlockRunner(size_t stackBytes);
  BlockRunner(const BlockRunner &) = delete;
  BlockRunner &operator=(const BlockRunner &) = delete;
  ~BlockRunner();

  /// Sizes the arena, contexts and stacks for `launch`, which must outlive
  /// the following calls to run().
  void prepare(const LaunchInfo &launch);
  /// Runs blocks [first, last) (linear indices, x fastest) of the prepared
  /// launch.
  void run(int64_t first, int64_t last);

  /// services->assertFail and cudaAssertFail: prints CUDA's line, marks
  /// the launch failed and stops the calling thread; the block goes on
  /// with its other threads (in Block mode the program stops at once).
  [[noreturn]] void failAssert(GPUMemThreadContext *ctx, const char *message,
                               const char *file, uint32_t line,
                               const char *function);

  /// services->barrier.
  void barrier(GPUMemThreadContext *ctx, const char *location);
  /// When `address` is in the guard page of one of this runner's fiber
  /// stacks, prints that the running fiber overflowed its stack and ends
  /// the process (exit code 1); otherwise returns. Async-signal-safe.
  void reportOverflow(const void *address) const;
  /// Prints that the kernel crashed with `signal` (at `address`, for
  /// memory faults) in the running thread, with the launch, and ends the
  /// process (exit code 1). Async-signal-safe.
  [[noreturn]] void reportFault(int signal, const void *address) const;

  /// services->shuffle.
  uint64_t shuffle(GPUMemThreadContext *ctx, uint64_t value, int32_t offset,
                   int32_t width, int32_t mode, int32_t *valid,
                   const char *location);

  /// services->barrierSync (PTX's bar.sync with a barrier id and count).
  void barrierSync(GPUMemThreadContext *ctx, int32_t id, int32_t count,
                   const char *location);
  /// services->warpSync (PTX's shfl.sync, vote.sync, redux.sync,
  /// match.sync, bar.warp.sync).
  uint64_t warpSync(GPUMemThreadContext *ctx, int32_t op, uint64_t memberMask,
                    uint64_t value, int32_t b, int32_t c, int32_t *pred,
                    const char *location);

  /// services->coroutineFrame, warpSyncResult, coroutineReturned.
  void *coroutineFrame(GPUMemThreadContext *ctx, int64_t bytes);
  uint64_t warpSyncResult(GPUMemThreadContext *ctx, int32_t *pred);
  void coroutineReturned(GPUMemThreadContext *ctx);

  /// services->argumentCheck (--sanitize's memcheck): each pointer looked
  /// up once per launch on this worker.
  void argumentCheck(GPUMemThreadContext *ctx, const void *pointer,
                     int64_t argument, const char *location);

  /// services->deviceAccess (--sanitize's racecheck and initcheck).
  void deviceAccess(GPUMemThreadContext *ctx, const void *address,
                    int64_t bytes, int32_t flags, const char *what,
                    const char *location);

  /// services->blockPhase (--sanitize's racecheck, fissioned kernels).
  void blockPhase() { epoch.barrier(); }

  /// services->accessError (--sanitize's memcheck): names the memory the
  /// memref views.
  void accessError(GPUMemThreadContext *ctx, const char *what,
                   const char *location, int64_t dim, int64_t index,
                   int64_t size, const void *base);

  /// The addressAccess flags of the launch's checks: memcheck's bounds,
  /// racecheck's races, initcheck's reads of unwritten bytes.
  int32_t addressCheckFlags() const;
  /// services->addressAccess (--sanitize on cuda-emu).
  void addressAccess(GPUMemThreadContext *ctx, const void *address,
                     int64_t bytes, int32_t flags, const char *what,
                     const char *location);

  /// services->sharedAccess (--sanitize's racecheck and initcheck).
  void sharedAccess(GPUMemThreadContext *ctx, const void *address,
                    int64_t bytes, int32_t flags, const char *what,
                    const char *location);

  /// services->asyncCopyIssue, asyncCopyGroup and asyncCopyWaitGroups:
  /// nvgpu's asynchronous copies, queued per thread of the block and
  /// performed at the wait that covers their group (PTXAsyncCopies.cpp).
  void asyncCopyIssue(GPUMemThreadContext *ctx, void *dst, const void *src,
                      int32_t bytes, int32_t srcBytes, const char *location);
  void asyncCopyGroup(GPUMemThreadContext *ctx);
  void asyncCopyWaitGroups(GPUMemThreadContext *ctx, int32_t groups);

private:
  /// One copy in flight and its group (the commits before it).
  struct PendingCopy {
    char *dst;
    const char *src;
    int32_t bytes, srcBytes, group;
    const char *location;
  };
  /// A thread's copies in flight, for the block `key` names.
  struct AsyncQueue {
    uint64_t key = 0;
    int32_t groups = 0;
    std::vector<PendingCopy> copies;
  };
  /// The calling thread's queue, emptied when it belongs to another block.
  AsyncQueue &asyncQueue(const GPUMemThreadContext *ctx);
  /// Performs `copy` for the thread of `ctx`, telling racecheck and
  /// initcheck of its reads and writes.
  void performAsyncCopy(GPUMemThreadContext *ctx, const PendingCopy &copy);
  /// Drops every queued copy (a new block starts under --sanitize).
  void dropAsyncCopies();
  /// racecheck: reports an access that touches a queued copy's
  /// destination, or writes its source.
  void checkAsyncCopies(const GPUMemThreadContext *ctx, const void *address,
                        int64_t bytes, int32_t flags, const char *what,
                        const char *location);
  std::vector<AsyncQueue> asyncQueues;
  /// Copies in the queues, and those a wait is performing.
  size_t queuedCopies = 0;
  std::vector<PendingCopy> performing;

  /// Runs the block with id `blockId` in a mode other than Block (run()
  /// marks the thread as running blocks around it).
  void runBlock(const int64_t blockId[3]);
  using fcontext_t = boost::context::detail::fcontext_t;
  using transfer_t = boost::context::detail::transfer_t;

  enum class State : uint8_t {
    Ready,
    AtBarrier,
    AtShuffle,
    AtNamedBarrier,
    AtWarpSync,
    Done,
    /// Failed an assert: stopped for good, without the checks of a return.
    Trapped
  };

  /// One thread of the block in fiber mode.
  struct Fiber {
    fcontext_t self = nullptr;   ///< where the fiber continues
    fcontext_t caller = nullptr; ///< the scheduler, while the fiber runs
    State state = State::Ready;
    int32_t valid = 0;                       ///< shuffle answer
    int32_t offset = 0, width = 0, mode = 0; ///< shuffle request
    const char *location = nullptr;          ///< where it waits
    uint64_t value = 0;                      ///< shuffle operand, then result
    uint64_t memberMask = 0;                 ///< warpSync request
    void *fakeStack = nullptr; ///< ASan's, while the fiber is switched out
  };

  /// One of PTX's 16 barriers of a block, used with a thread count.
  struct NamedBarrier {
    int32_t count = 0;         ///< threads the barrier waits for
    int32_t warpsComplete = 0; ///< warps whose live lanes all arrived
    const char *location = nullptr;
    std::vector<uint32_t> waiters; ///< fibers parked here
    std::vector<int32_t> arrivedPerWarp;
  };

  /// Counters of one warp in fiber mode.
  struct Warp {
    int32_t live = 0;      ///< lanes not yet returned
    int32_t atBarrier = 0; ///< lanes parked at the block's barrier
    int32_t atShuffle = 0; ///< lanes parked at shuffles
  };

  /// Whether threads of the launch are scheduled (fibers or coroutines).
  bool scheduled() const {
    return launch->mode == BlockMode::Fibers ||
           launch->mode == BlockMode::Coroutines ||
           launch->mode == BlockMode::BarrierCoroutines;
  }
  /// Resets the scheduling state for a new block and queues every thread.
  void startBlock();
  /// Runs the block's threads as fibers or coroutines, round by round.
  void runScheduled();
  /// Runs the block's threads as barriersOnly coroutines.
  void runBarrierCoroutines();
  void resume(uint32_t index);
  /// Waits until the thread is released (fibers; coroutines suspend after
  /// the service returns).
  void park(uint32_t index);
  /// The thread goes on without waiting.
  void goOn(uint32_t index);
  static void fiberMain(transfer_t from);
  /// Switches from fiber `index`, done with its thread, to the scheduler
  /// for good.
  [[noreturn]] void leaveFiber(uint32_t index);
  void threadReturned(uint32_t index);
  /// Takes a thread that failed an assert out of the block's counts; the
  /// barrier or shuffle the others wait at may complete without it.
  void threadTrapped(uint32_t index);
  /// What threadReturned and threadTrapped share: the thread leaves the
  /// live counts, and a barrier or shuffle waiting only for it completes.
  void threadLeft(uint32_t index);
  /// Lanes of the launched kernel's warps (32 or 64).
  uint32_t warpSize() const { return launch->warpSize; }
  /// Whether the kernel's warp operations run over the lanes that reach
  /// them (AMD's EXEC mask) instead of over their member mask.
  bool overArrivedLanes() const {
    return launch->kernel->warpOpsOverArrivedLanes != 0;
  }
  /// With overArrivedLanes: when no lane of `warp` can reach a warp
  /// operation any more (each waits elsewhere or has left) and some wait at
  /// one, completes the one at the earliest location over the lanes there
  /// and releases them (but `continuing`); returns whether `continuing` was
  /// among them.
  bool settleWarp(uint32_t warp, uint32_t continuing);
  /// Whether the kernel was compiled with --sanitize=synccheck.
  bool syncCheck() const {
    return launch->kernel->checks & GPUMEM_CHECK_SYNCCHECK;
  }
  /// Releases the threads waiting at the block's barrier, which thread
  /// `last` completed; a thread of the block that returned instead is a
  /// divergent barrier.
  void releaseBarrier(const GPUMemThreadContext *last);
  /// Reports (synccheck) that lanes [begin, end) of the warp starting at
  /// fiber `first` complete a shuffle without those that returned.
  void reportAbsentLanes(uint32_t first, uint32_t begin, uint32_t end) const;
  /// Completes the shuffle of the first `width` lanes of `warp` when every
  /// live one of them has arrived; returns whether it did.
  bool tryCompleteShuffle(uint32_t warp, uint32_t width, uint32_t continuing);
  /// A lane parked at a shuffle `lane` takes part in (one of the first
  /// `width` lanes), or UINT32_MAX.
  uint32_t shuffleWaitingFor(uint32_t warp, uint32_t lane) const;
  uint32_t indexOf(GPUMemThreadContext *ctx) const;
  /// Stops the program when a lane of the warp of fiber `index` waits for
  /// it at a shuffle or warp-synchronous operation while it reaches the
  /// barrier at `location`.
  void checkNoWarpWaitsFor(GPUMemThreadContext *ctx, uint32_t index,
                           const char *location) const;
  /// Checks the arrival of fiber `index` at a warpSync with `memberMask`.
  void checkWarpSyncArrival(uint32_t index, int32_t op, uint64_t memberMask,
                            const char *location) const;
  /// Computes the results of the warpSync every lane of `memberMask` of
  /// `warp` has reached and releases them (but `continuing`); returns
  /// whether `continuing` was among them.
  bool completeWarpSync(uint32_t warp, uint64_t memberMask,
                        uint32_t continuing);
  /// A lane of `warp` parked at a warpSync whose mask holds `lane`, or
  /// UINT32_MAX.
  uint32_t warpSyncWaitingFor(uint32_t warp, uint32_t lane) const;
  [[noreturn]] void reportStuck() const;
  [[noreturn]] void reportNoFibers(GPUMemThreadContext *ctx, const char *what,
                                   const char *location) const;

  const LaunchInfo *launch = nullptr;
  /// Maps the arena for `bytes` of workgroup memory, between guards.
  void mapArena(const LaunchInfo &info, size_t bytes);
  void unmapArena();
  /// Under --sanitize (`landing`) the arena's guards are readable and
  /// writable: an access there that the checks report lands in them
  /// instead of faulting, and the run goes on; otherwise inaccessible.
  void setArenaLanding(bool landing);
  /// Whether `kernel` was compiled with a check of memory (memcheck,
  /// racecheck or initcheck), not synccheck alone.
  static bool checksMemory(const GPUMemCPUKernel *kernel) {
    return kernel->checks & (GPUMEM_CHECK_MEMCHECK | GPUMEM_CHECK_RACECHECK |
                             GPUMEM_CHECK_INITCHECK);
  }
  /// Whether `address` is in the arena, its redzone, or its guards while
  /// they take accesses (setArenaLanding).
  bool nearArena(uintptr_t address) const;
  /// "byte N of the block's shared memory, which has M bytes" ("N bytes
  /// before ..."), for an access outside the block's shared memory.
  std::string describeOutsideArena(uintptr_t address) const;

  /// Bytes after the arena's capacity that no block uses.
  static constexpr size_t kArenaRedzone = 1024;
  /// Inaccessible bytes before and after the arena (address space only).
  static constexpr size_t kArenaGuard = size_t(16) << 20;
  char *arena = nullptr;
  char *arenaMapping = nullptr;
  size_t arenaMappingBytes = 0;
  bool arenaLanding = false;
  /// What --sanitize knows of the arena's bytes; sized by the first
  /// instrumented access.
  SharedMemoryShadow shadow;
  /// The running block's place in time, for racecheck.
  BlockEpoch epoch;
  /// The ranges of addresses deviceAccess and addressAccess saw last in
  /// this launch, with their shadows: a kernel reads and writes a few
  /// buffers in turn, and findShadowedRange takes the allocations' lock.
  static constexpr unsigned kCachedRanges = 4;
  ShadowedRange deviceRanges[kCachedRanges];
  unsigned nextCachedRange = 0;
  /// The range holding `address`, from deviceRanges or found and kept there.
  const ShadowedRange &rangeOf(const void *address);
  /// Kernel argument pointers argumentCheck looked up in this launch.
  std::vector<std::pair<const void *, bool>> checkedPointers;
  size_t arenaCapacity = 0;
  /// The context of Block and Loop modes.
  GPUMemThreadContext single = {};

  /// Memory of one thread's coroutine frame, reused across blocks.
  struct Frame {
    void *memory = nullptr;
    size_t capacity = 0;
  };

  // Fiber and coroutine modes.
  FiberStacks stacks;
  std::vector<Frame> frames;
  std::vector<void *> handles; ///< coroutine handles, null before start
  std::vector<GPUMemThreadContext> contexts;
  std::vector<Fiber> fibers;
  std::vector<Warp> warps;
  /// Fibers to resume in this round, and those released for the next one.
  std::vector<uint32_t> runQueue, nextQueue;
  std::vector<uint32_t> barrierWaiters;
  int64_t live = 0;    ///< threads not yet returned or trapped
  int64_t trapped = 0; ///< threads that failed an assert
  /// Where a thread that failed an assert jumps to, in Loop and coroutine
  /// modes, and the index in runQueue the round goes on from.
  sigjmp_buf trapPoint;
  size_t round = 0;
  int64_t atBarrier = 0;               ///< == barrierWaiters.size()
  uint32_t firstReturned = UINT32_MAX; ///< the block's first thread to return
  const char *barrierLocation = nullptr;
  NamedBarrier namedBarriers[16];
  int64_t atWarpSync = 0;     ///< fibers parked at warpSync
  int64_t atNamedBarrier = 0; ///< fibers parked at named barriers
  uint32_t current = 0;       ///< the fiber running or being started
  /// For ASan: the scheduler's stack, learned when a fiber first arrives,
  /// and its fake stack while a fiber runs.
  fiber_sanitizer::StackExtent schedulerStack;
  void *schedulerFakeStack = nullptr;
  fiber_sanitizer::StackExtent fiberStack(uint32_t index) const {
    return {static_cast<char *>(stacks.top(index)) - stacks.bytes(),
            stacks.bytes()};
  }
};

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_BLOCKRUNNER_H
