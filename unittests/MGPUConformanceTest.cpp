//===----------------------------------------------------------------------===//
// The mgpu* ABI (gpumem/Runtime/MGPU.h) as every runtime must implement it:
// one suite, run against each runtime library, dlopen'ed from the path
// CMake passes in and reached only through the functions MGPU.h declares,
// looked up by name. The cpu runtime runs as it is, the cuda runtime on the
// fake driver (CUDARuntimeFakeDriver.cpp, through GPUMEM_CUDA_DRIVER), the
// rocm runtime on the fake HIP (ROCmRuntimeFakeHIP.cpp, through
// GPUMEM_HIP_LIBRARY), the vulkan runtime on the machine's Vulkan device
// (lavapipe where there is no GPU; skipped where there is none).
//
// What is checked: allocation, copies host -> device -> host and fills with
// their exact contents (element counts, bytes around left alone); that
// work on the null stream is done when the call returns and in call order;
// stream and event order (record, wait, synchronize); host registration of
// the bytes a memref descriptor reaches; the argument errors of the memory
// hints and of memref descriptors (death tests, in a re-executed child);
// module load, lookup and unload with each runtime's test module. What one
// runtime does beyond this (fibers, the driver calls, staging) is tested
// by that runtime's own tests. The null stream's ordering against other
// streams is not checked here: the cuda and rocm runtimes' streams are
// non-blocking, so on a GPU they do not wait for the null stream.
//===----------------------------------------------------------------------===//

#include "CPURuntimeTestSupport.h"
#define GPUMEM_VULKAN_TEST_LEAK_SUPPRESSIONS
#include "VulkanRuntimeTestSupport.h"
#include "gpumem/Runtime/MGPU.h"

#include "gpumem/Runtime/TargetSelection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <ostream>
#include <string>
#include <vector>

using ::testing::ExitedWithCode;

namespace {

/// Every function of MGPU.h, for X-macros.
#define GPUMEM_MGPU_FUNCTIONS(X)                                               \
  X(mgpuModuleLoad)                                                            \
  X(mgpuModuleLoadJIT)                                                         \
  X(mgpuModuleUnload)                                                          \
  X(mgpuModuleGetFunction)                                                     \
  X(mgpuLaunchKernel)                                                          \
  X(mgpuStreamCreate)                                                          \
  X(mgpuStreamDestroy)                                                         \
  X(mgpuStreamSynchronize)                                                     \
  X(mgpuStreamWaitEvent)                                                       \
  X(mgpuEventCreate)                                                           \
  X(mgpuEventDestroy)                                                          \
  X(mgpuEventSynchronize)                                                      \
  X(mgpuEventRecord)                                                           \
  X(mgpuMemAlloc)                                                              \
  X(mgpuMemFree)                                                               \
  X(mgpuMemcpy)                                                                \
  X(mgpuMemset32)                                                              \
  X(mgpuMemset16)                                                              \
  X(mgpuMemHostRegister)                                                       \
  X(mgpuMemHostRegisterMemRef)                                                 \
  X(mgpuMemHostUnregister)                                                     \
  X(mgpuMemHostUnregisterMemRef)                                               \
  X(mgpuSetDefaultDevice)                                                      \
  X(gpumemMemPrefetch)                                                         \
  X(gpumemMemAdvise)

/// One runtime library's mgpu* functions.
struct MGPU {
#define MGPU_FUNCTION(name) decltype(&::name) name;
  GPUMEM_MGPU_FUNCTIONS(MGPU_FUNCTION)
#undef MGPU_FUNCTION
  void *library;
};

/// dlopen's the runtime at `path` (once per process) and looks up every
/// function; exits when that fails.
const MGPU &loadRuntime(const char *path) {
  static std::map<std::string, MGPU> loaded;
  auto it = loaded.find(path);
  if (it != loaded.end())
    return it->second;
  // RTLD_LOCAL: runtimes loaded side by side each keep their own symbols.
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
    std::exit(3);
  }
  MGPU &functions = loaded[path];
  functions.library = library;
#define MGPU_FUNCTION(name)                                                    \
  functions.name =                                                             \
      reinterpret_cast<decltype(functions.name)>(dlsym(library, #name));       \
  if (!functions.name) {                                                       \
    std::fprintf(stderr, "%s does not export " #name "\n", path);              \
    std::exit(3);                                                              \
  }
  GPUMEM_MGPU_FUNCTIONS(MGPU_FUNCTION)
#undef MGPU_FUNCTION
  return functions;
}

/// One runtime under test.
struct Runtime {
  const char *name;
  const char *path;
  /// What the process needs before the runtime's first call.
  void (*prepare)();
  /// Why the runtime cannot run here, or null when it can.
  const char *(*unavailable)(const MGPU &);
  /// A module the runtime loads without the compiler, and one of its
  /// kernels; an empty image when there is none here.
  std::vector<char> (*module)();
  const char *kernel;
};

/// Test names and messages show the runtime's name.
void PrintTo(const Runtime &runtime, std::ostream *os) { *os << runtime.name; }

void prepareNothing() {}
const char *alwaysAvailable(const MGPU &) { return nullptr; }

std::vector<char> cpuModule() {
  return gpumem_test::readFile(GPUMEM_TEST_KERNELS);
}

void prepareCuda() {
  setenv("GPUMEM_CUDA_DRIVER", GPUMEM_FAKE_CUDA, 1);
  unsetenv("GPUMEM_CUDA_DEVICE");
}
/// A module of the fake driver: NUL-terminated text naming its kernels.
std::vector<char> cudaModule() {
  const char text[] = "conformance_kernel";
  return std::vector<char>(text, text + sizeof(text));
}

void prepareRocm() {
  setenv("GPUMEM_HIP_LIBRARY", GPUMEM_FAKE_HIP, 1);
  unsetenv("GPUMEM_ROCM_DEVICE");
}
/// A module of the fake HIP: NUL-terminated text naming its kernels, as
/// for the fake CUDA driver.
std::vector<char> rocmModule() { return cudaModule(); }

const char *vulkanUnavailable(const MGPU &runtime) {
  auto deviceKind = reinterpret_cast<int (*)()>(
      dlsym(runtime.library, "gpumemVulkanDeviceKind"));
  return deviceKind && deviceKind() != 0 ? nullptr : "no Vulkan device";
}
std::vector<char> vulkanModule() {
  std::vector<uint32_t> image = gpumem_vulkan_test::testImage();
  const char *bytes = reinterpret_cast<const char *>(image.data());
  return std::vector<char>(bytes, bytes + image.size() * 4);
}

const Runtime runtimes[] = {
    {"cpu", GPUMEM_CPU_RUNTIME, prepareNothing, alwaysAvailable, cpuModule,
     "saxpy"},
    {"cuda", GPUMEM_CUDA_RUNTIME, prepareCuda, alwaysAvailable, cudaModule,
     "conformance_kernel"},
    {"rocm", GPUMEM_ROCM_RUNTIME, prepareRocm, alwaysAvailable, rocmModule,
     "conformance_kernel"},
    {"vulkan", GPUMEM_VULKAN_RUNTIME, prepareNothing, vulkanUnavailable,
     vulkanModule, "add"},
};

class MGPUConformance : public ::testing::TestWithParam<Runtime> {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    GetParam().prepare();
    mgpu = &loadRuntime(GetParam().path);
    if (const char *why = GetParam().unavailable(*mgpu))
      GTEST_SKIP() << why;
  }

  /// Device memory of `bytes` filled with `byte`, through a host copy.
  void *deviceFilled(size_t bytes, uint8_t byte) {
    void *device = mgpu->mgpuMemAlloc(bytes, nullptr, false);
    std::vector<uint8_t> host(bytes, byte);
    mgpu->mgpuMemcpy(device, host.data(), bytes, nullptr);
    return device;
  }
  /// `count` elements at device address `device`, through a host copy.
  template <typename T> std::vector<T> read(void *device, size_t count) {
    std::vector<T> host(count);
    mgpu->mgpuMemcpy(host.data(), device, count * sizeof(T), nullptr);
    return host;
  }

  const MGPU *mgpu = nullptr;
};

//--- Memory, copies and fills ----------------------------------------------//

TEST_P(MGPUConformance, AllocCopyRoundTrip) {
  for (bool hostShared : {false, true}) {
    std::vector<uint8_t> in(1000), out(1000, 0);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = uint8_t(i * 7 + 1);
    void *a = mgpu->mgpuMemAlloc(in.size(), nullptr, hostShared);
    void *b = mgpu->mgpuMemAlloc(in.size(), nullptr, hostShared);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(a, b);
    mgpu->mgpuMemcpy(a, in.data(), in.size(), nullptr);
    mgpu->mgpuMemcpy(b, a, in.size(), nullptr);
    mgpu->mgpuMemcpy(out.data(), b, out.size(), nullptr);
    EXPECT_EQ(out, in) << (hostShared ? "host-shared" : "device");
    mgpu->mgpuMemFree(a, nullptr);
    mgpu->mgpuMemFree(b, nullptr);
  }
  mgpu->mgpuMemFree(nullptr, nullptr);
}

TEST_P(MGPUConformance, CopyWritesExactlyItsBytes) {
  std::vector<uint8_t> src(100);
  for (int i = 0; i < 100; ++i)
    src[i] = uint8_t(i * 7);
  void *device = deviceFilled(104, 0);
  mgpu->mgpuMemcpy(static_cast<char *>(device) + 2, src.data(), 100, nullptr);
  std::vector<uint8_t> dst = read<uint8_t>(device, 104);
  EXPECT_EQ(dst[0], 0);
  EXPECT_EQ(dst[1], 0);
  EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin() + 2));
  EXPECT_EQ(dst[102], 0);
  EXPECT_EQ(dst[103], 0);
  // Nothing to copy: the pointers are not looked at.
  mgpu->mgpuMemcpy(nullptr, nullptr, 0, nullptr);
  mgpu->mgpuMemFree(device, nullptr);
}

TEST_P(MGPUConformance, Memset32CountsElements) {
  void *device = deviceFilled(10 * 4, 0);
  mgpu->mgpuMemset32(static_cast<uint32_t *>(device) + 1, 0xDEADBEEFu, 7,
                     nullptr);
  EXPECT_EQ(
      read<uint32_t>(device, 10),
      (std::vector<uint32_t>{0, 0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF,
                             0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0, 0}));
  mgpu->mgpuMemset32(device, 5, 0, nullptr);
  EXPECT_EQ(read<uint32_t>(device, 1)[0], 0u);
  mgpu->mgpuMemFree(device, nullptr);
}

TEST_P(MGPUConformance, Memset16CountsElements) {
  void *device = deviceFilled(8 * 2, 0);
  mgpu->mgpuMemset16(static_cast<uint16_t *>(device) + 2, 0xBEEF, 5, nullptr);
  EXPECT_EQ(
      read<uint16_t>(device, 8),
      (std::vector<uint16_t>{0, 0, 0xBEEF, 0xBEEF, 0xBEEF, 0xBEEF, 0xBEEF, 0}));
  mgpu->mgpuMemset16(device, 5, 0, nullptr);
  EXPECT_EQ(read<uint16_t>(device, 1)[0], 0u);
  mgpu->mgpuMemFree(device, nullptr);
}

//--- Streams and events ----------------------------------------------------//

TEST_P(MGPUConformance, NullStreamWorkIsDoneInCallOrder) {
  constexpr size_t n = 4096;
  void *x = mgpu->mgpuMemAlloc(n * 4, nullptr, false);
  void *y = mgpu->mgpuMemAlloc(n * 4, nullptr, false);
  for (uint32_t round = 1; round <= 3; ++round) {
    mgpu->mgpuMemset32(x, round, n, nullptr);
    mgpu->mgpuMemcpy(y, x, n * 4, nullptr);
    mgpu->mgpuMemset16(x, 0, 2 * n, nullptr);
    std::vector<uint32_t> host(n, 0);
    mgpu->mgpuMemcpy(host.data(), y, n * 4, nullptr);
    ASSERT_EQ(host, std::vector<uint32_t>(n, round)) << "round " << round;
  }
  mgpu->mgpuStreamSynchronize(nullptr);
  mgpu->mgpuMemFree(x, nullptr);
  mgpu->mgpuMemFree(y, nullptr);
}

TEST_P(MGPUConformance, StreamsAndEventsInOrder) {
  // Fill and copy on one stream, record an event, wait for it on a second
  // stream and copy back there; as gpu-to-llvm emits for async host code.
  constexpr size_t n = 1 << 16;
  void *stream = mgpu->mgpuStreamCreate();
  void *other = mgpu->mgpuStreamCreate();
  void *event = mgpu->mgpuEventCreate();
  ASSERT_NE(stream, nullptr);
  ASSERT_NE(event, nullptr);
  EXPECT_NE(stream, other);
  void *x = mgpu->mgpuMemAlloc(n * 4, stream, false);
  void *y = mgpu->mgpuMemAlloc(n * 4, stream, false);
  std::vector<uint32_t> host(n, 0);
  for (uint32_t round = 1; round <= 3; ++round) {
    mgpu->mgpuMemset32(x, 0x01010101u * round, n, stream);
    mgpu->mgpuMemcpy(y, x, n * 4, stream);
    mgpu->mgpuEventRecord(event, stream);
    mgpu->mgpuStreamWaitEvent(other, event);
    mgpu->mgpuMemcpy(host.data(), y, n * 4, other);
    mgpu->mgpuStreamSynchronize(other);
    ASSERT_EQ(host, std::vector<uint32_t>(n, 0x01010101u * round))
        << "round " << round;
  }
  // An event synchronized is the work before its record done.
  mgpu->mgpuMemset32(y, 0x7u, n, stream);
  mgpu->mgpuEventRecord(event, stream);
  mgpu->mgpuEventSynchronize(event);
  EXPECT_EQ(read<uint32_t>(y, n), std::vector<uint32_t>(n, 0x7u));
  mgpu->mgpuStreamSynchronize(stream);
  mgpu->mgpuMemFree(x, stream);
  mgpu->mgpuMemFree(y, other);
  mgpu->mgpuStreamSynchronize(stream);
  mgpu->mgpuStreamSynchronize(other);
  mgpu->mgpuEventDestroy(event);
  mgpu->mgpuStreamDestroy(other);
  mgpu->mgpuStreamDestroy(stream);
  mgpu->mgpuStreamDestroy(nullptr);
}

//--- Host registration -----------------------------------------------------//

/// A rank-2 memref descriptor of 32-bit elements.
struct MemRef2D {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

TEST_P(MGPUConformance, HostRegisterCoversTheMemRefExtent) {
  // memref<4x8xi32, strided<[16, 1], offset: 3>> in a page of its own: it
  // reaches elements 3 .. 3 + 3 * 16 + 7, 56 of them.
  constexpr size_t pageWords = 4096 / 4;
  auto *page = static_cast<uint32_t *>(std::aligned_alloc(4096, 4096));
  std::fill(page, page + pageWords, 0u);
  MemRef2D descriptor{page, page, 3, {4, 8}, {16, 1}};
  uint32_t *first = page + 3;
  constexpr size_t extent = 3 * 16 + 8;
  mgpu->mgpuMemHostRegisterMemRef(2, &descriptor, 4);
  // The registration starts at the first element the memref reaches and
  // holds all it reaches: copies and fills use it.
  std::vector<uint32_t> values(extent);
  for (size_t i = 0; i < extent; ++i)
    values[i] = uint32_t(i + 100);
  void *device = mgpu->mgpuMemAlloc(extent * 4, nullptr, false);
  mgpu->mgpuMemcpy(device, values.data(), extent * 4, nullptr);
  mgpu->mgpuMemcpy(first, device, extent * 4, nullptr);
  EXPECT_TRUE(std::equal(values.begin(), values.end(), first));
  void *stream = mgpu->mgpuStreamCreate();
  mgpu->mgpuMemset32(first + 16, 9u, 8, stream);
  mgpu->mgpuStreamSynchronize(stream);
  mgpu->mgpuStreamDestroy(stream);
  for (size_t i = 0; i < 8; ++i)
    EXPECT_EQ(first[16 + i], 9u) << i;
  EXPECT_EQ(first[24], 124u);
  // Bytes outside the extent are left alone.
  EXPECT_EQ(page[2], 0u);
  EXPECT_EQ(page[3 + extent], 0u);
  // Unregistered by its first byte, registered again by pointer and size,
  // unregistered by the descriptor.
  mgpu->mgpuMemHostUnregister(first);
  mgpu->mgpuMemHostRegister(first, extent * 4);
  mgpu->mgpuMemHostUnregisterMemRef(2, &descriptor, 4);
  // An empty memref registers nothing.
  MemRef2D empty{page, page, 0, {0, 8}, {8, 1}};
  mgpu->mgpuMemHostRegisterMemRef(2, &empty, 4);
  mgpu->mgpuMemHostUnregisterMemRef(2, &empty, 4);
  mgpu->mgpuMemFree(device, nullptr);
  std::free(page);
}

TEST_P(MGPUConformance, MemRefDescriptorErrors) {
  MemRef2D negative{nullptr, nullptr, 0, {2, -2}, {1, 1}},
      huge{nullptr, nullptr, 0, {INT64_MAX, 1}, {4, 1}};
  EXPECT_EXIT(mgpu->mgpuMemHostRegisterMemRef(2, &negative, 4),
              ExitedWithCode(1),
              R"(^gpumem: error: mgpuMemHostRegisterMemRef: negative size -2 )"
              R"(in dimension 1
$)");
  EXPECT_EXIT(mgpu->mgpuMemHostRegisterMemRef(2, &huge, 4), ExitedWithCode(1),
              R"(^gpumem: error: mgpuMemHostRegisterMemRef: the memref's )"
              R"(extent overflows 64 bits
$)");
  EXPECT_EXIT(mgpu->mgpuMemHostRegisterMemRef(-1, &negative, 4),
              ExitedWithCode(1),
              R"(^gpumem: error: mgpuMemHostRegisterMemRef: invalid memref )"
              R"(\(rank -1, 4-byte elements\)
$)");
  EXPECT_EXIT(mgpu->mgpuMemHostRegisterMemRef(1, nullptr, 4), ExitedWithCode(1),
              R"(^gpumem: error: mgpuMemHostRegisterMemRef: null memref )"
              R"(descriptor
$)");
}

//--- Memory hints ----------------------------------------------------------//

TEST_P(MGPUConformance, MemoryHintsWithNothingToDo) {
  for (int32_t destination :
       {GPUMEM_PREFETCH_TO_DEVICE, GPUMEM_PREFETCH_TO_HOST})
    mgpu->gpumemMemPrefetch(nullptr, 0, destination, nullptr);
  for (int32_t advice = 0; advice < GPUMEM_ADVISE_COUNT; ++advice)
    mgpu->gpumemMemAdvise(nullptr, 0, advice);
}

TEST_P(MGPUConformance, MemoryHintsWithUnknownValues) {
  // Checked before anything else, whatever the memory.
  for (int32_t destination : {-1, 2})
    EXPECT_EXIT(mgpu->gpumemMemPrefetch(nullptr, 0, destination, nullptr),
                ExitedWithCode(1),
                "^gpumem: error: gpumemMemPrefetch: unknown destination " +
                    std::to_string(destination) +
                    R"( \(0: the device, 1: the host\)
$)");
  for (int32_t advice : {-1, int32_t(GPUMEM_ADVISE_COUNT)})
    EXPECT_EXIT(mgpu->gpumemMemAdvise(nullptr, 0, advice), ExitedWithCode(1),
                "^gpumem: error: gpumemMemAdvise: unknown advice " +
                    std::to_string(advice) + R"( \(0\.\.6\)
$)");
}

//--- Modules ---------------------------------------------------------------//

TEST_P(MGPUConformance, ModuleLoadGetFunctionUnload) {
  std::vector<char> image = GetParam().module();
  if (image.empty())
    GTEST_SKIP() << "no test module for the " << GetParam().name
                 << " runtime here";
  const char *kernel = GetParam().kernel;
  void *first = mgpu->mgpuModuleLoad(image.data(), image.size());
  void *second = mgpu->mgpuModuleLoad(image.data(), image.size());
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(first, second);
  void *function = mgpu->mgpuModuleGetFunction(first, kernel);
  EXPECT_NE(function, nullptr);
  EXPECT_EQ(mgpu->mgpuModuleGetFunction(first, kernel), function);
  mgpu->mgpuModuleUnload(first);
  // The other load is not affected.
  EXPECT_NE(mgpu->mgpuModuleGetFunction(second, kernel), nullptr);
  mgpu->mgpuModuleUnload(second);
  mgpu->mgpuModuleUnload(nullptr);
}

//--- Multi-target executables ----------------------------------------------//

// Every runtime says what it would run kernels on without ending the
// process: the start-up code of a multi-target executable asks it
// (TargetSelection.h). Here each has its device (a fake one for cuda and
// rocm), so each answers with one, and describes it.
TEST_P(MGPUConformance, ProbeDescribesTheDevice) {
  auto probe = reinterpret_cast<int (*)(char *, size_t)>(
      dlsym(mgpu->library, "gpumemRuntimeProbe"));
  ASSERT_NE(probe, nullptr);
  char detail[256] = "";
  int kind = probe(detail, sizeof(detail));
  EXPECT_GE(kind, GPUMEM_DEVICE_CPU);
  EXPECT_LE(kind, GPUMEM_DEVICE_GPU);
  std::string name = GetParam().name;
  if (name == "cpu")
    EXPECT_EQ(kind, GPUMEM_DEVICE_CPU);
  if (name == "cuda" || name == "rocm")
    EXPECT_EQ(kind, GPUMEM_DEVICE_GPU);
  EXPECT_NE(detail[0], '\0');
  // A short buffer gets a truncated, terminated description.
  char shortDetail[4] = {'x', 'x', 'x', 'x'};
  probe(shortDetail, sizeof(shortDetail));
  EXPECT_EQ(shortDetail[3], '\0');
}

INSTANTIATE_TEST_SUITE_P(Runtimes, MGPUConformance,
                         ::testing::ValuesIn(runtimes),
                         [](const ::testing::TestParamInfo<Runtime> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
