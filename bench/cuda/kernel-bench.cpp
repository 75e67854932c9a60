// Kernel time of gpumem-compiled kernels against nvcc (bench/cuda/run.sh
// runs it; figures only, nothing is asserted).
//
//   kernel-bench NVCC.cubin GPUMEM.cubin [runs]
//
// Loads both cubins with the driver API (libcuda.so.1 through dlopen),
// launches each kernel pair with the same grid and block on one stream:
// 3 warm-up runs, then `runs` (20) timed runs with cuEvent, the two
// variants alternating which goes first. Prints a markdown table of the
// median milliseconds, the ratio gpumem/nvcc (target <= 1.10x), each
// kernel's static shared memory and registers as the driver reports them,
// and whether both results agree with each other and with a host reference;
// then the geomean of the ratios. Exit status 1 when a result mismatches.
//
// Parameters: an nvcc kernel takes raw pointers; a gpumem kernel takes each
// memref<d0 x ... x f32> expanded as the LLVM lowering of gpu.func does:
//   (ptr allocated, ptr aligned, i64 offset, i64 size x rank, i64 stride x
//   rank)
// i.e. matmul 3 x 7 = 21 parameters, reduce 2 x 5 = 10, transpose 2 x 7 = 14.

#include "cuda-driver.h"
#include "timing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

using namespace cudrv;

namespace {

/// The parameter list of one launch: values stored here, `pointers` what
/// cuLaunchKernel takes (one pointer per parameter).
class Params {
public:
  /// A raw device pointer (nvcc kernels).
  Params &pointer(CUdeviceptr p) {
    values.push_back(p);
    return *this;
  }
  /// An expanded row-major memref descriptor (gpumem kernels).
  Params &memref(CUdeviceptr p, std::initializer_list<int64_t> shape) {
    values.push_back(p); // allocated pointer
    values.push_back(p); // aligned pointer
    values.push_back(0); // offset
    for (int64_t size : shape)
      values.push_back(static_cast<uint64_t>(size));
    std::vector<int64_t> strides(shape.size());
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      strides[i] = stride;
      stride *= shape.begin()[i];
    }
    for (int64_t s : strides)
      values.push_back(static_cast<uint64_t>(s));
    return *this;
  }
  void **get() {
    pointers.clear();
    for (uint64_t &v : values)
      pointers.push_back(&v);
    return pointers.data();
  }
  size_t size() const { return values.size(); }

private:
  std::vector<uint64_t> values; // every parameter is 8 bytes
  std::vector<void *> pointers;
};

struct Variant {
  CUfunction function;
  Params params;
  int smem = 0, regs = 0;
};

struct Result {
  std::string name, shape;
  Variant nvcc, gpumem;
  double nvccMs = 0, gpumemMs = 0;
  std::string check;
};

CUstream stream;
int runs = 20;

CUdeviceptr upload(const std::vector<float> &host) {
  CUdeviceptr p;
  CU_CHECK(cuMemAlloc(&p, host.size() * sizeof(float)));
  CU_CHECK(cuMemcpyHtoD(p, host.data(), host.size() * sizeof(float)));
  return p;
}

CUdeviceptr zeros(size_t count) {
  CUdeviceptr p;
  CU_CHECK(cuMemAlloc(&p, count * sizeof(float)));
  CU_CHECK(cuMemsetD32(p, 0, count));
  // The memset is asynchronous on the null stream: finish it before a
  // kernel on `stream` writes the buffer.
  CU_CHECK(cuCtxSynchronize());
  return p;
}

std::vector<float> download(CUdeviceptr p, size_t count) {
  std::vector<float> host(count);
  CU_CHECK(cuMemcpyDtoH(host.data(), p, count * sizeof(float)));
  return host;
}

CUfunction function(CUmodule module, const char *name, int &smem, int &regs) {
  CUfunction f;
  CU_CHECK(cuModuleGetFunction(&f, module, name));
  CU_CHECK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
  CU_CHECK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
  return f;
}

void launch(Variant &v, const unsigned grid[3], const unsigned block[3]) {
  CU_CHECK(cuLaunchKernel(v.function, grid[0], grid[1], grid[2], block[0],
                          block[1], block[2], 0, stream, v.params.get(),
                          nullptr));
}

/// Times `runs` launches of each variant, alternating the order.
void time(Result &r, const unsigned grid[3], const unsigned block[3]) {
  CUevent e[4];
  for (CUevent &event : e)
    CU_CHECK(cuEventCreate(&event, CU_EVENT_DEFAULT));
  for (int i = 0; i < 3; ++i) {
    launch(r.nvcc, grid, block);
    launch(r.gpumem, grid, block);
  }
  CU_CHECK(cuStreamSynchronize(stream));
  std::vector<double> nvcc, gpumem;
  for (int i = 0; i < runs; ++i) {
    Variant *first = i % 2 ? &r.gpumem : &r.nvcc;
    Variant *second = i % 2 ? &r.nvcc : &r.gpumem;
    CU_CHECK(cuEventRecord(e[0], stream));
    launch(*first, grid, block);
    CU_CHECK(cuEventRecord(e[1], stream));
    CU_CHECK(cuEventRecord(e[2], stream));
    launch(*second, grid, block);
    CU_CHECK(cuEventRecord(e[3], stream));
    CU_CHECK(cuEventSynchronize(e[3]));
    float a, b;
    CU_CHECK(cuEventElapsedTime(&a, e[0], e[1]));
    CU_CHECK(cuEventElapsedTime(&b, e[2], e[3]));
    (i % 2 ? gpumem : nvcc).push_back(a);
    (i % 2 ? nvcc : gpumem).push_back(b);
  }
  r.nvccMs = median(nvcc);
  r.gpumemMs = median(gpumem);
  for (CUevent event : e)
    CU_CHECK(cuEventDestroy(event));
}

/// "ok", or what differs: the two variants against each other, then the
/// nvcc result against the host reference at `indices` (all when empty).
std::string compare(const std::vector<float> &nvcc,
                    const std::vector<float> &gpumem,
                    const std::vector<double> &reference,
                    const std::vector<size_t> &indices) {
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < nvcc.size(); ++i)
    if (nvcc[i] != gpumem[i] && differ++ == 0)
      first = i;
  char text[256];
  if (differ) {
    snprintf(text, sizeof(text),
             "mismatch: %zu elements differ, first [%zu] nvcc %g gpumem %g",
             differ, first, nvcc[first], gpumem[first]);
    return text;
  }
  for (size_t k = 0; k < reference.size(); ++k) {
    size_t i = indices.empty() ? k : indices[k];
    if (static_cast<double>(nvcc[i]) != reference[k]) {
      snprintf(text, sizeof(text),
               "mismatch: both differ from the host at [%zu]: %g, expected %g",
               i, nvcc[i], reference[k]);
      return text;
    }
  }
  return "ok";
}

const unsigned kTile = 16;

Result matmul(CUmodule nv, CUmodule gm) {
  const int n = 1024;
  Result r{"matmul", "1024^3 f32, 16x16 tiles", {}, {}, 0, 0, ""};
  // Small integers: every sum is exact in f32, in any order, with or
  // without fma, so the two results must be bit-identical.
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      a[i * n + j] = static_cast<float>((i * 7 + j * 3) % 5 - 2);
      b[i * n + j] = static_cast<float>((i * 5 + j) % 7 - 3);
    }
  CUdeviceptr da = upload(a), db = upload(b);
  CUdeviceptr c1 = zeros(n * n), c2 = zeros(n * n);
  r.nvcc.function = function(nv, "matmul", r.nvcc.smem, r.nvcc.regs);
  r.nvcc.params.pointer(da).pointer(db).pointer(c1);
  r.gpumem.function = function(gm, "matmul", r.gpumem.smem, r.gpumem.regs);
  r.gpumem.params.memref(da, {n, n}).memref(db, {n, n}).memref(c2, {n, n});
  const unsigned grid[3] = {n / kTile, n / kTile, 1};
  const unsigned block[3] = {kTile, kTile, 1};
  launch(r.nvcc, grid, block);
  launch(r.gpumem, grid, block);
  CU_CHECK(cuStreamSynchronize(stream));
  // Host reference on a sample of 4096 elements (the full product is 2^30
  // multiply-adds on the host).
  std::vector<size_t> indices;
  std::vector<double> reference;
  for (size_t s = 0; s < 4096; ++s) {
    size_t i = (s * 2654435761u) % n, j = (s * 40503u + 17) % n;
    double sum = 0;
    for (int k = 0; k < n; ++k)
      sum += static_cast<double>(a[i * n + k]) * b[k * n + j];
    indices.push_back(i * n + j);
    reference.push_back(sum);
  }
  r.check =
      compare(download(c1, n * n), download(c2, n * n), reference, indices);
  time(r, grid, block);
  for (CUdeviceptr p : {da, db, c1, c2})
    CU_CHECK(cuMemFree(p));
  return r;
}

Result reduce(CUmodule nv, CUmodule gm) {
  const int n = 1 << 24, perBlock = 1024, blocks = n / perBlock;
  Result r{"reduce", "2^24 f32, 256 threads, shared tree", {}, {}, 0, 0, ""};
  // Multiples of 1/4 below 3.25: each block's sum is exact in f32.
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>(i % 13) * 0.25f;
  CUdeviceptr dx = upload(x), p1 = zeros(blocks), p2 = zeros(blocks);
  r.nvcc.function = function(nv, "reduce", r.nvcc.smem, r.nvcc.regs);
  r.nvcc.params.pointer(dx).pointer(p1);
  r.gpumem.function = function(gm, "reduce", r.gpumem.smem, r.gpumem.regs);
  r.gpumem.params.memref(dx, {n}).memref(p2, {blocks});
  const unsigned grid[3] = {static_cast<unsigned>(blocks), 1, 1};
  const unsigned block[3] = {256, 1, 1};
  launch(r.nvcc, grid, block);
  launch(r.gpumem, grid, block);
  CU_CHECK(cuStreamSynchronize(stream));
  std::vector<double> reference(blocks, 0.0);
  for (int i = 0; i < n; ++i)
    reference[i / perBlock] += x[i];
  r.check = compare(download(p1, blocks), download(p2, blocks), reference, {});
  time(r, grid, block);
  for (CUdeviceptr p : {dx, p1, p2})
    CU_CHECK(cuMemFree(p));
  return r;
}

Result transpose(CUmodule nv, CUmodule gm) {
  const int n = 4096;
  Result r{"transpose", "4096^2 f32, 16x17 padded tile", {}, {}, 0, 0, ""};
  // in[i][j] = i * 4096 + j < 2^24: every value is exact in f32.
  std::vector<float> in(static_cast<size_t>(n) * n);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i);
  CUdeviceptr din = upload(in);
  CUdeviceptr o1 = zeros(in.size()), o2 = zeros(in.size());
  r.nvcc.function = function(nv, "transpose", r.nvcc.smem, r.nvcc.regs);
  r.nvcc.params.pointer(din).pointer(o1);
  r.gpumem.function = function(gm, "transpose", r.gpumem.smem, r.gpumem.regs);
  r.gpumem.params.memref(din, {n, n}).memref(o2, {n, n});
  const unsigned grid[3] = {n / kTile, n / kTile, 1};
  const unsigned block[3] = {kTile, kTile, 1};
  launch(r.nvcc, grid, block);
  launch(r.gpumem, grid, block);
  CU_CHECK(cuStreamSynchronize(stream));
  std::vector<double> reference(in.size());
  for (size_t i = 0; i < static_cast<size_t>(n); ++i)
    for (size_t j = 0; j < static_cast<size_t>(n); ++j)
      reference[j * n + i] = in[i * n + j];
  r.check =
      compare(download(o1, in.size()), download(o2, in.size()), reference, {});
  time(r, grid, block);
  for (CUdeviceptr p : {din, o1, o2})
    CU_CHECK(cuMemFree(p));
  return r;
}

CUmodule loadCubin(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "error: cannot open %s\n", path);
    exit(1);
  }
  std::vector<char> data;
  char buffer[65536];
  size_t got;
  while ((got = fread(buffer, 1, sizeof(buffer), file)) > 0)
    data.insert(data.end(), buffer, buffer + got);
  fclose(file);
  CUmodule module;
  CUresult result = cuModuleLoadData(&module, data.data());
  if (result != CUDA_SUCCESS)
    fprintf(stderr, "error: cannot load %s\n", path);
  CU_CHECK(result);
  return module;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: kernel-bench NVCC.cubin GPUMEM.cubin [runs]\n");
    return 1;
  }
  if (argc > 3)
    runs = std::max(1, atoi(argv[3]));
  CUdevice device = init();
  char name[256] = {0};
  CU_CHECK(cuDeviceGetName(name, sizeof(name), device));
  int major = 0, minor = 0, driver = 0;
  CU_CHECK(cuDeviceGetAttribute(
      &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_CHECK(cuDeviceGetAttribute(
      &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  CU_CHECK(cuDriverGetVersion(&driver));
  // A blocking stream: ordered after the setup work on the null stream.
  CU_CHECK(cuStreamCreate(&stream, 0));
  CUmodule nv = loadCubin(argv[1]), gm = loadCubin(argv[2]);

  std::vector<Result> results;
  results.push_back(matmul(nv, gm));
  results.push_back(reduce(nv, gm));
  results.push_back(transpose(nv, gm));

  printf("device: %s (sm_%d%d), driver %d.%d; median of %d runs after 3 "
         "warm-up runs, cuEvent timing\n\n",
         name, major, minor, driver / 1000, driver % 1000 / 10, runs);
  printf("| kernel | problem | nvcc (ms) | gpumem (ms) | gpumem/nvcc | "
         "target | smem B nvcc/gpumem | regs nvcc/gpumem | check |\n");
  printf("|---|---|---|---|---|---|---|---|---|\n");
  double logSum = 0;
  bool ok = true;
  for (const Result &r : results) {
    double ratio = r.gpumemMs / r.nvccMs;
    logSum += std::log(ratio);
    ok = ok && r.check == "ok";
    printf("| %s | %s | %.4f | %.4f | %.3fx | <= 1.10x: %s | %d / %d | "
           "%d / %d | %s |\n",
           r.name.c_str(), r.shape.c_str(), r.nvccMs, r.gpumemMs, ratio,
           ratio <= 1.10 ? "met" : "not met", r.nvcc.smem, r.gpumem.smem,
           r.nvcc.regs, r.gpumem.regs, r.check.c_str());
  }
  double geomean = std::exp(logSum / results.size());
  printf("\ngeomean gpumem/nvcc: %.3fx (target <= 1.10x: %s)\n", geomean,
         geomean <= 1.10 ? "met" : "not met");
  return ok ? 0 : 1;
}
