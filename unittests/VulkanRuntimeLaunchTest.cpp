//===----------------------------------------------------------------------===//
// Vulkan runtime: kernels run on the machine's Vulkan device (Mesa's
// lavapipe where there is no GPU), with the arguments the host lowering
// passes; memory, copies, fills, streams, events and host registration.
// Skipped where there is no Vulkan device, and the kernel tests where the
// test kernels were not assembled.
//===----------------------------------------------------------------------===//

#define GPUMEM_VULKAN_TEST_LEAK_SUPPRESSIONS
#include "VulkanRuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace gpumem_vulkan_test;

namespace {

TEST(VulkanRuntime, DeviceKind) {
  int kind = gpumemVulkanDeviceKind();
  EXPECT_GE(kind, 0);
  EXPECT_LE(kind, 2);
  EXPECT_EQ(kind, gpumemVulkanDeviceKind());
}

TEST(VulkanRuntime, AllocCopySet) {
  GPUMEM_REQUIRE_VULKAN_DEVICE();
  EXPECT_EQ(mgpuMemAlloc(0, nullptr, false), nullptr);
  auto *a = static_cast<uint32_t *>(mgpuMemAlloc(64 * 4, nullptr, false));
  auto *b = static_cast<uint32_t *>(mgpuMemAlloc(64 * 4, nullptr, true));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  mgpuMemset32(a, 0xdeadbeef, 64, nullptr);
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(a[i], 0xdeadbeefu);
  mgpuMemset16(b, 0x1234, 128, nullptr);
  EXPECT_EQ(b[0], 0x12341234u);
  EXPECT_EQ(b[63], 0x12341234u);
  void *stream = mgpuStreamCreate();
  mgpuMemcpy(b, a, 16 * 4, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(b[15], 0xdeadbeefu);
  EXPECT_EQ(b[16], 0x12341234u);
  mgpuStreamDestroy(stream);
  gpumemMemPrefetch(a, 64, GPUMEM_PREFETCH_TO_DEVICE, nullptr);
  gpumemMemAdvise(a, 64, GPUMEM_ADVISE_READ_MOSTLY);
  mgpuMemFree(a, nullptr);
  mgpuMemFree(b, nullptr);
  mgpuMemFree(nullptr, nullptr);
}

/// Runs add with pointers into the middle of allocations and nonzero
/// memref offsets: c[i] = a[i] + b[i] * s.
TEST(VulkanRuntime, AddWithOffsets) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  void *function = mgpuModuleGetFunction(testModule(), "add");
  EXPECT_EQ(function, mgpuModuleGetFunction(testModule(), "add"));
  constexpr int n = 1000, total = 1200;
  auto *a = static_cast<float *>(mgpuMemAlloc(total * 4, nullptr, false));
  auto *b = static_cast<float *>(mgpuMemAlloc(total * 4, nullptr, false));
  auto *c = static_cast<float *>(mgpuMemAlloc(total * 4, nullptr, false));
  for (int i = 0; i < total; ++i) {
    a[i] = float(i);
    b[i] = float(2 * i);
    c[i] = -1.0f;
  }
  // a: aligned pointer 100 elements in, offset 3 (element 103 first);
  // b: offset 7 from the start; c: pointer 50 in, offset 0.
  MemRef ma{a, a + 100, 3, n, 1}, mb{b, b, 7, n, 1}, mc{c, c + 50, 0, n, 1};
  float s = 0.5f;
  std::vector<void *> params;
  ma.pass(params);
  mb.pass(params);
  mc.pass(params);
  params.push_back(&s);
  void *stream = mgpuStreamCreate();
  mgpuLaunchKernel(function, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream,
                   params.data(), nullptr, params.size());
  mgpuStreamSynchronize(stream);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(c[50 + i], float(103 + i) + float(2 * (7 + i)) * 0.5f)
        << "element " << i;
  EXPECT_EQ(c[49], -1.0f);
  EXPECT_EQ(c[50 + n], -1.0f);

  // A second launch with another block size (another pipeline), ordered
  // after the first on another stream: c += c.
  MemRef same{c, c, 50, n, 1};
  float one = 1.0f;
  params.clear();
  same.pass(params);
  same.pass(params);
  same.pass(params);
  params.push_back(&one);
  void *other = mgpuStreamCreate();
  void *done = mgpuEventCreate();
  mgpuLaunchKernel(function, (n + 31) / 32, 1, 1, 32, 1, 1, 0, other,
                   params.data(), nullptr, params.size());
  mgpuEventRecord(done, other);
  mgpuStreamWaitEvent(stream, done);
  mgpuEventSynchronize(done);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(c[50 + i], 2 * (float(103 + i) + float(2 * (7 + i)) * 0.5f));
  mgpuEventDestroy(done);
  mgpuStreamDestroy(other);
  mgpuStreamDestroy(stream);
  mgpuMemFree(a, nullptr);
  mgpuMemFree(b, nullptr);
  mgpuMemFree(c, nullptr);
}

/// reverse: each block of `block` elements reversed through the dynamic
/// workgroup array (spec constant 3) after a barrier.
TEST(VulkanRuntime, ReverseThroughDynamicShared) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  void *function = mgpuModuleGetFunction(testModule(), "reverse");
  for (int block : {64, 128}) {
    constexpr int n = 1024;
    auto *d = static_cast<int32_t *>(mgpuMemAlloc((n + 4) * 4, nullptr, false));
    for (int i = 0; i < n + 4; ++i)
      d[i] = i;
    MemRef md{d, d + 4, 0, n, 1};
    std::vector<void *> params;
    md.pass(params);
    // Launched on the null stream; the copy out waits for it.
    mgpuLaunchKernel(function, n / block, 1, 1, block, 1, 1, block * 4, nullptr,
                     params.data(), nullptr, params.size());
    std::vector<int32_t> out(n + 4);
    mgpuMemcpy(out.data(), d, (n + 4) * 4, nullptr);
    for (int i = 0; i < 4; ++i)
      ASSERT_EQ(out[i], i);
    for (int i = 0; i < n; ++i) {
      int blockStart = i / block * block;
      ASSERT_EQ(out[4 + i], 4 + blockStart + (block - 1 - (i - blockStart)))
          << "block size " << block << ", element " << i;
    }
    mgpuMemFree(d, nullptr);
  }
}

/// Host memory given to kernels with mgpuMemHostRegisterMemRef.
TEST(VulkanRuntime, RegisteredHostMemory) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  constexpr int n = 300;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n + 10, 0.0f);
  MemRef ma{a.data(), a.data(), 0, n, 1}, mb{b.data(), b.data(), 0, n, 1},
      mc{c.data(), c.data(), 10, n, 1};
  for (MemRef *m : {&ma, &mb, &mc})
    mgpuMemHostRegisterMemRef(1, m, 4);
  float s = 3.0f;
  std::vector<void *> params;
  ma.pass(params);
  mb.pass(params);
  mc.pass(params);
  params.push_back(&s);
  void *function = mgpuModuleGetFunction(testModule(), "add");
  mgpuLaunchKernel(function, 5, 1, 1, 64, 1, 1, 0, nullptr, params.data(),
                   nullptr, params.size());
  mgpuStreamSynchronize(nullptr);
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(c[i], 0.0f);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(c[10 + i], 7.0f) << "element " << i;
  for (MemRef *m : {&ma, &mb, &mc})
    mgpuMemHostUnregisterMemRef(1, m, 4);
}

/// Threads launching on streams of their own at once: each thread's
/// launches double its own buffer (x = x + x * 1) 20 times, which gives
/// x * 2^20 only if each launch sees the writes of the one before.
TEST(VulkanRuntime, ConcurrentStreams) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  void *function = mgpuModuleGetFunction(testModule(), "add");
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      constexpr int n = 256;
      auto *x = static_cast<float *>(mgpuMemAlloc(n * 4, nullptr, false));
      for (int i = 0; i < n; ++i)
        x[i] = float(t + i);
      void *stream = mgpuStreamCreate();
      MemRef mx{x, x, 0, n, 1};
      float one = 1.0f;
      std::vector<void *> params;
      mx.pass(params);
      mx.pass(params);
      mx.pass(params);
      params.push_back(&one);
      for (int k = 0; k < 20; ++k)
        mgpuLaunchKernel(function, n / 64, 1, 1, 64, 1, 1, 0, stream,
                         params.data(), nullptr, params.size());
      mgpuStreamSynchronize(stream);
      for (int i = 0; i < n; ++i)
        failures[t] += x[i] != float(t + i) * float(1 << 20);
      mgpuStreamDestroy(stream);
      mgpuMemFree(x, nullptr);
    });
  for (std::thread &thread : threads)
    thread.join();
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(failures[t], 0) << "thread " << t;
}

/// The null stream is CUDA's legacy default stream: work on it follows the
/// work of every stream before it, and work on a stream follows it; an
/// event recorded on it covers all streams. x = x + x * 1 per launch.
TEST(VulkanRuntime, NullStreamOrdersAllStreams) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  void *function = mgpuModuleGetFunction(testModule(), "add");
  constexpr int n = 128;
  auto *x = static_cast<float *>(mgpuMemAlloc(n * 4, nullptr, false));
  for (int i = 0; i < n; ++i)
    x[i] = float(i);
  MemRef mx{x, x, 0, n, 1};
  float one = 1.0f;
  std::vector<void *> params = addParams(mx, mx, mx, one);
  void *a = mgpuStreamCreate(), *b = mgpuStreamCreate();
  auto launch = [&](void *stream) {
    mgpuLaunchKernel(function, n / 64, 1, 1, 64, 1, 1, 0, stream, params.data(),
                     nullptr, params.size());
  };
  launch(a);       // x * 2
  launch(nullptr); // after a: x * 4
  launch(b);       // after the null stream: x * 8
  void *all = mgpuEventCreate();
  mgpuEventRecord(all, nullptr);
  mgpuEventSynchronize(all);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(x[i], float(i) * 8) << "element " << i;
  launch(b);                      // x * 16
  launch(nullptr);                // after b: x * 32
  mgpuStreamSynchronize(nullptr); // all streams
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(x[i], float(i) * 32) << "element " << i;
  mgpuEventDestroy(all);
  mgpuStreamDestroy(a);
  mgpuStreamDestroy(b);
  mgpuMemFree(x, nullptr);
}

TEST(VulkanRuntime, UnloadAndReload) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  std::vector<uint32_t> image = testImage();
  void *module = mgpuModuleLoad(image.data(), image.size() * 4);
  void *function = mgpuModuleGetFunction(module, "reverse");
  auto *d = static_cast<int32_t *>(mgpuMemAlloc(8 * 4, nullptr, false));
  for (int i = 0; i < 8; ++i)
    d[i] = i;
  MemRef md{d, d, 0, 8, 1};
  std::vector<void *> params;
  md.pass(params);
  mgpuLaunchKernel(function, 1, 1, 1, 8, 1, 1, 8 * 4, nullptr, params.data(),
                   nullptr, params.size());
  // Unloading waits for the launch.
  mgpuModuleUnload(module);
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(d[i], 7 - i);
  mgpuMemFree(d, nullptr);
  mgpuModuleUnload(nullptr);
}

} // namespace
