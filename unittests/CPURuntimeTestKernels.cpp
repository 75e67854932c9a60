//===----------------------------------------------------------------------===//
// Hand-written kernels in the shape gpumem's cpu target compiles them to
// (CPUKernelABI.h): runThread/runBlocks entry points, a GPUMemCPUKernel table
// and the exported GPUMemCPUModule. Built as a MODULE library whose bytes
// the CPU runtime tests pass to mgpuModuleLoad. Compiled with
// GPUMEM_TEST_ABI_VERSION or GPUMEM_TEST_NO_MODULE_SYMBOL it makes the
// malformed modules of the error tests.
//
// params[i] points to the i-th argument, as in mgpuLaunchKernel. Kernels
// are 1-D unless they say otherwise; `t` is the linear thread id.
//===----------------------------------------------------------------------===//

#include "gpumem/Runtime/CPUKernelABI.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef GPUMEM_TEST_ABI_VERSION
#define GPUMEM_TEST_ABI_VERSION GPUMEM_CPU_ABI_VERSION
#endif

namespace {

template <typename T> T arg(void **params, int index) {
  return *static_cast<T *>(params[index]);
}

int64_t linearThread(const GPUMemThreadContext *ctx) {
  return ctx->threadId[0] +
         ctx->blockDim[0] *
             (ctx->threadId[1] + ctx->blockDim[1] * ctx->threadId[2]);
}

int64_t linearBlock(const GPUMemThreadContext *ctx) {
  return ctx->blockId[0] +
         ctx->gridDim[0] *
             (ctx->blockId[1] + ctx->gridDim[1] * ctx->blockId[2]);
}

int64_t threadsPerBlock(const GPUMemThreadContext *ctx) {
  return ctx->blockDim[0] * ctx->blockDim[1] * ctx->blockDim[2];
}

void barrier(GPUMemThreadContext *ctx, const char *location) {
  ctx->services->barrier(ctx, location);
}

uint64_t shuffle(GPUMemThreadContext *ctx, uint64_t value, int32_t offset,
                 int32_t width, int32_t mode, int32_t *valid,
                 const char *location) {
  return ctx->services->shuffle(ctx, value, offset, width, mode, valid,
                                location);
}

/// What a compiled runBlocks does: the blocks first..last-1, x fastest, each
/// run by `Block`.
template <void (*Block)(void **, GPUMemThreadContext *)>
void forEachBlock(void **params, GPUMemThreadContext *ctx, int64_t first,
                  int64_t last) {
  for (int64_t block = first; block < last; ++block) {
    ctx->blockId[0] = block % ctx->gridDim[0];
    ctx->blockId[1] = block / ctx->gridDim[0] % ctx->gridDim[1];
    ctx->blockId[2] = block / (ctx->gridDim[0] * ctx->gridDim[1]);
    Block(params, ctx);
  }
}

/// What a compiled runBlocks does for one block: every thread of it, x
/// fastest.
template <void (*Body)(void **, GPUMemThreadContext *)>
void forEachThread(void **params, GPUMemThreadContext *ctx) {
  for (int64_t z = 0; z < ctx->blockDim[2]; ++z)
    for (int64_t y = 0; y < ctx->blockDim[1]; ++y)
      for (int64_t x = 0; x < ctx->blockDim[0]; ++x) {
        ctx->threadId[0] = x;
        ctx->threadId[1] = y;
        ctx->threadId[2] = z;
        Body(params, ctx);
      }
}

//--- Elementwise -----------------------------------------------------------//

/// saxpy(int64 n, float a, float *x, float *y): y[i] = a * x[i] + y[i].
void saxpy(void **params, GPUMemThreadContext *ctx) {
  int64_t n = arg<int64_t>(params, 0);
  float a = arg<float>(params, 1);
  float *x = arg<float *>(params, 2), *y = arg<float *>(params, 3);
  int64_t i = ctx->blockId[0] * ctx->blockDim[0] + ctx->threadId[0];
  if (i < n)
    y[i] = a * x[i] + y[i];
}

/// saxpy's code for one block, as vectorizable as a compiled one.
void saxpyBlock(void **params, GPUMemThreadContext *ctx) {
  int64_t n = arg<int64_t>(params, 0);
  float a = arg<float>(params, 1);
  float *x = arg<float *>(params, 2), *y = arg<float *>(params, 3);
  int64_t first = ctx->blockId[0] * ctx->blockDim[0];
  int64_t last = first + ctx->blockDim[0] < n ? first + ctx->blockDim[0] : n;
  for (int64_t i = first; i < last; ++i)
    y[i] = a * x[i] + y[i];
}

/// whoami(uint64 *ids): ids[block] = the worker thread that ran it.
void whoami(void **params, GPUMemThreadContext *ctx) {
  arg<uint64_t *>(params, 0)[linearBlock(ctx)] = uint64_t(pthread_self());
}

double seconds() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

/// Waits (up to 10 s) until *counter reaches `expected` after adding 1,
/// then records the thread and whether it got there.
void meet(void **params, GPUMemThreadContext *ctx, int64_t expected) {
  int64_t *counter = arg<int64_t *>(params, 0);
  __atomic_add_fetch(counter, 1, __ATOMIC_SEQ_CST);
  double deadline = seconds() + 10;
  bool met = false;
  while (!(met = __atomic_load_n(counter, __ATOMIC_SEQ_CST) >= expected) &&
         seconds() < deadline)
    sched_yield();
  arg<uint64_t *>(params, 1)[linearBlock(ctx)] = uint64_t(pthread_self());
  arg<int32_t *>(params, 2)[linearBlock(ctx)] = met;
}

/// rendezvous(int64 *counter, uint64 *ids, int32 *ok): every block waits
/// until all blocks of the grid have started, which needs as many workers
/// as blocks.
void rendezvous(void **params, GPUMemThreadContext *ctx) {
  meet(params, ctx, ctx->gridDim[0] * ctx->gridDim[1] * ctx->gridDim[2]);
}

/// rendezvous_pair(int64 *counter, uint64 *ids, int32 *ok): as rendezvous,
/// until two blocks of any launches have started.
void rendezvousPair(void **params, GPUMemThreadContext *ctx) {
  meet(params, ctx, 2);
}

void empty(void **params, GPUMemThreadContext *ctx) {}

//--- Thread and block ids --------------------------------------------------//

constexpr int idsRecord = 14;

/// ids(int64 *out): per thread, in out[(block * threads + t) * 14]:
/// threadId, blockId, blockDim, gridDim, flags, dynamicSharedBytes. The
/// fiber variant writes half before and half after a barrier.
template <bool firstHalf, bool secondHalf>
void recordIds(void **params, GPUMemThreadContext *ctx, const char *name) {
  int64_t *out =
      arg<int64_t *>(params, 0) +
      (linearBlock(ctx) * threadsPerBlock(ctx) + linearThread(ctx)) * idsRecord;
  if (firstHalf)
    for (int d = 0; d < 3; ++d) {
      out[d] = ctx->threadId[d];
      out[3 + d] = ctx->blockId[d];
    }
  if (!secondHalf)
    return;
  for (int d = 0; d < 3; ++d) {
    out[6 + d] = ctx->blockDim[d];
    out[9 + d] = ctx->gridDim[d];
  }
  int64_t flags = 0;
  if (ctx->kernelName && strcmp(ctx->kernelName, name) == 0)
    flags |= 1;
  if (ctx->services && ctx->services->barrier && ctx->services->shuffle &&
      ctx->services->assertFail)
    flags |= 2;
  if (ctx->scheduler)
    flags |= 4;
  if (ctx->sharedMemory && uintptr_t(ctx->sharedMemory) % 16 == 0)
    flags |= 8;
  if (ctx->dynamicSharedMemory == ctx->sharedMemory + 16)
    flags |= 16;
  out[12] = flags;
  out[13] = ctx->dynamicSharedBytes;
}

void ids(void **params, GPUMemThreadContext *ctx) {
  recordIds<true, true>(params, ctx, "ids");
}
void idsLoop(void **params, GPUMemThreadContext *ctx) {
  recordIds<true, true>(params, ctx, "ids_loop");
}
void idsFibers(void **params, GPUMemThreadContext *ctx) {
  recordIds<true, false>(params, ctx, "ids_fibers");
  barrier(ctx, "ids.mlir:4:5");
  recordIds<false, true>(params, ctx, "ids_fibers");
}

//--- Workgroup memory ------------------------------------------------------//

/// reduce(int32 *in, int32 *out): tree reduction of blockDim.x values in
/// static workgroup memory, barriers in a loop; out[block] = the sum.
void reduce(void **params, GPUMemThreadContext *ctx) {
  const int32_t *in = arg<int32_t *>(params, 0);
  int32_t *out = arg<int32_t *>(params, 1);
  int32_t *partial = reinterpret_cast<int32_t *>(ctx->sharedMemory);
  int64_t t = ctx->threadId[0], n = ctx->blockDim[0];
  partial[t] = in[ctx->blockId[0] * n + t];
  barrier(ctx, "reduce.mlir:3:5");
  for (int64_t stride = n / 2; stride > 0; stride /= 2) {
    if (t < stride)
      partial[t] += partial[t + stride];
    barrier(ctx, "reduce.mlir:6:7");
  }
  if (t == 0)
    out[ctx->blockId[0]] = partial[0];
}

/// dynshared(int64 *info, int32 *out): 20 static bytes, then the dynamic
/// part. Thread 0 fills the static part and poisons the whole dynamic part;
/// every thread writes dyn[t] and reads its neighbour's after a barrier.
/// info[block * 5 ...] = dynamic - static start, dynamicSharedBytes,
/// static start % 16, static part intact, last dynamic byte intact.
void dynshared(void **params, GPUMemThreadContext *ctx) {
  int64_t *info = arg<int64_t *>(params, 0);
  int32_t *out = arg<int32_t *>(params, 1);
  int64_t t = ctx->threadId[0], n = ctx->blockDim[0], b = ctx->blockId[0];
  int32_t *fixed = reinterpret_cast<int32_t *>(ctx->sharedMemory);
  int32_t *dyn = reinterpret_cast<int32_t *>(ctx->dynamicSharedMemory);
  if (t == 0) {
    for (int k = 0; k < 5; ++k)
      fixed[k] = int32_t(0x5A000000 + k + b);
    memset(ctx->dynamicSharedMemory, 0xEE, size_t(ctx->dynamicSharedBytes));
  }
  barrier(ctx, "dyn.mlir:2:3");
  dyn[t] = int32_t(10 * t + b);
  barrier(ctx, "dyn.mlir:4:3");
  out[b * n + t] = dyn[(t + 1) % n];
  if (t != 0)
    return;
  bool intact = true;
  for (int k = 0; k < 5; ++k)
    intact &= fixed[k] == int32_t(0x5A000000 + k + b);
  int64_t *record = info + b * 5;
  record[0] = ctx->dynamicSharedMemory - ctx->sharedMemory;
  record[1] = ctx->dynamicSharedBytes;
  record[2] = int64_t(uintptr_t(ctx->sharedMemory) % 16);
  record[3] = intact;
  record[4] =
      uint8_t(ctx->dynamicSharedMemory[ctx->dynamicSharedBytes - 1]) == 0xEE;
}

/// late_barrier(int32 *out): threads 0..15 return at once; the others
/// exchange values through workgroup memory across a barrier, which is
/// divergent (an error, or under synccheck a report and a barrier that
/// completes without them).
void lateBarrier(void **params, GPUMemThreadContext *ctx) {
  int64_t t = ctx->threadId[0], n = ctx->blockDim[0];
  if (t < 16)
    return;
  int32_t *slots = reinterpret_cast<int32_t *>(ctx->sharedMemory);
  slots[t] = int32_t(t * 3);
  barrier(ctx, "late.mlir:5:3");
  arg<int32_t *>(params, 0)[t] = slots[16 + (t - 16 + 1) % (n - 16)];
}

//--- Warp operations -------------------------------------------------------//

uint64_t laneValue(int64_t t) {
  return (uint64_t(t + 1) << 32) | uint64_t(1000 + t);
}

/// shuffle(int32 mode, int32 offset, int32 width, uint64 *out, int32 *valid):
/// out[t] = shuffle(laneValue(t)).
void shuffleKernel(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx);
  int32_t valid = -1;
  uint64_t result = shuffle(ctx, laneValue(t), arg<int32_t>(params, 1),
                            arg<int32_t>(params, 2), arg<int32_t>(params, 0),
                            &valid, "shuffle.mlir:7:11");
  arg<uint64_t *>(params, 3)[t] = result;
  arg<int32_t *>(params, 4)[t] = valid;
}

/// shuffle_returned(uint64 *out, int32 *valid): odd threads return at once;
/// even ones shuffle xor 1 (sources gone) then xor 2 (sources there):
/// out[2t], out[2t+1].
void shuffleReturned(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx);
  uint64_t *out = arg<uint64_t *>(params, 0);
  int32_t *valid = arg<int32_t *>(params, 1);
  if (t % 2)
    return;
  out[2 * t] = shuffle(ctx, laneValue(t), 1, 32, GPUMEM_SHUFFLE_XOR,
                       &valid[2 * t], "returned.mlir:3:9");
  out[2 * t + 1] = shuffle(ctx, laneValue(t), 2, 32, GPUMEM_SHUFFLE_XOR,
                           &valid[2 * t + 1], "returned.mlir:4:9");
}

/// warp_sum(int32 *out): butterfly sum of t + 1 over each warp with
/// shuffles in a loop (adding only valid lanes), warp sums combined through
/// workgroup memory after a barrier; out[block] = the block's sum.
void warpSum(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx);
  int64_t value = t + 1;
  for (int32_t offset = 16; offset > 0; offset /= 2) {
    int32_t valid = 0;
    uint64_t other = shuffle(ctx, uint64_t(value), offset, 32,
                             GPUMEM_SHUFFLE_XOR, &valid, "sum.mlir:3:9");
    if (valid)
      value += int64_t(other);
  }
  int64_t *sums = reinterpret_cast<int64_t *>(ctx->sharedMemory);
  if (t % 32 == 0)
    sums[t / 32] = value;
  barrier(ctx, "sum.mlir:6:3");
  if (t != 0)
    return;
  int64_t total = 0;
  for (int64_t w = 0; w < (threadsPerBlock(ctx) + 31) / 32; ++w)
    total += sums[w];
  arg<int32_t *>(params, 0)[linearBlock(ctx)] = int32_t(total);
}

//--- Errors ----------------------------------------------------------------//

/// Threads 0..15 wait at a barrier, thread 16 returns.
void barrierReturn(void **params, GPUMemThreadContext *ctx) {
  if (ctx->threadId[0] < 16)
    barrier(ctx, "diverge.mlir:4:3");
}

/// Even threads wait at one barrier, odd threads at another.
void barrierMismatch(void **params, GPUMemThreadContext *ctx) {
  if (ctx->threadId[0] % 2 == 0)
    barrier(ctx, "mismatch.mlir:2:3");
  else
    barrier(ctx, "mismatch.mlir:5:3");
}

/// Lanes 0..15 and 16..31 of a warp wait at different shuffles.
void shuffleMismatch(void **params, GPUMemThreadContext *ctx) {
  int32_t valid;
  shuffle(ctx, 1, 1, 32, GPUMEM_SHUFFLE_XOR, &valid,
          ctx->threadId[0] < 16 ? "smismatch.mlir:1:1" : "smismatch.mlir:2:2");
}

/// Lane 0 waits at a barrier, the other lanes of its warp at a shuffle.
void shuffleVsBarrier(void **params, GPUMemThreadContext *ctx) {
  int32_t valid;
  if (ctx->threadId[0] == 0)
    barrier(ctx, "mixed.mlir:3:5");
  else
    shuffle(ctx, 1, 1, 32, GPUMEM_SHUFFLE_XOR, &valid, "mixed.mlir:6:5");
}

/// Lane 0 waits at a shuffle, lane 1 at a barrier.
void barrierVsShuffle(void **params, GPUMemThreadContext *ctx) {
  int32_t valid;
  if (ctx->threadId[0] == 0)
    shuffle(ctx, 1, 1, 32, GPUMEM_SHUFFLE_XOR, &valid, "mixed2.mlir:2:5");
  else
    barrier(ctx, "mixed2.mlir:4:5");
}

/// Threads 3 and 5 of block (1,0,0) fail an assertion; thread 4 of that
/// block says it went on.
void assertKernel(void **params, GPUMemThreadContext *ctx) {
  if (ctx->blockId[0] != 1)
    return;
  if (ctx->threadId[0] == 3 || ctx->threadId[0] == 5)
    ctx->services->assertFail(ctx, "x must be positive", "assert.mlir", 7,
                              "check");
  if (ctx->threadId[0] == 4)
    fprintf(stderr, "thread 4 went on\n");
}

/// Thread 3 fails an assertion before the block's barrier, which the
/// others then pass without it.
void assertBeforeBarrier(void **params, GPUMemThreadContext *ctx) {
  if (ctx->threadId[0] == 3)
    ctx->services->assertFail(ctx, "three", "barrier.mlir", 2, "(unknown)");
  barrier(ctx, "barrier.mlir:3:3");
  if (ctx->threadId[0] == 0)
    fprintf(stderr, "past the barrier\n");
}

/// Marked needsFibers == 0, yet reaches a barrier.
void barrierNoFibers(void **params, GPUMemThreadContext *ctx) {
  barrier(ctx, "nofibers.mlir:2:3");
}

/// shuffle with width 0.
void shuffleBadWidth(void **params, GPUMemThreadContext *ctx) {
  int32_t valid;
  shuffle(ctx, 1, 1, 0, GPUMEM_SHUFFLE_XOR, &valid, "width.mlir:1:1");
}

/// stack_hog(int32 *out): 256 KiB of stack per thread.
void stackHog(void **params, GPUMemThreadContext *ctx) {
  volatile char buffer[256 << 10];
  for (size_t i = 0; i < sizeof(buffer); i += 1024)
    buffer[i] = char(i >> 10);
  int32_t sum = 0;
  for (size_t i = 0; i < sizeof(buffer); i += 1024)
    sum += buffer[i];
  barrier(ctx, "hog.mlir:5:3");
  arg<int32_t *>(params, 0)[linearThread(ctx)] = sum;
}

//--- 64-lane warps (GPUMemCPUKernel::warpSize 64) --------------------------//

/// The lanes of the caller's warp of `size` lanes that exist (the block's
/// last warp may be partial), as a member mask.
uint64_t existingLanes(const GPUMemThreadContext *ctx, int64_t size) {
  int64_t t = linearThread(ctx), first = t - t % size;
  int64_t lanes = threadsPerBlock(ctx) - first;
  if (lanes > size)
    lanes = size;
  return lanes >= 64 ? ~uint64_t(0) : (uint64_t(1) << lanes) - 1;
}

uint64_t warpSync(GPUMemThreadContext *ctx, int32_t op, uint64_t mask,
                  uint64_t value, int32_t b, int32_t *pred,
                  const char *location) {
  return ctx->services->warpSync(ctx, op, mask, value, b, /*c=*/0x1f, pred,
                                 location);
}

/// wave64(uint64 *out): six results per thread t (lane t % 64):
/// out[6t]     SHFL_IDX from lane (lane + 1) % 64 of 1000 + t (a rotation)
/// out[6t + 1] its predicate
/// out[6t + 2] VOTE_BALLOT of t % 3 == 0
/// out[6t + 3] VOTE_ALL of t < 100
/// out[6t + 4] VOTE_ANY of t == 70
/// out[6t + 5] gpu.shuffle xor 32, width 64, of 1000 + t.
void wave64(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx);
  uint64_t *out = arg<uint64_t *>(params, 0) + 6 * t;
  uint64_t mask = existingLanes(ctx, 64);
  int32_t pred = -1;
  out[0] = warpSync(ctx, GPUMEM_WARP_SHFL_IDX, mask, uint64_t(1000 + t),
                    int32_t((t + 1) % 64), &pred, "wave64.mlir:1:1");
  out[1] = uint64_t(pred);
  out[2] = warpSync(ctx, GPUMEM_WARP_VOTE_BALLOT, mask, t % 3 == 0, 0, nullptr,
                    "wave64.mlir:2:1");
  out[3] = warpSync(ctx, GPUMEM_WARP_VOTE_ALL, mask, t < 100, 0, nullptr,
                    "wave64.mlir:3:1");
  out[4] = warpSync(ctx, GPUMEM_WARP_VOTE_ANY, mask, t == 70, 0, nullptr,
                    "wave64.mlir:4:1");
  int32_t valid = -1;
  out[5] = shuffle(ctx, uint64_t(1000 + t), 32, 64, GPUMEM_SHUFFLE_XOR, &valid,
                   "wave64.mlir:5:1");
  if (!valid)
    out[5] = 0;
}

/// wave64_barrier(int32 *out, int32 count): every thread t writes t to
/// shared memory, waits at bar.sync 1 for `count` threads, and reads
/// thread (t + 64) % n's entry into out[t].
void wave64Barrier(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx), n = threadsPerBlock(ctx);
  int32_t *shared = reinterpret_cast<int32_t *>(ctx->sharedMemory);
  shared[t] = int32_t(t);
  ctx->services->barrierSync(ctx, 1, arg<int32_t>(params, 1),
                             "wave64_barrier.mlir:3:3");
  arg<int32_t *>(params, 0)[t] = shared[(t + 64) % n];
}

/// wave64_full_mask(): bar.warp.sync with all 64 lanes in the mask, whether
/// or not the block has them.
void wave64FullMask(void **params, GPUMemThreadContext *ctx) {
  warpSync(ctx, GPUMEM_WARP_SYNC, ~uint64_t(0), 0, 0, nullptr,
           "full_mask.mlir:4:5");
}

//--- Warp operations over the arrived lanes (AMD's EXEC mask) --------------//
// Kernels with GPUMemCPUKernel::warpOpsOverArrivedLanes: the member mask
// names the whole warp, and the operation runs over the lanes that reach it.

/// exec_branch(uint64 *out): four results per thread t (lane t % 32); the
/// first three only from lanes 0..15, which take a branch:
/// out[4t]     SHFL_IDX from lane lane + 1 of 1000 + t (lane 15's source
///             is inactive)
/// out[4t + 1] its predicate
/// out[4t + 2] VOTE_BALLOT of lane % 2 == 0 in the branch
/// out[4t + 3] VOTE_BALLOT of 1 after the branch, where all lanes are.
void execBranch(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx), lane = t % 32;
  uint64_t *out = arg<uint64_t *>(params, 0) + 4 * t;
  uint64_t mask = existingLanes(ctx, 32);
  if (lane < 16) {
    int32_t pred = -1;
    out[0] = warpSync(ctx, GPUMEM_WARP_SHFL_IDX, mask, uint64_t(1000 + t),
                      int32_t(lane + 1), &pred, "exec.mlir:3:5");
    out[1] = uint64_t(pred);
    out[2] = warpSync(ctx, GPUMEM_WARP_VOTE_BALLOT, mask, lane % 2 == 0, 0,
                      nullptr, "exec.mlir:4:5");
  }
  out[3] = warpSync(ctx, GPUMEM_WARP_VOTE_BALLOT, mask, 1, 0, nullptr,
                    "exec.mlir:6:3");
}

/// exec_exit(uint64 *out): lanes 16..31 of each warp return at once; lanes
/// 0..15 of thread t write out[3t] = SHFL_BFLY 1 of 1000 + t, out[3t + 1]
/// = SHFL_IDX from (returned) lane 20, out[3t + 2] its predicate.
void execExit(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx), lane = t % 32;
  if (lane >= 16)
    return;
  uint64_t *out = arg<uint64_t *>(params, 0) + 3 * t;
  uint64_t mask = existingLanes(ctx, 32);
  out[0] = warpSync(ctx, GPUMEM_WARP_SHFL_BFLY, mask, uint64_t(1000 + t), 1,
                    nullptr, "exit.mlir:3:3");
  int32_t pred = -1;
  out[1] = warpSync(ctx, GPUMEM_WARP_SHFL_IDX, mask, uint64_t(1000 + t), 20,
                    &pred, "exit.mlir:4:3");
  out[2] = uint64_t(pred);
}

/// exec_barrier(uint64 *out): thread t writes t to shared memory; lanes
/// 0..7 of each warp shuffle down by 1 (lane 7's source is inactive); then
/// every thread waits at the barrier and writes out[2t] = the shuffle's
/// result (0 where it had none) and out[2t + 1] = thread (t + 1) % n's
/// shared entry.
void execBarrier(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx), n = threadsPerBlock(ctx);
  int32_t *shared = reinterpret_cast<int32_t *>(ctx->sharedMemory);
  shared[t] = int32_t(t);
  uint64_t result = 0;
  if (t % 32 < 8)
    result = warpSync(ctx, GPUMEM_WARP_SHFL_DOWN, existingLanes(ctx, 32),
                      uint64_t(1000 + t), 1, nullptr, "divergent.mlir:4:5");
  barrier(ctx, "divergent.mlir:6:3");
  uint64_t *out = arg<uint64_t *>(params, 0) + 2 * t;
  out[0] = result;
  out[1] = uint64_t(shared[(t + 1) % n]);
}

/// exec_ballot64(uint64 *out), 64-lane warps: lanes with lane % 3 == 0
/// write out[t] = VOTE_BALLOT of lane % 2 == 0 and out[t + n] = VOTE_ALL
/// of t < 1000; the others nothing.
void execBallot64(void **params, GPUMemThreadContext *ctx) {
  int64_t t = linearThread(ctx), n = threadsPerBlock(ctx), lane = t % 64;
  if (lane % 3 != 0)
    return;
  uint64_t *out = arg<uint64_t *>(params, 0);
  uint64_t mask = existingLanes(ctx, 64);
  out[t] = warpSync(ctx, GPUMEM_WARP_VOTE_BALLOT, mask, lane % 2 == 0, 0,
                    nullptr, "ballot.mlir:2:5");
  out[t + n] = warpSync(ctx, GPUMEM_WARP_VOTE_ALL, mask, t < 1000, 0, nullptr,
                        "ballot.mlir:3:5");
}

//--- The module ------------------------------------------------------------//

#define THREAD_ONLY nullptr
/// The bytes of each parameter (GPUMemCPUKernel::paramBytes).
const int32_t saxpyParams[] = {8, 4, 8, 8};
const int32_t shuffleParams[] = {4, 4, 4, 8, 8};
const int32_t pointerParams[] = {8, 8, 8};

const int32_t wave64BarrierParams[] = {8, 4};

/// `kernel` with its parameter sizes.
GPUMemCPUKernel withParams(GPUMemCPUKernel kernel, const int32_t *bytes) {
  kernel.paramBytes = bytes;
  return kernel;
}

/// `kernel` with warp operations over the arrived lanes.
GPUMemCPUKernel overArrivedLanes(GPUMemCPUKernel kernel) {
  kernel.warpOpsOverArrivedLanes = 1;
  return kernel;
}

/// `kernel` with warps of `lanes` lanes.
GPUMemCPUKernel withWarpSize(GPUMemCPUKernel kernel, int32_t lanes) {
  kernel.warpSize = lanes;
  return kernel;
}

const GPUMemCPUKernel kernels[] = {
    // name, runThread, runBlocks, staticSharedBytes, needsFibers, numParams
    withParams({"saxpy", saxpy, forEachBlock<saxpyBlock>, 0, 0, 4},
               saxpyParams),
    withParams({"saxpy_loop", saxpy, THREAD_ONLY, 0, 0, 4}, saxpyParams),
    withParams({"whoami", whoami, forEachBlock<whoami>, 0, 0, 1},
               pointerParams),
    withParams({"rendezvous", rendezvous, forEachBlock<rendezvous>, 0, 0, 3},
               pointerParams),
    {"empty", empty, forEachBlock<empty>, 0, 0, 0},
    {"empty_fibers", empty, THREAD_ONLY, 0, 1, 0},
    {"empty_known",
     empty,
     forEachBlock<empty>,
     0,
     0,
     0,
     nullptr,
     0,
     nullptr,
     nullptr,
     0,
     0,
     nullptr,
     {8, 2, 1}},
    withParams({"rendezvous_pair", rendezvousPair, forEachBlock<rendezvousPair>,
                0, 0, 3},
               pointerParams),
    withParams({"ids", ids, forEachBlock<forEachThread<ids>>, 8, 0, 1},
               pointerParams),
    withParams({"ids_loop", idsLoop, THREAD_ONLY, 8, 0, 1}, pointerParams),
    withParams({"ids_fibers", idsFibers, THREAD_ONLY, 8, 1, 1}, pointerParams),
    withParams({"reduce", reduce, THREAD_ONLY, 1024 * 4, 1, 2}, pointerParams),
    withParams({"dynshared", dynshared, THREAD_ONLY, 20, 1, 2}, pointerParams),
    withParams({"late_barrier", lateBarrier, THREAD_ONLY, 1024 * 4, 1, 1},
               pointerParams),
    {"late_barrier_synccheck", lateBarrier, THREAD_ONLY, 1024 * 4, 1, 1,
     nullptr, 0, nullptr, nullptr, 0, GPUMEM_CHECK_SYNCCHECK, pointerParams},
    withParams({"shuffle", shuffleKernel, THREAD_ONLY, 0, 1, 5}, shuffleParams),
    withParams({"shuffle_returned", shuffleReturned, THREAD_ONLY, 0, 1, 2},
               pointerParams),
    withParams({"warp_sum", warpSum, THREAD_ONLY, 32 * 8, 1, 1}, pointerParams),
    {"barrier_return", barrierReturn, THREAD_ONLY, 0, 1, 0},
    {"barrier_mismatch", barrierMismatch, THREAD_ONLY, 0, 1, 0},
    {"shuffle_mismatch", shuffleMismatch, THREAD_ONLY, 0, 1, 0},
    {"shuffle_vs_barrier", shuffleVsBarrier, THREAD_ONLY, 0, 1, 0},
    {"barrier_vs_shuffle", barrierVsShuffle, THREAD_ONLY, 0, 1, 0},
    {"assert", assertKernel, THREAD_ONLY, 0, 0, 0},
    {"assert_barrier", assertBeforeBarrier, THREAD_ONLY, 0, 1, 0},
    {"barrier_no_fibers", barrierNoFibers, THREAD_ONLY, 0, 0, 0},
    {"shuffle_bad_width", shuffleBadWidth, THREAD_ONLY, 0, 1, 0},
    // 64-lane warps (stack_hog stays last: a test names the last kernel).
    withWarpSize(
        withParams({"wave64", wave64, THREAD_ONLY, 0, 1, 1}, pointerParams),
        64),
    withWarpSize(withParams({"wave64_barrier", wave64Barrier, THREAD_ONLY,
                             1024 * 4, 1, 2},
                            wave64BarrierParams),
                 64),
    withWarpSize(
        withParams({"shuffle_wave64", shuffleKernel, THREAD_ONLY, 0, 1, 5},
                   shuffleParams),
        64),
    withWarpSize({"wave64_full_mask", wave64FullMask, THREAD_ONLY, 0, 1, 0},
                 64),
    withWarpSize({"warp_size_48", empty, THREAD_ONLY, 0, 1, 0}, 48),
    // Warp operations over the arrived lanes.
    overArrivedLanes(withParams(
        {"exec_branch", execBranch, THREAD_ONLY, 0, 1, 1}, pointerParams)),
    overArrivedLanes(withParams({"exec_exit", execExit, THREAD_ONLY, 0, 1, 1},
                                pointerParams)),
    overArrivedLanes(
        withParams({"exec_barrier", execBarrier, THREAD_ONLY, 64 * 4, 1, 1},
                   pointerParams)),
    overArrivedLanes(withWarpSize(
        withParams({"exec_ballot64", execBallot64, THREAD_ONLY, 0, 1, 1},
                   pointerParams),
        64)),
    withParams({"stack_hog", stackHog, THREAD_ONLY, 0, 1, 1}, pointerParams),
};

} // namespace

#ifdef GPUMEM_TEST_NO_MODULE_SYMBOL
#define MODULE_SYMBOL not_the_gpumem_cpu_module
#else
#define MODULE_SYMBOL __gpumem_cpu_module
#endif

extern "C" __attribute__((visibility("default")))
const GPUMemCPUModule MODULE_SYMBOL = {
    GPUMEM_TEST_ABI_VERSION, int32_t(sizeof(kernels) / sizeof(kernels[0])),
    kernels};
