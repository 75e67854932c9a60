// Launch overhead and allocation throughput of libgpumem_cuda_runtime.so
// against the plain CUDA driver API (bench/cuda/run.sh runs it and prints
// the tables; figures only, nothing is asserted).
//
//   runtime-bench launch plain|mgpu [launches]
//     An empty kernel (PTX below), 1 block x 32 threads, `launches` (100000)
//     launches on one non-blocking stream, then a stream synchronize; median
//     of 5 repetitions after 1000 warm-up launches. Prints
//       launch <path> <submit us/launch> <total us/launch, with the sync>
//     plain: module from cuModuleLoadDataEx, cuLaunchKernel;
//     mgpu:  module from mgpuModuleLoadJIT, mgpuLaunchKernel (same PTX, same
//            JIT options as upstream's mgpuModuleLoadJIT).
//   runtime-bench ptx
//     Prints the empty kernel's PTX (build.sh checks it with ptxas).
//   runtime-bench alloc plain|mgpu
//     Allocate/free pairs of 256 B, 64 KiB (10000 pairs) and 16 MiB (1000
//     pairs), synchronous and stream-ordered. Prints
//       alloc <path> sync|stream <bytes> <pairs> <pairs per second>
//     plain: cuMemAlloc/cuMemFree and cuMemAllocAsync/cuMemFreeAsync;
//     mgpu:  mgpuMemAlloc/mgpuMemFree with a null stream, and with a stream
//            from mgpuStreamCreate (timed up to mgpuStreamSynchronize).
//
// The two paths run in separate processes so that neither inherits the
// other's context or warm caches. Built with -DGPUMEM_NO_RUNTIME (when
// libgpumem_cuda_runtime.so is not built yet) the mgpu paths exit with
// status 2 and say so.

#include "cuda-driver.h"
#include "timing.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#ifndef GPUMEM_NO_RUNTIME
// The mgpu* ABI of libgpumem_cuda_runtime.so (the signatures of
// runtime/cpu/CPURuntime.h, identical for the CUDA runtime).
extern "C" {
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
}
#endif

using namespace cudrv;

namespace {

const char kEmptyPTX[] = ".version 7.8\n"
                         ".target sm_90\n"
                         ".address_size 64\n"
                         "\n"
                         ".visible .entry empty()\n"
                         "{\n"
                         "\tret;\n"
                         "}\n";
// What the offloading translation passes for gpumem's #nvvm.target<O = 3>.
const int kJitOptLevel = 3;
const int kRepetitions = 5;
const int kWarmupLaunches = 1000;

/// The same loop for both paths: `launch()` enqueues one launch, `sync()`
/// waits for the stream. Prints the median submit and total time per launch.
template <typename Launch, typename Sync>
void timeLaunches(const char *path, long launches, Launch launch, Sync sync) {
  for (int i = 0; i < kWarmupLaunches; ++i)
    launch();
  sync();
  std::vector<double> submit, total;
  for (int r = 0; r < kRepetitions; ++r) {
    double t0 = seconds();
    for (long i = 0; i < launches; ++i)
      launch();
    double t1 = seconds();
    sync();
    double t2 = seconds();
    submit.push_back((t1 - t0) * 1e6 / launches);
    total.push_back((t2 - t0) * 1e6 / launches);
  }
  printf("launch %s %.4f %.4f\n", path, median(submit), median(total));
}

void launchPlain(long launches) {
  init();
  CUmodule module;
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {
      log, reinterpret_cast<void *>(sizeof(log)),
      reinterpret_cast<void *>(static_cast<intptr_t>(kJitOptLevel))};
  CUresult loaded = cuModuleLoadDataEx(&module, kEmptyPTX, 3, options, values);
  if (loaded != CUDA_SUCCESS)
    fprintf(stderr, "JIT log: %s\n", log);
  CU_CHECK(loaded);
  CUfunction function;
  CU_CHECK(cuModuleGetFunction(&function, module, "empty"));
  CUstream stream;
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  void *params[1] = {nullptr};
  timeLaunches(
      "plain", launches,
      [&] {
        CU_CHECK(cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, stream, params,
                                nullptr));
      },
      [&] { CU_CHECK(cuStreamSynchronize(stream)); });
  CU_CHECK(cuStreamDestroy(stream));
}

/// The allocation sizes and pair counts both paths measure.
struct AllocCase {
  size_t bytes;
  long pairs;
};
constexpr AllocCase kAllocCases[] = {
    {256, 10000}, {64 << 10, 10000}, {16 << 20, 1000}};

void allocPlain() {
  init();
  CUstream stream;
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  for (const AllocCase &allocCase : kAllocCases) {
    size_t bytes = allocCase.bytes;
    long pairs = allocCase.pairs;
    long warmup = pairs / 100;
    auto sync = [&](long n) {
      for (long i = 0; i < n; ++i) {
        CUdeviceptr p;
        CU_CHECK(cuMemAlloc(&p, bytes));
        CU_CHECK(cuMemFree(p));
      }
    };
    auto ordered = [&](long n) {
      for (long i = 0; i < n; ++i) {
        CUdeviceptr p;
        CU_CHECK(cuMemAllocAsync(&p, bytes, stream));
        CU_CHECK(cuMemFreeAsync(p, stream));
      }
      CU_CHECK(cuStreamSynchronize(stream));
    };
    sync(warmup);
    double t0 = seconds();
    sync(pairs);
    double t1 = seconds();
    printf("alloc plain sync %zu %ld %.1f\n", bytes, pairs, pairs / (t1 - t0));
    ordered(warmup);
    t0 = seconds();
    ordered(pairs);
    t1 = seconds();
    printf("alloc plain stream %zu %ld %.1f\n", bytes, pairs,
           pairs / (t1 - t0));
  }
  CU_CHECK(cuStreamDestroy(stream));
}

#ifndef GPUMEM_NO_RUNTIME
void launchMgpu(long launches) {
  void *module = mgpuModuleLoadJIT(const_cast<char *>(kEmptyPTX), kJitOptLevel);
  void *function = module ? mgpuModuleGetFunction(module, "empty") : nullptr;
  if (!function) {
    fprintf(stderr, "error: mgpuModuleLoadJIT/mgpuModuleGetFunction failed\n");
    exit(1);
  }
  void *stream = mgpuStreamCreate();
  void *params[1] = {nullptr};
  timeLaunches(
      "mgpu", launches,
      [&] {
        mgpuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, stream, params,
                         nullptr, 0);
      },
      [&] { mgpuStreamSynchronize(stream); });
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
}

void allocMgpu() {
  void *stream = mgpuStreamCreate();
  for (const AllocCase &allocCase : kAllocCases) {
    size_t bytes = allocCase.bytes;
    long pairs = allocCase.pairs;
    long warmup = pairs / 100;
    auto run = [&](void *on, long n) {
      for (long i = 0; i < n; ++i) {
        void *p = mgpuMemAlloc(bytes, on, false);
        if (!p) {
          fprintf(stderr, "error: mgpuMemAlloc(%zu) returned null\n", bytes);
          exit(1);
        }
        mgpuMemFree(p, on);
      }
      if (on)
        mgpuStreamSynchronize(on);
    };
    run(nullptr, warmup);
    double t0 = seconds();
    run(nullptr, pairs);
    double t1 = seconds();
    printf("alloc mgpu sync %zu %ld %.1f\n", bytes, pairs, pairs / (t1 - t0));
    run(stream, warmup);
    t0 = seconds();
    run(stream, pairs);
    t1 = seconds();
    printf("alloc mgpu stream %zu %ld %.1f\n", bytes, pairs, pairs / (t1 - t0));
  }
  mgpuStreamDestroy(stream);
}
#endif

int usage() {
  fprintf(stderr, "usage: runtime-bench launch plain|mgpu [launches]\n"
                  "       runtime-bench alloc plain|mgpu\n"
                  "       runtime-bench ptx\n");
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::string(argv[1]) == "ptx") {
    fputs(kEmptyPTX, stdout);
    return 0;
  }
  if (argc < 3)
    return usage();
  std::string what = argv[1], path = argv[2];
  long launches = argc > 3 ? atol(argv[3]) : 100000;
  if (launches <= 0 || (what != "launch" && what != "alloc") ||
      (path != "plain" && path != "mgpu"))
    return usage();
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (path == "plain") {
    if (what == "launch")
      launchPlain(launches);
    else
      allocPlain();
    return 0;
  }
#ifdef GPUMEM_NO_RUNTIME
  fprintf(stderr, "runtime-bench: built without libgpumem_cuda_runtime.so "
                  "(-DGPUMEM_NO_RUNTIME); the mgpu path is not available\n");
  return 2;
#else
  if (what == "launch")
    launchMgpu(launches);
  else
    allocMgpu();
  return 0;
#endif
}
