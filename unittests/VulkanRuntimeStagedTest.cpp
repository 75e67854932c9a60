//===----------------------------------------------------------------------===//
// Vulkan runtime with staged memory, as on a discrete GPU without a
// mappable device-local heap: ctest runs this executable with
// GPUMEM_VULKAN_MEMORY=staged, so that lavapipe's allocations are
// device-local buffers behind inaccessible addresses. Copies in every
// direction, fills, kernels on such memory, host-shared allocations that
// stay mapped, and the errors of copies past an allocation's end.
//===----------------------------------------------------------------------===//

#define GPUMEM_VULKAN_TEST_LEAK_SUPPRESSIONS
#include "VulkanRuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace gpumem_vulkan_test;

namespace {

class VulkanStagedMemory : public ::testing::Test {
protected:
  void SetUp() override {
    const char *mode = std::getenv("GPUMEM_VULKAN_MEMORY");
    if (!mode || std::strcmp(mode, "staged") != 0)
      GTEST_SKIP() << "run with GPUMEM_VULKAN_MEMORY=staged (ctest does)";
    GPUMEM_REQUIRE_VULKAN_DEVICE();
  }
};

TEST_F(VulkanStagedMemory, HostCannotTouchDeviceMemory) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto *device = static_cast<int *>(mgpuMemAlloc(64, nullptr, false));
  auto *shared = static_cast<int *>(mgpuMemAlloc(64, nullptr, true));
  shared[3] = 7; // host-shared memory stays mapped
  EXPECT_EQ(shared[3], 7);
  EXPECT_DEATH(*static_cast<volatile int *>(device) = 1, "");
  mgpuMemFree(device, nullptr);
  mgpuMemFree(shared, nullptr);
}

TEST_F(VulkanStagedMemory, CopiesAndFills) {
  constexpr int n = 1000;
  std::vector<uint32_t> host(n), out(n, 0);
  for (int i = 0; i < n; ++i)
    host[i] = uint32_t(i * 7 + 1);
  auto *a = static_cast<uint32_t *>(mgpuMemAlloc(n * 4, nullptr, false));
  auto *b = static_cast<uint32_t *>(mgpuMemAlloc(n * 4, nullptr, false));
  auto *shared = static_cast<uint32_t *>(mgpuMemAlloc(n * 4, nullptr, true));
  void *stream = mgpuStreamCreate();
  // Host to device; the host's bytes are taken at the call.
  mgpuMemcpy(a, host.data(), n * 4, stream);
  host[0] = 12345;
  // Device to device, into the middle; device to host-shared memory.
  mgpuMemset32(b, 0xabcdabcd, n, stream);
  mgpuMemcpy(b + 100, a + 10, 200 * 4, stream);
  mgpuMemcpy(shared, b, n * 4, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(shared[0], 0xabcdabcdu);
  EXPECT_EQ(shared[99], 0xabcdabcdu);
  EXPECT_EQ(shared[100], uint32_t(10 * 7 + 1));
  EXPECT_EQ(shared[299], uint32_t(209 * 7 + 1));
  EXPECT_EQ(shared[300], 0xabcdabcdu);
  // Device to host, from an offset; a 16-bit fill of an odd count at an
  // odd element.
  mgpuMemset16(reinterpret_cast<uint16_t *>(a) + 3, 0x5a5a, 5, stream);
  mgpuMemcpy(out.data(), a, n * 4, stream);
  EXPECT_EQ(out[0], 1u);
  EXPECT_EQ(out[1], 0x5a5a0000u | uint32_t(1 * 7 + 1));
  EXPECT_EQ(out[2], 0x5a5a5a5au);
  EXPECT_EQ(out[3], 0x5a5a5a5au);
  EXPECT_EQ(out[4], uint32_t(4 * 7 + 1));
  EXPECT_EQ(out[n - 1], uint32_t((n - 1) * 7 + 1));
  mgpuStreamDestroy(stream);
  mgpuMemFree(a, nullptr);
  mgpuMemFree(b, nullptr);
  mgpuMemFree(shared, nullptr);
}

/// c[i] = a[i] + b[i] * s on device-local buffers, with offsets, then read
/// back with a copy.
TEST_F(VulkanStagedMemory, KernelsOnDeviceMemory) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  constexpr int n = 500;
  std::vector<float> ha(n + 8), hb(n), out(n + 8);
  for (int i = 0; i < n + 8; ++i)
    ha[i] = float(i);
  for (int i = 0; i < n; ++i)
    hb[i] = float(3 * i);
  auto *a = static_cast<float *>(mgpuMemAlloc((n + 8) * 4, nullptr, false));
  auto *b = static_cast<float *>(mgpuMemAlloc(n * 4, nullptr, false));
  auto *c = static_cast<float *>(mgpuMemAlloc((n + 8) * 4, nullptr, false));
  mgpuMemcpy(a, ha.data(), (n + 8) * 4, nullptr);
  mgpuMemcpy(b, hb.data(), n * 4, nullptr);
  mgpuMemset32(c, 0, n + 8, nullptr);
  MemRef ma{a, a, 8, n, 1}, mb{b, b, 0, n, 1}, mc{c, c + 4, 0, n, 1};
  float s = 2.0f;
  std::vector<void *> params = addParams(ma, mb, mc, s);
  void *function = mgpuModuleGetFunction(testModule(), "add");
  void *stream = mgpuStreamCreate();
  mgpuLaunchKernel(function, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream,
                   params.data(), nullptr, params.size());
  mgpuMemcpy(out.data(), c, (n + 8) * 4, stream);
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(out[i], 0.0f);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[4 + i], float(8 + i) + float(3 * i) * 2.0f) << i;
  EXPECT_EQ(out[n + 4], 0.0f);
  mgpuStreamDestroy(stream);
  for (float *p : {a, b, c})
    mgpuMemFree(p, nullptr);
}

TEST_F(VulkanStagedMemory, CopyPastTheEndIsAnError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        void *d = mgpuMemAlloc(100, nullptr, false);
        std::vector<char> host(200);
        mgpuMemcpy(host.data(), static_cast<char *>(d) + 50, 60, nullptr);
      },
      ::testing::ExitedWithCode(1),
      "gpumem: error: mgpuMemcpy: the source 0x[0-9a-f]+ has 50 bytes of "
      "device memory from there, not the 60 it needs");
  EXPECT_EXIT(
      {
        void *d = mgpuMemAlloc(64, nullptr, false);
        mgpuMemset32(d, 0, 17, nullptr);
      },
      ::testing::ExitedWithCode(1),
      "gpumem: error: mgpuMemset32: the destination 0x[0-9a-f]+ has 64 bytes "
      "of device memory from there, not the 68 it needs");
}

} // namespace
