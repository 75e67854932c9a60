//===----------------------------------------------------------------------===//
// CPU runtime: launching kernels. Elementwise runBlocks/runThread kernels
// over multi-block grids with one and several workers, every field of the
// thread context in 3-D grids and blocks (all three ways of running a
// block), barriers and workgroup memory (tree reduction, static + dynamic
// arena layout).
//===----------------------------------------------------------------------===//

#include "CPURuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <pthread.h>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace gpumem_test;

namespace {

/// Restores the environment's worker count after each test.
class CPURuntimeLaunch : public ::testing::Test {
protected:
  void TearDown() override { gpumemCPURuntimeConfigure(0, 0); }
};

void checkSaxpy(const char *kernel, int32_t workers) {
  gpumemCPURuntimeConfigure(workers, 0);
  int64_t n = 10037;
  float a = 0.5f;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = float(2 * i);
  }
  float *xp = x.data(), *yp = y.data();
  intptr_t blocks = (n + 255) / 256;
  launch(kernel, {blocks, 1, 1}, {256, 1, 1}, {&n, &a, &xp, &yp});
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(y[i], 2.5f * float(i)) << kernel << " at " << i;
}

TEST_F(CPURuntimeLaunch, SaxpyRunBlockOneWorker) { checkSaxpy("saxpy", 1); }
TEST_F(CPURuntimeLaunch, SaxpyRunBlockTwoWorkers) { checkSaxpy("saxpy", 2); }
TEST_F(CPURuntimeLaunch, SaxpyRunBlockFourWorkers) { checkSaxpy("saxpy", 4); }
TEST_F(CPURuntimeLaunch, SaxpyRunThreadLoopOneWorker) {
  checkSaxpy("saxpy_loop", 1);
}
TEST_F(CPURuntimeLaunch, SaxpyRunThreadLoopThreeWorkers) {
  checkSaxpy("saxpy_loop", 3);
}

/// saxpy over 40 blocks; true when every value is right.
bool saxpyWorks() {
  int64_t n = 40 * 64;
  float a = 2;
  std::vector<float> x(n, 1.5f), y(n, 1.0f);
  float *xp = x.data(), *yp = y.data();
  launch("saxpy", {40, 1, 1}, {64, 1, 1}, {&n, &a, &xp, &yp});
  return y == std::vector<float>(n, 4.0f);
}

TEST_F(CPURuntimeLaunch, LaunchesInAForkedChild) {
  // The parent's pool threads do not exist in the child of fork(): the
  // child must start its own instead of waiting for them forever.
  gpumemCPURuntimeConfigure(2, 0);
  ASSERT_TRUE(saxpyWorks());
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    alarm(30); // a hang fails the test instead of blocking it
    _exit(saxpyWorks() && saxpyWorks() ? 0 : 2);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(saxpyWorks());
}

TEST_F(CPURuntimeLaunch, ConcurrentLaunchesFromSeveralHostThreads) {
  gpumemCPURuntimeConfigure(2, 0);
  std::vector<int> good(3, 0);
  std::vector<std::thread> hosts;
  for (int h = 0; h < 3; ++h)
    hosts.emplace_back([&good, h] {
      for (int i = 0; i < 20; ++i)
        good[h] += saxpyWorks();
    });
  for (std::thread &host : hosts)
    host.join();
  EXPECT_EQ(good, std::vector<int>(3, 20));
}

TEST_F(CPURuntimeLaunch, OneWorkerRunsEveryBlockOnTheCaller) {
  gpumemCPURuntimeConfigure(1, 0);
  std::vector<uint64_t> ids(12, 0);
  uint64_t *p = ids.data();
  launch("whoami", {3, 2, 2}, {1, 1, 1}, {&p});
  for (uint64_t id : ids)
    EXPECT_EQ(id, uint64_t(pthread_self()));
}

TEST_F(CPURuntimeLaunch, FourWorkersRunFourBlocksAtOnce) {
  gpumemCPURuntimeConfigure(4, 0);
  for (int round = 0; round < 3; ++round) {
    int64_t counter = 0;
    std::vector<uint64_t> ids(4, 0);
    std::vector<int32_t> ok(4, 0);
    uint64_t *idp = ids.data();
    int32_t *okp = ok.data();
    int64_t *counterp = &counter;
    launch("rendezvous", {2, 2, 1}, {1, 1, 1}, {&counterp, &idp, &okp});
    EXPECT_EQ(counter, 4);
    EXPECT_EQ(ok, std::vector<int32_t>(4, 1));
    EXPECT_EQ(std::set<uint64_t>(ids.begin(), ids.end()).size(), 4u);
    EXPECT_EQ(std::count(ids.begin(), ids.end(), uint64_t(pthread_self())), 1);
  }
}

/// Checks the record every thread of "ids*" wrote.
void checkIds(const char *kernel, Dim3 grid, Dim3 block, int32_t smem) {
  int64_t threads = block.x * block.y * block.z;
  int64_t blocks = grid.x * grid.y * grid.z;
  std::vector<int64_t> out(blocks * threads * 14, -1);
  int64_t *p = out.data();
  launch(kernel, grid, block, {&p}, smem);
  for (int64_t bz = 0; bz < grid.z; ++bz)
    for (int64_t by = 0; by < grid.y; ++by)
      for (int64_t bx = 0; bx < grid.x; ++bx)
        for (int64_t tz = 0; tz < block.z; ++tz)
          for (int64_t ty = 0; ty < block.y; ++ty)
            for (int64_t tx = 0; tx < block.x; ++tx) {
              int64_t b = bx + grid.x * (by + grid.y * bz);
              int64_t t = tx + block.x * (ty + block.y * tz);
              const int64_t *r = &out[(b * threads + t) * 14];
              std::vector<int64_t> got(r, r + 14);
              std::vector<int64_t> want = {
                  tx,      ty,      tz,     bx,     by,     bz, block.x,
                  block.y, block.z, grid.x, grid.y, grid.z, 31, smem};
              ASSERT_EQ(got, want)
                  << kernel << " block " << b << " thread " << t;
            }
}

TEST_F(CPURuntimeLaunch, ThreadContext3DRunBlock) {
  checkIds("ids", {3, 2, 2}, {4, 3, 2}, 40);
  gpumemCPURuntimeConfigure(2, 0);
  checkIds("ids", {2, 3, 4}, {2, 1, 5}, 0);
}

TEST_F(CPURuntimeLaunch, ThreadContext3DRunThreadLoop) {
  checkIds("ids_loop", {3, 2, 2}, {4, 3, 2}, 40);
  gpumemCPURuntimeConfigure(2, 0);
  checkIds("ids_loop", {1, 1, 3}, {1, 7, 1}, 8);
}

TEST_F(CPURuntimeLaunch, ThreadContext3DFibers) {
  checkIds("ids_fibers", {3, 2, 2}, {8, 4, 2}, 40);
  gpumemCPURuntimeConfigure(2, 0);
  checkIds("ids_fibers", {2, 1, 2}, {3, 5, 7}, 16);
  // A block of one thread runs without fibers; the barrier still returns.
  checkIds("ids_fibers", {2, 2, 2}, {1, 1, 1}, 0);
}

/// Tree reduction over `blocks` blocks of `threads` values.
void checkReduce(int64_t blocks, int64_t threads) {
  std::vector<int32_t> in(blocks * threads), out(blocks, 0), want(blocks, 0);
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = int32_t(i % 97) - 13;
    want[i / threads] += in[i];
  }
  int32_t *inp = in.data(), *outp = out.data();
  launch("reduce", {blocks, 1, 1}, {threads, 1, 1}, {&inp, &outp});
  EXPECT_EQ(out, want) << threads << " threads";
}

TEST_F(CPURuntimeLaunch, TreeReductionWithBarriersInALoop) {
  std::vector<int32_t> in = {1, 2, 3, 4, 10, 20, 30, 40}, out(2, 0);
  int32_t *inp = in.data(), *outp = out.data();
  launch("reduce", {2, 1, 1}, {4, 1, 1}, {&inp, &outp});
  EXPECT_EQ(out, (std::vector<int32_t>{10, 100}));
  for (int64_t threads : {1024, 2, 256, 64, 1})
    checkReduce(5, threads);
}

TEST_F(CPURuntimeLaunch, TreeReductionSeveralWorkers) {
  gpumemCPURuntimeConfigure(3, 0);
  for (int64_t threads : {64, 1024, 128})
    checkReduce(7, threads);
}

/// Static (20 bytes, rounded to 32) + dynamic workgroup memory.
void checkDynamicShared(int64_t blocks, int64_t threads) {
  int32_t smem = int32_t(threads * 4 + 12);
  std::vector<int64_t> info(blocks * 5, -1);
  std::vector<int32_t> out(blocks * threads, -1);
  int64_t *infop = info.data();
  int32_t *outp = out.data();
  launch("dynshared", {blocks, 1, 1}, {threads, 1, 1}, {&infop, &outp}, smem);
  for (int64_t b = 0; b < blocks; ++b) {
    std::vector<int64_t> record(&info[b * 5], &info[b * 5 + 5]);
    EXPECT_EQ(record, (std::vector<int64_t>{32, smem, 0, 1, 1})) << b;
    for (int64_t t = 0; t < threads; ++t)
      ASSERT_EQ(out[b * threads + t], 10 * ((t + 1) % threads) + b);
  }
}

TEST_F(CPURuntimeLaunch, StaticAndDynamicSharedMemory) {
  checkDynamicShared(3, 64);
  checkDynamicShared(2, 256); // a bigger arena than before
  checkDynamicShared(4, 8);
  gpumemCPURuntimeConfigure(2, 0);
  checkDynamicShared(6, 32);
}

TEST_F(CPURuntimeLaunch, EmptyKernels) {
  launch("empty", {1, 1, 1}, {1, 1, 1});
  launch("empty_fibers", {1, 1, 1}, {1, 1, 1});
  launch("empty", {5, 3, 1}, {1024, 1, 1});
  launch("empty_fibers", {5, 1, 3}, {8, 8, 16});
  gpumemCPURuntimeConfigure(2, 0);
  launch("empty_fibers", {7, 1, 1}, {33, 1, 1});
}

} // namespace
