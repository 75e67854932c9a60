//===----------------------------------------------------------------------===//
// CPU runtime: memory, streams, events and modules. Allocation alignment,
// host registration, huge pages for large buffers, memory hints,
// stream and event calls in the order compiled host code makes them, who
// runs a stream's work,
// loading a module twice and unloading. Copies and fills with their exact
// contents are in the mgpu* conformance suite (MGPUConformanceTest.cpp).
//===----------------------------------------------------------------------===//

#include "CPURuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <pthread.h>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace gpumem_test;

namespace {

TEST(CPURuntimeMemory, AllocIsAlignedAndWritable) {
  std::set<void *> seen;
  for (uint64_t size : {0ull, 1ull, 3ull, 64ull, 1000ull, 1ull << 20}) {
    for (bool hostShared : {false, true}) {
      void *ptr = mgpuMemAlloc(size, nullptr, hostShared);
      ASSERT_NE(ptr, nullptr);
      EXPECT_EQ(uintptr_t(ptr) % 64, 0u) << size;
      std::memset(ptr, 0xAB, size);
      EXPECT_TRUE(seen.insert(ptr).second);
    }
  }
  for (void *ptr : seen)
    mgpuMemFree(ptr, nullptr);
  mgpuMemFree(nullptr, nullptr);
}

TEST(CPURuntimeMemory, HostRegisterIsANoOp) {
  std::vector<float> data = {1, 2, 3, 4, 5, 6};
  // A rank-2 memref<2x3xf32> descriptor.
  struct {
    float *allocated, *aligned;
    int64_t offset, sizes[2], strides[2];
  } descriptor = {data.data(), data.data(), 0, {2, 3}, {3, 1}};
  mgpuMemHostRegister(data.data(), data.size() * sizeof(float));
  mgpuMemHostRegisterMemRef(2, &descriptor, sizeof(float));
  mgpuMemHostUnregisterMemRef(2, &descriptor, sizeof(float));
  mgpuMemHostUnregister(data.data());
  mgpuSetDefaultDevice(0);
  EXPECT_EQ(data, (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

/// The VmFlags of the mapping that holds `address` (/proc/self/smaps), or
/// "" when there is none.
std::string vmFlagsAt(const void *address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long long start, end;
    char dash;
    std::istringstream header(line);
    if (line.find(':') > line.find(' ') &&
        (header >> std::hex >> start >> dash >> end) && dash == '-') {
      inside = uintptr_t(address) >= start && uintptr_t(address) < end;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return "";
}

/// Whether this kernel gives transparent huge pages to memory that asks.
bool hugePagesOnRequest() {
  std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  return std::getline(setting, modes) &&
         modes.find("[never]") == std::string::npos;
}

constexpr uint64_t twoMiB = 2ull << 20;

TEST(CPURuntimeMemory, LargeAllocationsAskForHugePages) {
  void *ptr = mgpuMemAlloc(3 * twoMiB + 5, nullptr, false);
  ASSERT_NE(ptr, nullptr);
  EXPECT_EQ(uintptr_t(ptr) % twoMiB, 0u);
  std::memset(ptr, 1, 3 * twoMiB + 5);
  if (hugePagesOnRequest()) {
    EXPECT_NE(vmFlagsAt(ptr).find(" hg"), std::string::npos) << vmFlagsAt(ptr);
  }
  mgpuMemFree(ptr, nullptr);
}

TEST(CPURuntimeMemory, RegisteredHostMemoryAsksForHugePagesAndKeepsItsData) {
  // Not aligned: the regions at both ends reach past the buffer.
  std::vector<uint32_t> data(3 * twoMiB / 4 + 1000);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = uint32_t(i * 2654435761u);
  mgpuMemHostRegister(data.data(), data.size() * sizeof(uint32_t));
  for (size_t i = 0; i < data.size(); ++i)
    ASSERT_EQ(data[i], uint32_t(i * 2654435761u)) << i;
  const char *middle = reinterpret_cast<const char *>(data.data()) + twoMiB;
  if (hugePagesOnRequest()) {
    EXPECT_NE(vmFlagsAt(middle).find(" hg"), std::string::npos)
        << vmFlagsAt(middle);
  }
  mgpuMemHostUnregister(data.data());
}

TEST(CPURuntimeMemory, MemoryHintsAreNoOps) {
  std::vector<uint32_t> buffer(64, 7);
  void *stream = mgpuStreamCreate();
  for (int32_t destination :
       {GPUMEM_PREFETCH_TO_DEVICE, GPUMEM_PREFETCH_TO_HOST}) {
    gpumemMemPrefetch(buffer.data(), 256, destination, stream);
    gpumemMemPrefetch(buffer.data(), 256, destination, nullptr);
  }
  for (int32_t advice = 0; advice < GPUMEM_ADVISE_COUNT; ++advice)
    gpumemMemAdvise(buffer.data(), 256, advice);
  gpumemMemPrefetch(nullptr, 0, GPUMEM_PREFETCH_TO_DEVICE, nullptr);
  EXPECT_EQ(buffer, std::vector<uint32_t>(64, 7));
  mgpuStreamDestroy(stream);
}

TEST(CPURuntimeMemory, StreamsAndEventsInOrder) {
  // What gpu-to-llvm emits for async host code: allocate, fill and launch
  // on one stream, record an event, wait for it on a second stream, copy
  // back there, synchronize, free, destroy.
  void *stream = mgpuStreamCreate();
  void *other = mgpuStreamCreate();
  void *event = mgpuEventCreate();
  ASSERT_NE(stream, nullptr);
  ASSERT_NE(event, nullptr);
  EXPECT_NE(stream, other);
  int64_t n = 1000;
  auto *x = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
  auto *y = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
  mgpuMemset32(x, 0x40000000u, n, stream); // 2.0f
  mgpuMemset32(y, 0x3f800000u, n, stream); // 1.0f
  float a = 3;
  launch("saxpy", {4, 1, 1}, {256, 1, 1}, {&n, &a, &x, &y}, 0, stream);
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(other, event);
  std::vector<float> host(n, 0);
  mgpuMemcpy(host.data(), y, n * 4, other);
  mgpuEventSynchronize(event);
  mgpuStreamSynchronize(other);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(host, std::vector<float>(n, 7.0f));
  mgpuMemFree(x, stream);
  mgpuMemFree(y, other);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(other);
  mgpuStreamDestroy(stream);
}

TEST(CPURuntimeMemory, StreamLaunchCopiesItsArguments) {
  // The launch may run after mgpuLaunchKernel returns; it must use the
  // arguments as they were then, not the caller's variables later.
  void *stream = mgpuStreamCreate();
  int64_t n = 1000;
  float a = 3;
  auto *x = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
  auto *y = static_cast<float *>(mgpuMemAlloc(n * 4, stream, false));
  mgpuMemset32(x, 0x40000000u, n, stream); // 2.0f
  mgpuMemset32(y, 0x3f800000u, n, stream); // 1.0f
  launch("saxpy", {4, 1, 1}, {256, 1, 1}, {&n, &a, &x, &y}, 0, stream);
  n = 0;
  a = 100;
  std::vector<float> host(1000, 0);
  mgpuMemcpy(host.data(), y, host.size() * 4, stream);
  mgpuStreamSynchronize(stream);
  EXPECT_EQ(host, std::vector<float>(1000, 7.0f));
  mgpuMemFree(x, nullptr);
  mgpuMemFree(y, nullptr);
  mgpuStreamDestroy(stream);
}

TEST(CPURuntimeMemory, StreamsRunConcurrently) {
  // Each one-block launch waits until the other one's block has started:
  // both finish only if the two streams run at once.
  void *first = mgpuStreamCreate(), *second = mgpuStreamCreate();
  int64_t counter = 0;
  uint64_t ids[2] = {0, 0};
  int32_t ok[2] = {0, 0};
  int64_t *counterPtr = &counter;
  uint64_t *idsPtr[2] = {&ids[0], &ids[1]};
  int32_t *okPtr[2] = {&ok[0], &ok[1]};
  launch("rendezvous_pair", {1, 1, 1}, {1, 1, 1},
         {&counterPtr, &idsPtr[0], &okPtr[0]}, 0, first);
  launch("rendezvous_pair", {1, 1, 1}, {1, 1, 1},
         {&counterPtr, &idsPtr[1], &okPtr[1]}, 0, second);
  mgpuStreamSynchronize(first);
  mgpuStreamSynchronize(second);
  EXPECT_EQ(ok[0], 1);
  EXPECT_EQ(ok[1], 1);
  EXPECT_NE(ids[0], ids[1]);
  mgpuStreamDestroy(first);
  mgpuStreamDestroy(second);
}

TEST(CPURuntimeMemory, SynchronizedWorkRunsOnTheHostThread) {
  // create, launch, synchronize, destroy (a synchronous launch): the host
  // runs the launch itself instead of waking an executor and waiting for
  // it. An executor's periodic check may rarely take one first.
  int onHost = 0;
  for (int i = 0; i < 10; ++i) {
    void *stream = mgpuStreamCreate();
    uint64_t id = 0;
    uint64_t *idPtr = &id;
    launch("whoami", {1, 1, 1}, {1, 1, 1}, {&idPtr}, 0, stream);
    mgpuStreamSynchronize(stream);
    mgpuStreamDestroy(stream);
    onHost += id == uint64_t(pthread_self());
  }
  EXPECT_GE(onHost, 8);
}

TEST(CPURuntimeMemory, WorkTheHostDoesNotWaitForStillRuns) {
  // The host polls memory the launch writes, without calling the runtime:
  // an executor must take the stream on its own.
  void *stream = mgpuStreamCreate();
  uint64_t id = 0;
  uint64_t *idPtr = &id;
  launch("whoami", {1, 1, 1}, {1, 1, 1}, {&idPtr}, 0, stream);
  for (int i = 0; i < 5000 && !__atomic_load_n(&id, __ATOMIC_ACQUIRE); ++i)
    usleep(1000);
  EXPECT_NE(__atomic_load_n(&id, __ATOMIC_ACQUIRE), 0u);
  EXPECT_NE(id, uint64_t(pthread_self()));
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

TEST(CPURuntimeModule, LoadTwiceGetFunctionUnload) {
  void *first = loadModule(GPUMEM_TEST_KERNELS);
  void *second = loadModule(GPUMEM_TEST_KERNELS);
  ASSERT_NE(first, nullptr);
  EXPECT_NE(first, second);
  void *saxpy = mgpuModuleGetFunction(first, "saxpy");
  void *reduce = mgpuModuleGetFunction(first, "reduce");
  EXPECT_NE(saxpy, reduce);
  EXPECT_EQ(mgpuModuleGetFunction(first, "saxpy"), saxpy);
  auto *kernel = static_cast<const GPUMemCPUKernel *>(saxpy);
  EXPECT_STREQ(kernel->name, "saxpy");
  EXPECT_EQ(kernel->numParams, 4);
  // Each load is its own copy of the object.
  EXPECT_NE(mgpuModuleGetFunction(second, "saxpy"), saxpy);

  std::vector<int32_t> in = {1, 2, 3, 4}, out(1, 0);
  int32_t *inp = in.data(), *outp = out.data();
  void *params[] = {&inp, &outp};
  mgpuLaunchKernel(mgpuModuleGetFunction(second, "reduce"), 1, 1, 1, 4, 1, 1, 0,
                   nullptr, params, nullptr, 2);
  EXPECT_EQ(out[0], 10);
  mgpuModuleUnload(first);
  mgpuLaunchKernel(mgpuModuleGetFunction(second, "reduce"), 1, 1, 1, 2, 1, 1, 0,
                   nullptr, params, nullptr, 2);
  EXPECT_EQ(out[0], 3);
  mgpuModuleUnload(second);
  mgpuModuleUnload(nullptr);
}

} // namespace
