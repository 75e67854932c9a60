//===----------------------------------------------------------------------===//
// gpumem-cpu-runtime-bench: figures for the CPU runtime, printed, never
// asserted. Launch overhead of empty 1-block kernels (runBlocks; fiber
// kernel with one thread; fiber kernel with 32 and 256 threads and a
// reduction with barriers), and the throughput of an elementwise runBlocks
// kernel (saxpy) over 2^24 floats with 1 and 2 workers.
//===----------------------------------------------------------------------===//

#include "CPURuntimeTestSupport.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace gpumem_test;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Seconds per launch of `kernel`, best of 5 runs of `count` launches.
double perLaunch(const char *kernel, Dim3 grid, Dim3 block,
                 std::vector<void *> args, int count) {
  void *function = mgpuModuleGetFunction(testModule(), kernel);
  double best = 1e9;
  for (int run = 0; run < 5; ++run) {
    auto start = Clock::now();
    for (int i = 0; i < count; ++i)
      mgpuLaunchKernel(function, grid.x, grid.y, grid.z, block.x, block.y,
                       block.z, 0, nullptr, args.data(), nullptr, args.size());
    best = std::min(best, since(start) / count);
  }
  return best;
}

} // namespace

int main() {
  gpumemCPURuntimeConfigure(1, 0);
  std::printf("launch overhead, 1 worker (best of 5):\n");
  std::printf("  empty runBlocks kernel, 1 block x 1 thread:   %8.1f ns\n",
              1e9 * perLaunch("empty", {1, 1, 1}, {1, 1, 1}, {}, 1000000));
  std::printf("  empty fiber kernel,    1 block x 1 thread:   %8.1f ns\n",
              1e9 *
                  perLaunch("empty_fibers", {1, 1, 1}, {1, 1, 1}, {}, 1000000));
  std::printf("  empty fiber kernel,    1 block x 32 threads: %8.1f ns\n",
              1e9 *
                  perLaunch("empty_fibers", {1, 1, 1}, {32, 1, 1}, {}, 100000));
  std::vector<int32_t> in(256, 1), out(1, 0);
  int32_t *inp = in.data(), *outp = out.data();
  double reduce =
      perLaunch("reduce", {1, 1, 1}, {256, 1, 1}, {&inp, &outp}, 20000);
  std::printf("  reduce, 1 block x 256 threads, 9 barriers:   %8.1f ns "
              "(%.1f ns per thread per barrier)\n",
              1e9 * reduce, 1e9 * reduce / (256 * 9));
  gpumemCPURuntimeConfigure(2, 0);
  std::printf("  empty runBlocks kernel, 2 workers, 2 blocks:  %8.1f ns\n",
              1e9 * perLaunch("empty", {2, 1, 1}, {1, 1, 1}, {}, 100000));

  int64_t n = int64_t(1) << 24;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  float a = 3;
  float *xp = x.data(), *yp = y.data();
  std::printf("saxpy over 2^24 floats (runBlocks, 12 bytes moved per "
              "element, best of 5):\n");
  for (int32_t workers : {1, 2}) {
    gpumemCPURuntimeConfigure(workers, 0);
    for (intptr_t block : {256, 1024}) {
      double t = perLaunch("saxpy", {(n + block - 1) / block, 1, 1},
                           {block, 1, 1}, {&n, &a, &xp, &yp}, 4);
      std::printf("  %d worker%s, blocks of %4ld: %7.2f ms  %6.2f "
                  "Gelements/s  %6.2f GB/s\n",
                  workers, workers > 1 ? "s" : " ", long(block), 1e3 * t,
                  n / t * 1e-9, 12.0 * n / t * 1e-9);
    }
  }
  gpumemCPURuntimeConfigure(0, 0);
  return 0;
}
