// bench/pocl/kernels.cl on an OpenCL CPU device (PoCL), with the inputs,
// launch counts and checksums of bench/cpu/*.mlir. Prints
// "<name> <best seconds> <check>" per kernel, as bench/cpu/serial.cpp does;
// the time of a launch is enqueue to clFinish, measured on the host like
// the gpumem programs measure theirs. The thread count is PoCL's
// (POCL_MAX_PTHREAD_COUNT).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static void check(cl_int status, const char *what) {
  if (status != CL_SUCCESS) {
    std::fprintf(stderr, "pocl bench: %s failed (%d)\n", what, status);
    std::exit(1);
  }
}

struct Device {
  cl_context context;
  cl_command_queue queue;
  cl_program program;
};

static Device open(const std::string &source) {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof(name), name, nullptr);
    if (std::string(name).find("Portable Computing Language") ==
        std::string::npos)
      continue;
    cl_device_id device;
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, nullptr),
          "clGetDeviceIDs");
    cl_int status;
    Device d;
    d.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    d.queue = clCreateCommandQueue(d.context, device, 0, &status);
    check(status, "clCreateCommandQueue");
    const char *text = source.c_str();
    d.program =
        clCreateProgramWithSource(d.context, 1, &text, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    if (clBuildProgram(d.program, 1, &device, "-cl-std=CL1.2", nullptr,
                       nullptr) != CL_SUCCESS) {
      char log[8192] = {};
      clGetProgramBuildInfo(d.program, device, CL_PROGRAM_BUILD_LOG,
                            sizeof(log), log, nullptr);
      std::fprintf(stderr, "pocl bench: build failed:\n%s\n", log);
      std::exit(1);
    }
    return d;
  }
  std::fprintf(stderr,
               "pocl bench: no PoCL platform (install pocl-opencl-icd)\n");
  std::exit(1);
}

static cl_mem buffer(Device &d, std::vector<float> &host) {
  cl_int status;
  cl_mem mem =
      clCreateBuffer(d.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                     host.size() * sizeof(float), host.data(), &status);
  check(status, "clCreateBuffer");
  return mem;
}

static void read(Device &d, cl_mem mem, std::vector<float> &host) {
  check(clEnqueueReadBuffer(d.queue, mem, CL_TRUE, 0,
                            host.size() * sizeof(float), host.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
}

/// The best time of `runs` launches of `kernel` over `global` work-items in
/// groups of `local`.
static double launch(Device &d, cl_kernel kernel, int runs, int dims,
                     const size_t *global, const size_t *local) {
  double best = 1e30;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    check(clEnqueueNDRangeKernel(d.queue, kernel, dims, nullptr, global, local,
                                 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    check(clFinish(d.queue), "clFinish");
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}

static cl_kernel kernel(Device &d, const char *name) {
  cl_int status;
  cl_kernel k = clCreateKernel(d.program, name, &status);
  check(status, name);
  return k;
}

int main(int argc, char **argv) {
  std::ifstream file(argc > 1 ? argv[1] : "kernels.cl");
  std::stringstream source;
  source << file.rdbuf();
  Device d = open(source.str());
  {
    const size_t n = 1 << 22;
    std::vector<float> x(n, 1.0f), y(n, 0.0f);
    cl_mem bx = buffer(d, x), by = buffer(d, y);
    cl_kernel k = kernel(d, "elementwise");
    float a = 2.0f;
    clSetKernelArg(k, 0, sizeof(cl_mem), &bx);
    clSetKernelArg(k, 1, sizeof(cl_mem), &by);
    clSetKernelArg(k, 2, sizeof(float), &a);
    size_t global = n, local = 256;
    double t = launch(d, k, 10, 1, &global, &local);
    read(d, by, y);
    std::printf("elementwise %g %g\n", t, y[n - 1]);
  }
  {
    const size_t n = 1 << 22, blocks = 4096;
    std::vector<float> x(n, 1.0f), partial(blocks, 0.0f);
    cl_mem bx = buffer(d, x), bp = buffer(d, partial);
    cl_kernel k = kernel(d, "reduction");
    clSetKernelArg(k, 0, sizeof(cl_mem), &bx);
    clSetKernelArg(k, 1, sizeof(cl_mem), &bp);
    size_t global = blocks * 256, local = 256;
    double t = launch(d, k, 10, 1, &global, &local);
    read(d, bp, partial);
    float total = 0;
    for (float p : partial)
      total += p;
    std::printf("reduction %g %g\n", t, total);
  }
  {
    const size_t n = 256;
    std::vector<float> a(n * n, 1.0f), b(n * n, 1.0f), c(n * n, 0.0f);
    cl_mem ba = buffer(d, a), bb = buffer(d, b), bc = buffer(d, c);
    cl_kernel k = kernel(d, "matmul");
    clSetKernelArg(k, 0, sizeof(cl_mem), &ba);
    clSetKernelArg(k, 1, sizeof(cl_mem), &bb);
    clSetKernelArg(k, 2, sizeof(cl_mem), &bc);
    size_t global[2] = {n, n}, local[2] = {16, 16};
    double t = launch(d, k, 5, 2, global, local);
    read(d, bc, c);
    std::printf("matmul %g %g\n", t, c[n * n - 1]);
  }
  {
    const size_t n = 1024;
    std::vector<float> in(n * n), out(n * n, 0.0f);
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        in[i * n + j] = float(j);
    cl_mem bi = buffer(d, in), bo = buffer(d, out);
    cl_kernel k = kernel(d, "transpose");
    clSetKernelArg(k, 0, sizeof(cl_mem), &bi);
    clSetKernelArg(k, 1, sizeof(cl_mem), &bo);
    size_t global[2] = {n, n}, local[2] = {16, 16};
    double t = launch(d, k, 10, 2, global, local);
    read(d, bo, out);
    std::printf("transpose %g %g\n", t, out[1 * n + 0]);
  }
  return 0;
}
