//===----------------------------------------------------------------------===//
// Vulkan runtime: every error that stops the program, each in a fresh
// process (GoogleTest death tests, re-executed "threadsafe" style so that
// the child starts with a runtime that has loaded nothing), asserting the
// message and exit code 1: no Vulkan driver, malformed images, unknown
// kernels, launches beyond the device's limits, and kernel arguments the
// runtime cannot bind.
//===----------------------------------------------------------------------===//

#include "VulkanRuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

using namespace gpumem_vulkan_test;
using ::testing::ExitedWithCode;

namespace {

class VulkanRuntimeDeathTest : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    unsetenv("GPUMEM_VULKAN_LOADER");
    unsetenv("GPUMEM_VULKAN_DEVICE");
  }
};

void *load(std::vector<uint32_t> image) {
  return mgpuModuleLoad(image.data(), image.size() * 4);
}

/// Launches add with `a` as its first memref's aligned pointer, the others
/// valid, 64 elements; `size` is the memref's size.
void launchAdd(void *a, int64_t size = 64, intptr_t block = 64,
               intptr_t grid = 1) {
  void *function = mgpuModuleGetFunction(load(testImage()), "add");
  void *valid = mgpuMemAlloc(64 * 4, nullptr, false);
  MemRef ma{a, a, 0, size, 1}, mb{valid, valid, 0, 64, 1},
      mc{valid, valid, 0, 64, 1};
  float s = 1;
  std::vector<void *> params;
  ma.pass(params);
  mb.pass(params);
  mc.pass(params);
  params.push_back(&s);
  mgpuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, nullptr, params.data(),
                   nullptr, params.size());
  mgpuStreamSynchronize(nullptr);
}

/// Launches reverse, as `record` describes it, on 64 elements with `smem`
/// bytes of dynamic shared memory.
void launchReverse(int32_t smem, TestKernel record = reverseKernel()) {
  void *function =
      mgpuModuleGetFunction(load(buildImage(testSpirv(), {record})), "reverse");
  void *d = mgpuMemAlloc(256, nullptr, false);
  MemRef md{d, d, 0, 64, 1};
  std::vector<void *> params;
  md.pass(params);
  mgpuLaunchKernel(function, 1, 1, 1, 64, 1, 1, smem, nullptr, params.data(),
                   nullptr, params.size());
  mgpuStreamSynchronize(nullptr);
}

TEST_F(VulkanRuntimeDeathTest, NoDriver) {
  const char *expected =
      R"(^gpumem: error: no Vulkan driver found \(/nonexistent/libvulkan\.so\.1\): )"
      R"(/nonexistent/libvulkan\.so\.1: cannot open shared object file: No )"
      R"(such file or directory
$)";
  EXPECT_EXIT(
      {
        setenv("GPUMEM_VULKAN_LOADER", "/nonexistent/libvulkan.so.1", 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1), expected);
  EXPECT_EXIT(
      {
        setenv("GPUMEM_VULKAN_LOADER", "/nonexistent/libvulkan.so.1", 1);
        mgpuStreamCreate();
      },
      ExitedWithCode(1), expected);
  // The probe never exits: it answers 0.
  EXPECT_EXIT(
      {
        setenv("GPUMEM_VULKAN_LOADER", "/nonexistent/libvulkan.so.1", 1);
        std::exit(gpumemVulkanDeviceKind() == 0 ? 0 : 2);
      },
      ExitedWithCode(0), "^$");
  EXPECT_EXIT(
      {
        setenv("GPUMEM_VULKAN_LOADER", "libc.so.6", 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      "^gpumem: error: the Vulkan loader libc\\.so\\.6 has no "
      "vkGetInstanceProcAddr\n$");
}

TEST_F(VulkanRuntimeDeathTest, BadDeviceIndex) {
  GPUMEM_REQUIRE_VULKAN_DEVICE();
  EXPECT_EXIT(
      {
        setenv("GPUMEM_VULKAN_DEVICE", "99", 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      "^gpumem: error: GPUMEM_VULKAN_DEVICE must be a device index in "
      "0\\.\\.[0-9]+, not '99'\n$");
  EXPECT_EXIT(mgpuSetDefaultDevice(99), ExitedWithCode(1),
              "^gpumem: error: mgpuSetDefaultDevice\\(99\\): no such device");
}

TEST_F(VulkanRuntimeDeathTest, MalformedImage) {
  // Checked before any Vulkan call: no device needed.
  std::vector<uint32_t> spirv = {0x07230203, 0x10300, 0, 10, 0};
  TestKernel plain{"k"};
  const char *prefix = "^gpumem: error: mgpuModuleLoad: malformed Vulkan "
                       "kernel image \\([0-9]+ bytes\\): ";
  auto expectMalformed = [&](std::vector<uint32_t> image, const char *what) {
    EXPECT_EXIT(load(image), ExitedWithCode(1), std::string(prefix) + what)
        << what;
  };
  EXPECT_EXIT(mgpuModuleLoad(nullptr, 0), ExitedWithCode(1),
              "^gpumem: error: mgpuModuleLoad: null module data\n$");
  EXPECT_EXIT(load({1, 2, 3, 4}), ExitedWithCode(1),
              "^gpumem: error: mgpuModuleLoad: not a gpumem Vulkan kernel "
              "image \\(magic 0x00000001, expected 0x4b564d47 \"GMVK\"\\)");
  EXPECT_EXIT(load({GPUMEM_VULKAN_IMAGE_MAGIC, 7, 0, 0}), ExitedWithCode(1),
              "^gpumem: error: mgpuModuleLoad: the Vulkan kernel image has "
              "ABI version 7; this runtime reads version 2\n$");
  expectMalformed({GPUMEM_VULKAN_IMAGE_MAGIC, GPUMEM_VULKAN_ABI_VERSION, 0},
                  "the image header at byte 0 needs 16 bytes, 12 are left");
  expectMalformed(
      {GPUMEM_VULKAN_IMAGE_MAGIC, GPUMEM_VULKAN_ABI_VERSION, 0, 0x40000000},
      "1073741824 SPIR-V words do not fit");
  expectMalformed(
      {GPUMEM_VULKAN_IMAGE_MAGIC, GPUMEM_VULKAN_ABI_VERSION, 0, 1, 0x12345678},
      "the SPIR-V module has no SPIR-V header");
  expectMalformed({GPUMEM_VULKAN_IMAGE_MAGIC, GPUMEM_VULKAN_ABI_VERSION,
                   0xffffffff, 5, 0x07230203, 0x10300, 0, 10, 0},
                  "4294967295 kernel records do not fit");
  // A kernel that is no entry point of the SPIR-V.
  expectMalformed(buildImage(spirv, {plain}),
                  "kernel 'k' is not a GLCompute entry point");
  // After the records: an optional site table, then nothing.
  std::vector<uint32_t> trailing = buildImage(spirv, {});
  trailing.insert(trailing.end(), {0, 0});
  expectMalformed(trailing, "4 bytes follow the site table");
  std::vector<uint32_t> badSite = buildImage(spirv, {});
  badSite.insert(badSite.end(), {1, 9, 0, 0, 0});
  expectMalformed(badSite, "site 0 has unknown kind 9");
  std::vector<uint32_t> badArgument = buildImage(spirv, {});
  badArgument.insert(badArgument.end(),
                     {1, GPUMEM_VULKAN_SITE_PRINTF, 1, 0, 0, 7});
  expectMalformed(badArgument, "site 0 has an argument of unknown kind 7");
  std::vector<uint32_t> longText = buildImage(spirv, {});
  longText.insert(longText.end(), {1, GPUMEM_VULKAN_SITE_ASSERT, 0, 100, 0});
  expectMalformed(longText, "site 0's text of 100 bytes does not fit");
  // A truncated record, and a name running past the end.
  std::vector<uint32_t> truncated = buildImage(spirv, {plain});
  truncated.resize(truncated.size() - 1);
  expectMalformed(truncated, "kernel 0 has a name of 1 bytes");
  std::vector<uint32_t> image = testImage();
  if (image.empty())
    return;
  std::vector<uint32_t> real = testSpirv();
  expectMalformed(buildImage(real, {addKernel(), addKernel()}),
                  "two kernels are named 'add'");
  TestKernel noBuffer = addKernel();
  noBuffer.params[1].kind = GPUMEM_VULKAN_PARAM_INDEX;
  noBuffer.params[1].pushOffset = 60;
  noBuffer.pushConstantBytes = 64;
  expectMalformed(buildImage(real, {noBuffer}),
                  "kernel 'add' parameter 2: the offset of binding 0 must "
                  "follow that binding's buffer parameter, once");
  TestKernel overlap = addKernel();
  overlap.params[15].pushOffset = 44;
  expectMalformed(buildImage(real, {overlap}),
                  "kernel 'add' parameter 15: push constant byte 44 is "
                  "already taken");
  TestKernel outside = addKernel();
  outside.params[15].pushOffset = 56;
  expectMalformed(buildImage(real, {outside}),
                  "kernel 'add' parameter 15: 4 bytes at push constant offset "
                  "56 do not fit");
  TestKernel badKind = addKernel();
  badKind.params[0].kind = 9;
  expectMalformed(buildImage(real, {badKind}),
                  "kernel 'add' parameter 0 has unknown kind 9");
  // Every cut of a valid image is rejected with a message, never a crash.
  for (size_t words = 0; words < image.size(); words += 37)
    EXPECT_EXIT(
        load(std::vector<uint32_t>(image.begin(), image.begin() + words)),
        ExitedWithCode(1), "^gpumem: error: mgpuModuleLoad: ")
        << words << " words";
}

TEST_F(VulkanRuntimeDeathTest, JITIsUnsupported) {
  EXPECT_EXIT(mgpuModuleLoadJIT((void *)".version 8.0", 2), ExitedWithCode(1),
              "^gpumem: error: mgpuModuleLoadJIT: the Vulkan runtime cannot "
              "JIT-compile PTX");
}

TEST_F(VulkanRuntimeDeathTest, MissingKernel) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  EXPECT_EXIT(mgpuModuleGetFunction(load(testImage()), "sub"),
              ExitedWithCode(1),
              "^gpumem: error: mgpuModuleGetFunction: the module has no "
              "kernel 'sub' \\(it has 'add', 'reverse'\\)\n$");
}

TEST_F(VulkanRuntimeDeathTest, BlockTooLarge) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  EXPECT_EXIT(launchAdd(mgpuMemAlloc(256, nullptr, false), 64, 1 << 20),
              ExitedWithCode(1),
              "^gpumem: error: kernel 'add': a block of 1048576 x 1 x 1 "
              "threads exceeds the device's maxComputeWorkGroupSize of "
              "[0-9]+ x [0-9]+ x [0-9]+\n$");
  EXPECT_EXIT(launchAdd(mgpuMemAlloc(256, nullptr, false), 64, 0),
              ExitedWithCode(1),
              "^gpumem: error: kernel 'add': a block of 0 x 1 x 1 threads: "
              "every dimension must be at least 1\n$");
  EXPECT_EXIT(
      launchAdd(mgpuMemAlloc(256, nullptr, false), 64, 64, intptr_t(1) << 40),
      ExitedWithCode(1),
      "^gpumem: error: kernel 'add': a grid of 1099511627776 x 1 x 1 "
      "blocks exceeds the device's maxComputeWorkGroupCount");
}

TEST_F(VulkanRuntimeDeathTest, TooMuchSharedMemory) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  EXPECT_EXIT(
      launchReverse(1 << 30), ExitedWithCode(1),
      "^gpumem: error: kernel 'reverse' asks for 1073741824 bytes of shared "
      "memory \\(0 static \\+ 1073741824 dynamic\\); the device allows at "
      "most [0-9]+ per block \\(maxComputeSharedMemorySize\\)\n$");
}

TEST_F(VulkanRuntimeDeathTest, TooManyPushConstants) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  // Static shared memory counts too.
  TestKernel bigShared = reverseKernel();
  bigShared.staticSharedBytes = 1 << 30;
  EXPECT_EXIT(
      launchReverse(0, bigShared), ExitedWithCode(1),
      "^gpumem: error: kernel 'reverse' asks for 1073741828 bytes of shared "
      "memory \\(1073741824 static \\+ 4 dynamic\\)");
  TestKernel bigPush = reverseKernel();
  bigPush.pushConstantBytes = 60000;
  EXPECT_EXIT(
      launchReverse(256, bigPush), ExitedWithCode(1),
      "^gpumem: error: kernel 'reverse' takes 60000 bytes of push constants; "
      "the device allows at most [0-9]+ \\(maxPushConstantsSize\\)\n$");
}

TEST_F(VulkanRuntimeDeathTest, BadArguments) {
  GPUMEM_REQUIRE_TEST_KERNELS();
  static float notFromTheRuntime[64];
  EXPECT_EXIT(launchAdd(notFromTheRuntime), ExitedWithCode(1),
              "^gpumem: error: kernel 'add' parameter 1: 0x[0-9a-f]+ is not "
              "in memory from mgpuMemAlloc or mgpuMemHostRegister\n$");
  EXPECT_EXIT(
      launchAdd(static_cast<char *>(mgpuMemAlloc(256, nullptr, false)) + 2),
      ExitedWithCode(1),
      "^gpumem: error: kernel 'add' parameter 1: 0x[0-9a-f]+ is 2 "
      "bytes into its buffer, not a whole number of 4-byte "
      "elements\n$");
  EXPECT_EXIT(launchAdd(mgpuMemAlloc(256, nullptr, false), int64_t(1) << 32),
              ExitedWithCode(1),
              "^gpumem: error: kernel 'add' parameter 3: index value "
              "4294967296 does not fit the kernel's 32-bit index type\n$");
  EXPECT_EXIT(
      {
        void *function = mgpuModuleGetFunction(load(testImage()), "add");
        mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                         nullptr, 3);
      },
      ExitedWithCode(1),
      "^gpumem: error: kernel 'add': takes 16 parameters, the launch passes "
      "3\n$");
}

TEST_F(VulkanRuntimeDeathTest, FreeOfForeignPointer) {
  GPUMEM_REQUIRE_VULKAN_DEVICE();
  static int notFromTheRuntime;
  EXPECT_EXIT(mgpuMemFree(&notFromTheRuntime, nullptr), ExitedWithCode(1),
              "^gpumem: error: mgpuMemFree: 0x[0-9a-f]+ is not the start of "
              "memory from mgpuMemAlloc\n$");
  EXPECT_EXIT(mgpuMemHostUnregister(&notFromTheRuntime), ExitedWithCode(1),
              "^gpumem: error: mgpuMemHostUnregister: 0x[0-9a-f]+ was not "
              "registered\n$");
}

} // namespace
