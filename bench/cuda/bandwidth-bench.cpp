// Bandwidth of a bandwidth-bound kernel with its data provided the ways
// gpumem-host-buffers-to-device provides it (docs/memory.md), against the
// device's own copy bandwidth (bench/cuda/run.sh runs it; figures only,
// nothing is asserted).
//
//   bandwidth-bench GPUMEM_BANDWIDTH.cubin [runs] [MiB]
//
// The kernel is y = 3 x + y over two f32 vectors of MiB (256) MiB each,
// compiled by gpumem's pipeline (bench/cuda/bandwidth.mlir), 256 threads per
// block, one element per thread. It reads and writes 3 x MiB per launch.
// The driver calls are the ones libgpumem_cuda_runtime.so makes for each
// mode of the pass:
//   device-to-device copy  cuMemcpyAsync between two device buffers: the
//                          reference (bytes read + written per second);
//   copy                   cuMemAllocAsync, cuMemcpyAsync from pageable host
//                          memory (memref.alloc is malloc), the kernel,
//                          cuMemcpyAsync back, cuMemFreeAsync; timed end to
//                          end (host clock) and per phase (events), and the
//                          kernel alone on device memory;
//   managed                cuMemAllocManaged(CU_MEM_ATTACH_GLOBAL); the host
//                          writes the data, then the kernel runs (pages
//                          migrate on demand); then a second launch, with
//                          the pages already on the device;
//   managed + prefetch     the same, with cuMemPrefetchAsync of x and y to
//                          the device before the kernel (not a mode of the
//                          pass: what the gpumem.prefetch op is for);
//   register               cuMemHostRegister(CU_MEMHOSTREGISTER_PORTABLE) of
//                          page-aligned host memory; the kernel uses the
//                          host pointers (over PCIe or NVLink-C2C).
// Each case: 2 warm-up runs, then `runs` (10) timed runs; the median is
// printed. Where the host writes the data before a run, that is not timed.
// Every result is checked against y = 1 + k * 3 * (i % 1024) (exact in
// f32); exit status 1 on a mismatch.

#include "cuda-driver.h"
#include "timing.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

using namespace cudrv;

namespace {

CUdevice device;
CUstream stream;
CUfunction axpy;
size_t count = 0; // elements per vector
size_t bytes = 0; // bytes per vector
int runs = 10;
const int kWarmup = 2;
bool failed = false;

/// cuMemPrefetchAsync: the CUDA 12.2+ entry point with a CUmemLocation, else
/// the original one with a device ordinal; null when the driver has neither.
struct MemLocation {
  int type, id;
};
CUresult (*prefetchV2)(CUdeviceptr, size_t, MemLocation, unsigned,
                       CUstream) = nullptr;
CUresult (*prefetchV1)(CUdeviceptr, size_t, CUdevice, CUstream) = nullptr;

void loadPrefetch() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!lib)
    return;
  prefetchV2 = reinterpret_cast<decltype(prefetchV2)>(
      dlsym(lib, "cuMemPrefetchAsync_v2"));
  prefetchV1 =
      reinterpret_cast<decltype(prefetchV1)>(dlsym(lib, "cuMemPrefetchAsync"));
}

void prefetchToDevice(CUdeviceptr p, size_t size) {
  if (prefetchV2)
    CU_CHECK(prefetchV2(
        p, size, MemLocation{CU_MEM_LOCATION_TYPE_DEVICE, device}, 0, stream));
  else
    CU_CHECK(prefetchV1(p, size, device, stream));
}

/// Launches y = 3 x + y; x and y are memref<?xf32> descriptors.
void launch(CUdeviceptr x, CUdeviceptr y) {
  uint64_t values[10] = {x, x, 0, count, 1, y, y, 0, count, 1};
  void *params[10];
  for (int i = 0; i < 10; ++i)
    params[i] = &values[i];
  unsigned blocks = static_cast<unsigned>((count + 255) / 256);
  CU_CHECK(cuLaunchKernel(axpy, blocks, 1, 1, 256, 1, 1, 0, stream, params,
                          nullptr));
}

/// Events around a stretch of stream work: ms between marks.
struct Marks {
  std::vector<CUevent> events;
  explicit Marks(int n) : events(n) {
    for (CUevent &e : events)
      CU_CHECK(cuEventCreate(&e, CU_EVENT_DEFAULT));
  }
  ~Marks() {
    for (CUevent e : events)
      cuEventDestroy(e);
  }
  void mark(int i) { CU_CHECK(cuEventRecord(events[i], stream)); }
  double ms(int from, int to) {
    CU_CHECK(cuEventSynchronize(events[to]));
    float t;
    CU_CHECK(cuEventElapsedTime(&t, events[from], events[to]));
    return t;
  }
};

void fillHost(float *x, float *y) {
  for (size_t i = 0; i < count; ++i) {
    x[i] = static_cast<float>(i % 1024);
    y[i] = 1.0f;
  }
}

/// Checks y after `k` launches since it was last filled.
void check(const char *what, const float *y, int k) {
  for (size_t i = 0; i < count; ++i) {
    float expected =
        1.0f + static_cast<float>(k) * 3.0f * static_cast<float>(i % 1024);
    if (y[i] != expected) {
      fprintf(stderr, "error: %s: y[%zu] = %g, expected %g\n", what, i, y[i],
              expected);
      failed = true;
      return;
    }
  }
}

struct Row {
  std::string path, timed;
  double ms;
  double movedBytes; // bytes the figure counts
};
std::vector<Row> rows;

void add(const std::string &path, const std::string &timed,
         std::vector<double> ms, double moved) {
  rows.push_back({path, timed, median(std::move(ms)), moved});
}

void deviceToDevice() {
  CUdeviceptr a, b;
  CU_CHECK(cuMemAlloc(&a, bytes));
  CU_CHECK(cuMemAlloc(&b, bytes));
  CU_CHECK(cuMemsetD32(a, 0, count));
  CU_CHECK(cuCtxSynchronize());
  Marks m(2);
  std::vector<double> ms;
  for (int r = 0; r < kWarmup + runs; ++r) {
    m.mark(0);
    CU_CHECK(cuMemcpyAsync(b, a, bytes, stream));
    m.mark(1);
    double t = m.ms(0, 1);
    if (r >= kWarmup)
      ms.push_back(t);
  }
  add("device-to-device copy (reference)", "cuMemcpyAsync of one vector", ms,
      2.0 * bytes);
  CU_CHECK(cuMemFree(a));
  CU_CHECK(cuMemFree(b));
}

void copyMode() {
  std::vector<float> x(count), y(count);
  // Kernel alone, data in device memory.
  {
    fillHost(x.data(), y.data());
    CUdeviceptr dx, dy;
    CU_CHECK(cuMemAlloc(&dx, bytes));
    CU_CHECK(cuMemAlloc(&dy, bytes));
    CU_CHECK(cuMemcpyHtoD(dx, x.data(), bytes));
    CU_CHECK(cuMemcpyHtoD(dy, y.data(), bytes));
    Marks m(2);
    std::vector<double> ms;
    for (int r = 0; r < kWarmup + runs; ++r) {
      m.mark(0);
      launch(dx, dy);
      m.mark(1);
      double t = m.ms(0, 1);
      if (r >= kWarmup)
        ms.push_back(t);
    }
    add("copy: kernel on device memory", "kernel", ms, 3.0 * bytes);
    CU_CHECK(cuMemcpyDtoH(y.data(), dy, bytes));
    check("copy, device memory", y.data(), kWarmup + runs);
    CU_CHECK(cuMemFree(dx));
    CU_CHECK(cuMemFree(dy));
  }
  // End to end, as the pass emits it: allocate, copy in, kernel, copy out,
  // free (here on one stream).
  std::vector<double> total, in, kernel, out;
  Marks m(4);
  for (int r = 0; r < kWarmup + runs; ++r) {
    fillHost(x.data(), y.data());
    double t0 = seconds();
    CUdeviceptr dx, dy;
    CU_CHECK(cuMemAllocAsync(&dx, bytes, stream));
    CU_CHECK(cuMemAllocAsync(&dy, bytes, stream));
    m.mark(0);
    CU_CHECK(cuMemcpyAsync(dx, reinterpret_cast<CUdeviceptr>(x.data()), bytes,
                           stream));
    CU_CHECK(cuMemcpyAsync(dy, reinterpret_cast<CUdeviceptr>(y.data()), bytes,
                           stream));
    m.mark(1);
    launch(dx, dy);
    m.mark(2);
    CU_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(y.data()), dy, bytes,
                           stream));
    m.mark(3);
    CU_CHECK(cuMemFreeAsync(dx, stream));
    CU_CHECK(cuMemFreeAsync(dy, stream));
    CU_CHECK(cuStreamSynchronize(stream));
    double t1 = seconds();
    if (r >= kWarmup) {
      total.push_back((t1 - t0) * 1e3);
      in.push_back(m.ms(0, 1));
      kernel.push_back(m.ms(1, 2));
      out.push_back(m.ms(2, 3));
    }
    check("copy, end to end", y.data(), 1);
  }
  add("copy: end to end", "alloc, 2 copies in, kernel, copy out, free", total,
      3.0 * bytes);
  add("copy: copies in", "2 x cuMemcpyAsync host to device (pageable)", in,
      2.0 * bytes);
  add("copy: kernel", "kernel between the copies", kernel, 3.0 * bytes);
  add("copy: copy out", "cuMemcpyAsync device to host (pageable)", out,
      1.0 * bytes);
}

void managedMode(bool prefetch) {
  CUdeviceptr mx, my;
  CU_CHECK(cuMemAllocManaged(&mx, bytes, CU_MEM_ATTACH_GLOBAL));
  CU_CHECK(cuMemAllocManaged(&my, bytes, CU_MEM_ATTACH_GLOBAL));
  float *x = reinterpret_cast<float *>(mx);
  float *y = reinterpret_cast<float *>(my);
  std::vector<double> first, second, moved, afterPrefetch;
  Marks m(4);
  for (int r = 0; r < kWarmup + runs; ++r) {
    fillHost(x, y); // the pages are on the host now
    m.mark(0);
    if (prefetch) {
      prefetchToDevice(mx, bytes);
      prefetchToDevice(my, bytes);
    }
    m.mark(1);
    launch(mx, my);
    m.mark(2);
    launch(mx, my); // pages already on the device
    m.mark(3);
    if (r >= kWarmup) {
      first.push_back(m.ms(0, 2));
      moved.push_back(m.ms(0, 1));
      afterPrefetch.push_back(m.ms(1, 2));
      second.push_back(m.ms(2, 3));
    }
    CU_CHECK(cuStreamSynchronize(stream));
    check(prefetch ? "managed, prefetch" : "managed", y, 2);
  }
  if (prefetch) {
    add("managed + prefetch: end to end", "2 x cuMemPrefetchAsync, kernel",
        first, 3.0 * bytes);
    add("managed + prefetch: prefetch", "2 x cuMemPrefetchAsync to the device",
        moved, 2.0 * bytes);
    add("managed + prefetch: kernel", "kernel after the prefetch",
        afterPrefetch, 3.0 * bytes);
  } else {
    add("managed: first kernel", "kernel, pages migrate on demand", first,
        3.0 * bytes);
    add("managed: next kernel", "kernel, pages already on the device", second,
        3.0 * bytes);
  }
  CU_CHECK(cuMemFree(mx));
  CU_CHECK(cuMemFree(my));
}

void registerMode() {
  int sameAddress = 0;
  CU_CHECK(cuDeviceGetAttribute(
      &sameAddress, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM,
      device));
  if (!sameAddress) {
    fprintf(stderr, "note: the device cannot use host pointers to registered "
                    "memory: register mode does not work here\n");
    rows.push_back({"register: kernel on host memory", "n/a", 0, 0});
    return;
  }
  size_t rounded = (bytes + 4095) / 4096 * 4096;
  float *x = static_cast<float *>(aligned_alloc(4096, rounded));
  float *y = static_cast<float *>(aligned_alloc(4096, rounded));
  CU_CHECK(cuMemHostRegister(x, bytes, CU_MEMHOSTREGISTER_PORTABLE));
  CU_CHECK(cuMemHostRegister(y, bytes, CU_MEMHOSTREGISTER_PORTABLE));
  std::vector<double> ms;
  Marks m(2);
  for (int r = 0; r < kWarmup + runs; ++r) {
    fillHost(x, y);
    m.mark(0);
    launch(reinterpret_cast<CUdeviceptr>(x), reinterpret_cast<CUdeviceptr>(y));
    m.mark(1);
    double t = m.ms(0, 1);
    if (r >= kWarmup)
      ms.push_back(t);
    check("register", y, 1);
  }
  add("register: kernel on host memory", "kernel, host-registered x and y", ms,
      3.0 * bytes);
  CU_CHECK(cuMemHostUnregister(x));
  CU_CHECK(cuMemHostUnregister(y));
  free(x);
  free(y);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GPUMEM_BANDWIDTH.cubin [runs] [MiB]\n", argv[0]);
    return 2;
  }
  if (argc > 2)
    runs = std::max(1, atoi(argv[2]));
  size_t mib = argc > 3 ? static_cast<size_t>(std::max(1, atoi(argv[3]))) : 256;
  bytes = mib << 20;
  count = bytes / sizeof(float);

  device = init();
  loadPrefetch();
  CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUmodule module;
  std::vector<char> cubin;
  if (FILE *f = fopen(argv[1], "rb")) {
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0)
      cubin.insert(cubin.end(), buffer, buffer + n);
    fclose(f);
  } else {
    fprintf(stderr, "error: cannot read %s\n", argv[1]);
    return 1;
  }
  CU_CHECK(cuModuleLoadData(&module, cubin.data()));
  CU_CHECK(cuModuleGetFunction(&axpy, module, "axpy"));
  char name[256] = {0};
  CU_CHECK(cuDeviceGetName(name, sizeof(name), device));
  int concurrentManaged = 0;
  CU_CHECK(cuDeviceGetAttribute(&concurrentManaged,
                                CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
                                device));

  deviceToDevice();
  copyMode();
  managedMode(/*prefetch=*/false);
  if (prefetchV1 || prefetchV2)
    managedMode(/*prefetch=*/true);
  else
    fprintf(stderr, "note: the driver has no cuMemPrefetchAsync\n");
  registerMode();

  printf("%s, %zu MiB per vector, median of %d runs after %d warm-up runs; "
         "concurrent managed access: %s\n\n",
         name, mib, runs, kWarmup, concurrentManaged ? "yes" : "no");
  printf("| data path | timed | ms | GB/s | of device copy |\n");
  printf("|---|---|---|---|---|\n");
  double reference = rows.front().movedBytes / (rows.front().ms * 1e6);
  for (const Row &row : rows) {
    if (row.ms <= 0) {
      printf("| %s | %s | n/a | n/a | n/a |\n", row.path.c_str(),
             row.timed.c_str());
      continue;
    }
    double gbps = row.movedBytes / (row.ms * 1e6);
    printf("| %s | %s | %.3f | %.1f | %.0f%% |\n", row.path.c_str(),
           row.timed.c_str(), row.ms, gbps, 100.0 * gbps / reference);
  }
  printf("\nGB/s: bytes read and written per second (kernel: 3 x the vector "
         "size; device copy: 2 x; copies and prefetches: the bytes moved), "
         "10^9 bytes.\n");
  printf("results: %s\n", failed ? "MISMATCH" : "ok");
  return failed ? 1 : 0;
}
