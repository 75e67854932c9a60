//===----------------------------------------------------------------------===//
// CUDA runtime on a real GPU: memory round trips, a PTX kernel JIT-loaded
// through mgpuModuleLoadJIT that writes threadIdx.x (also into managed
// memory, with every prefetch and advice), and a kernel using
// more dynamic shared memory than the 48 KiB default. Each test skips
// itself where there is no driver (libcuda.so.1) or no device, and runs
// its body in a fresh process with GPUMEM_CUDA_DRIVER unset, so the runtime
// loads the real driver whatever other tests of this binary did.
//===----------------------------------------------------------------------===//

#include "CUDARuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <vector>

using namespace gpumem_cuda_test;

namespace {

/// Why the tests cannot run here; empty when they can.
std::string missingDevice() {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver)
    return "no CUDA driver (libcuda.so.1) on this machine";
  using Init = int (*)(unsigned);
  using Count = int (*)(int *);
  auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
  auto count = reinterpret_cast<Count>(dlsym(driver, "cuDeviceGetCount"));
  int devices = 0;
  if (!init || !count || init(0) != 0 || count(&devices) != 0 || devices < 1)
    return "no CUDA device on this machine";
  return "";
}

/// The opt-in shared memory per block of device 0, asked of the driver.
int maxSharedPerBlock() {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  using Attribute = int (*)(int *, int, int);
  auto attribute =
      reinterpret_cast<Attribute>(dlsym(driver, "cuDeviceGetAttribute"));
  int bytes = 0;
  require(attribute && attribute(&bytes, 97, 0) == 0,
          "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN");
  return bytes;
}

class CUDARuntimeDevice : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    std::string missing = missingDevice();
    if (!missing.empty())
      GTEST_SKIP() << missing;
  }
};

/// In the fresh process: the real driver, device 0.
void useRealDriver() {
  unsetenv("GPUMEM_CUDA_DRIVER");
  unsetenv("GPUMEM_CUDA_DEVICE");
}

// out[threadIdx.x] = threadIdx.x, for PTX ISA 6.0 (CUDA 9) and sm_50 or
// newer: the driver JIT-compiles it for whatever the device is.
const char writeThreadIdsPTX[] = R"(.version 6.0
.target sm_50
.address_size 64

.visible .entry write_tid(
	.param .u64 write_tid_param_0
)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [write_tid_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r1;
	ret;
}
)";

// Each thread stores its id at dynamic_shared[offset + tid], waits at a
// barrier, then writes dynamic_shared[offset + ntid - 1 - tid] to out[tid]:
// out is the thread ids reversed, through the top of the dynamic buffer.
const char reverseThroughSharedPTX[] = R"(.version 6.0
.target sm_50
.address_size 64

.extern .shared .align 4 .b8 dynamic_shared[];

.visible .entry reverse_through_shared(
	.param .u64 reverse_through_shared_param_0,
	.param .u32 reverse_through_shared_param_1
)
{
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [reverse_through_shared_param_0];
	ld.param.u32 	%r1, [reverse_through_shared_param_1];
	mov.u32 	%r2, %tid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, dynamic_shared;
	add.s32 	%r5, %r1, %r2;
	shl.b32 	%r6, %r5, 2;
	add.s32 	%r7, %r4, %r6;
	st.shared.u32 	[%r7], %r2;
	bar.sync 	0;
	sub.s32 	%r8, %r3, %r2;
	add.s32 	%r8, %r8, -1;
	add.s32 	%r9, %r1, %r8;
	shl.b32 	%r10, %r9, 2;
	add.s32 	%r10, %r4, %r10;
	ld.shared.u32 	%r11, [%r10];
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r11;
	ret;
}
)";

TEST_F(CUDARuntimeDevice, AllocCopyRoundTrip) {
  EXPECT_IN_FRESH_PROCESS([&] {
    useRealDriver();
    const size_t n = 1 << 18, bytes = n * 4;
    std::vector<uint32_t> pattern(n), back(n, 0);
    for (size_t i = 0; i < n; ++i)
      pattern[i] = uint32_t(i * 2654435761u);
    // Synchronous: host -> device -> device -> host.
    void *a = mgpuMemAlloc(bytes, nullptr, false);
    void *b = mgpuMemAlloc(bytes, nullptr, false);
    mgpuMemcpy(a, pattern.data(), bytes, nullptr);
    mgpuMemcpy(b, a, bytes, nullptr);
    mgpuMemcpy(back.data(), b, bytes, nullptr);
    require(back == pattern, "synchronous round trip");
    mgpuMemset32(b, 0xCAFEF00Du, n, nullptr);
    mgpuMemset16(b, 0x1234, 2, nullptr);
    mgpuMemcpy(back.data(), b, bytes, nullptr);
    require(back[0] == 0x12341234u && back[1] == 0xCAFEF00Du &&
                back[n - 1] == 0xCAFEF00Du,
            "memset16/32");
    // Stream-ordered, with an event between two streams.
    void *stream = mgpuStreamCreate();
    void *other = mgpuStreamCreate();
    void *event = mgpuEventCreate();
    void *c = mgpuMemAlloc(bytes, stream, false);
    mgpuMemset32(c, 7, n, stream);
    mgpuMemcpy(c, a, bytes / 2, stream);
    mgpuEventRecord(event, stream);
    mgpuStreamWaitEvent(other, event);
    std::fill(back.begin(), back.end(), 0);
    mgpuMemcpy(back.data(), c, bytes, other);
    mgpuStreamSynchronize(other);
    mgpuEventSynchronize(event);
    require(std::equal(back.begin(), back.begin() + n / 2, pattern.begin()) &&
                back[n / 2] == 7u && back[n - 1] == 7u,
            "stream-ordered copy and fill");
    mgpuMemFree(c, stream);
    mgpuStreamSynchronize(stream);
    // Managed memory is host-accessible.
    auto *managed = static_cast<uint32_t *>(mgpuMemAlloc(bytes, nullptr, true));
    mgpuMemcpy(managed, a, bytes, nullptr);
    require(std::equal(managed, managed + n, pattern.begin()),
            "managed memory");
    managed[3] = 42;
    mgpuMemcpy(back.data(), managed, 16, nullptr);
    require(back[3] == 42u, "managed memory written by the host");
    // Registered host memory.
    mgpuMemHostRegister(pattern.data(), bytes);
    mgpuMemHostUnregister(pattern.data());
    mgpuMemFree(managed, nullptr);
    mgpuMemFree(a, nullptr);
    mgpuMemFree(b, nullptr);
    mgpuEventDestroy(event);
    mgpuStreamDestroy(other);
    mgpuStreamDestroy(stream);
  });
}

TEST_F(CUDARuntimeDevice, JITKernelWritesThreadIds) {
  EXPECT_IN_FRESH_PROCESS([&] {
    useRealDriver();
    void *module = mgpuModuleLoadJIT(const_cast<char *>(writeThreadIdsPTX), 2);
    void *kernel = mgpuModuleGetFunction(module, "write_tid");
    require(mgpuModuleGetFunction(module, "write_tid") == kernel,
            "cached kernel handle");
    const int threads = 256;
    void *out = mgpuMemAlloc(threads * 4, nullptr, false);
    mgpuMemset32(out, 0xFFFFFFFFu, threads, nullptr);
    void *params[] = {&out};
    mgpuLaunchKernel(kernel, 1, 1, 1, threads, 1, 1, 0, nullptr, params,
                     nullptr, 1);
    std::vector<uint32_t> ids(threads, 0);
    mgpuMemcpy(ids.data(), out, threads * 4, nullptr);
    for (int i = 0; i < threads; ++i)
      require(ids[i] == uint32_t(i), "out[" + std::to_string(i) + "]");
    // Again on a stream.
    void *stream = mgpuStreamCreate();
    mgpuMemset32(out, 0, threads, stream);
    mgpuLaunchKernel(kernel, 1, 1, 1, 100, 1, 1, 0, stream, params, nullptr, 1);
    mgpuMemcpy(ids.data(), out, threads * 4, stream);
    mgpuStreamSynchronize(stream);
    require(ids[99] == 99u && ids[100] == 0u, "launch on a stream");
    mgpuStreamDestroy(stream);
    mgpuMemFree(out, nullptr);
    mgpuModuleUnload(module);
  });
}

TEST_F(CUDARuntimeDevice, ManagedMemoryWithHints) {
  EXPECT_IN_FRESH_PROCESS([&] {
    useRealDriver();
    const int threads = 256;
    auto *managed =
        static_cast<uint32_t *>(mgpuMemAlloc(threads * 4, nullptr, true));
    for (int i = 0; i < threads; ++i)
      managed[i] = 0xFFFFFFFFu;
    for (int32_t advice = 0; advice < GPUMEM_ADVISE_COUNT; ++advice)
      gpumemMemAdvise(managed, threads * 4, advice);
    gpumemMemAdvise(managed, threads * 4,
                    GPUMEM_ADVISE_PREFERRED_LOCATION_DEVICE);
    void *stream = mgpuStreamCreate();
    gpumemMemPrefetch(managed, threads * 4, GPUMEM_PREFETCH_TO_DEVICE, stream);
    void *module = mgpuModuleLoadJIT(const_cast<char *>(writeThreadIdsPTX), 2);
    void *kernel = mgpuModuleGetFunction(module, "write_tid");
    void *out = managed;
    void *params[] = {&out};
    mgpuLaunchKernel(kernel, 1, 1, 1, threads, 1, 1, 0, stream, params, nullptr,
                     1);
    gpumemMemPrefetch(managed, threads * 4, GPUMEM_PREFETCH_TO_HOST, stream);
    mgpuStreamSynchronize(stream);
    for (int i = 0; i < threads; ++i)
      require(managed[i] == uint32_t(i), "the kernel's writes, on the host");
    gpumemMemPrefetch(managed, threads * 4, GPUMEM_PREFETCH_TO_DEVICE, nullptr);
    mgpuModuleUnload(module);
    mgpuStreamDestroy(stream);
    mgpuMemFree(managed, nullptr);
  });
}

TEST_F(CUDARuntimeDevice, DynamicSharedMemoryBeyondTheDefault) {
  EXPECT_IN_FRESH_PROCESS([&] {
    useRealDriver();
    // Up to 96 KiB: above the 48 KiB default where the device allows it.
    const int smem = std::min(maxSharedPerBlock(), 96 << 10);
    const int threads = 256;
    uint32_t offset = uint32_t(smem / 4 - threads);
    void *module =
        mgpuModuleLoadJIT(const_cast<char *>(reverseThroughSharedPTX), 3);
    void *kernel = mgpuModuleGetFunction(module, "reverse_through_shared");
    void *out = mgpuMemAlloc(threads * 4, nullptr, false);
    void *params[] = {&out, &offset};
    for (int repeat = 0; repeat < 2; ++repeat)
      mgpuLaunchKernel(kernel, 1, 1, 1, threads, 1, 1, smem, nullptr, params,
                       nullptr, 2);
    std::vector<uint32_t> values(threads, 0);
    mgpuMemcpy(values.data(), out, threads * 4, nullptr);
    for (int i = 0; i < threads; ++i)
      require(values[i] == uint32_t(threads - 1 - i),
              "out[" + std::to_string(i) + "] with " + std::to_string(smem) +
                  " bytes of dynamic shared memory");
    mgpuMemFree(out, nullptr);
    mgpuModuleUnload(module);
  });
}

TEST_F(CUDARuntimeDevice, TooMuchSharedMemory) {
  EXPECT_EXIT(
      {
        useRealDriver();
        void *module =
            mgpuModuleLoadJIT(const_cast<char *>(reverseThroughSharedPTX), 3);
        void *kernel = mgpuModuleGetFunction(module, "reverse_through_shared");
        mgpuLaunchKernel(kernel, 1, 1, 1, 32, 1, 1, maxSharedPerBlock() + 1,
                         nullptr, nullptr, nullptr, 2);
      },
      ::testing::ExitedWithCode(1),
      R"(^gpumem: error: kernel 'reverse_through_shared' asks for [0-9]+ )"
      R"(bytes of shared memory \(0 static \+ [0-9]+ dynamic\); the device )"
      R"(allows at most [0-9]+ per block
$)");
}

} // namespace
