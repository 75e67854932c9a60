//===----------------------------------------------------------------------===//
// rocm runtime on the fake HIP, in process: which HIP calls each mgpu*
// function makes, with which arguments. The dynamic LDS bytes of a launch
// reach hipModuleLaunchKernel; managed memory is hipMallocManaged and its
// hints go to hipMemPrefetchAsync and hipMemAdvise with HIP's advice and
// device numbers; host registration is mapped and checked; streams are
// non-blocking and events untimed; copies and fills use the stream-ordered
// calls on a stream. What every runtime must do alike (contents of copies
// and fills, stream order) is MGPUConformanceTest.cpp's.
//===----------------------------------------------------------------------===//

#include "HIPTypes.h"
#include "ROCmRuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace gpumem_rocm_test;
using namespace gpumem::rocm;

namespace {

using ROCmRuntimeTest = ROCmRuntimeFakeTest;

TEST_F(ROCmRuntimeTest, DynamicLDSReachesTheLaunch) {
  void *module = loadFakeModule("lds_kernel");
  void *kernel = mgpuModuleGetFunction(module, "lds_kernel");
  void *stream = mgpuStreamCreate();
  int32_t n = 7;
  void *params[] = {&n};
  mgpuLaunchKernel(kernel, 3, 2, 1, 256, 1, 1, 40000, stream, params, nullptr,
                   1);
  FakeHipCall launch = fake().last("hipModuleLaunchKernel");
  EXPECT_EQ(std::string(launch.text), "lds_kernel");
  EXPECT_EQ(launch.args[1], 3u);
  EXPECT_EQ(launch.args[2], 2u);
  EXPECT_EQ(launch.args[3], 1u);
  EXPECT_EQ(launch.args[4], 256u);
  EXPECT_EQ(launch.args[5], 1u);
  EXPECT_EQ(launch.args[6], 1u);
  EXPECT_EQ(launch.args[7], 40000u) << "sharedMemBytes";
  EXPECT_EQ(launch.args[8], bits(stream));
  EXPECT_EQ(launch.args[9], bits(params));
  EXPECT_EQ(launch.args[10], 0u);
  // No limit to raise on AMD GPUs: a launch is one call.
  fake().Reset();
  mgpuLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 65536, nullptr, params, nullptr,
                   1);
  EXPECT_EQ(fake().symbols(),
            std::vector<std::string>{"hipModuleLaunchKernel"});
  EXPECT_EQ(fake().last("hipModuleLaunchKernel").args[7], 65536u);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
}

TEST_F(ROCmRuntimeTest, StaticAndDynamicLDSUpToTheLimit) {
  fake().SetStaticSharedBytes("static_lds", 16384);
  void *module = loadFakeModule("static_lds");
  void *kernel = mgpuModuleGetFunction(module, "static_lds");
  mgpuLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 65536 - 16384, nullptr, nullptr,
                   nullptr, 0);
  EXPECT_EQ(fake().last("hipModuleLaunchKernel").args[7], 65536u - 16384u);
  mgpuModuleUnload(module);
}

TEST_F(ROCmRuntimeTest, KernelsAreLookedUpOncePerModuleAndName) {
  void *module = loadFakeModule("first second");
  void *first = mgpuModuleGetFunction(module, "first");
  EXPECT_EQ(mgpuModuleGetFunction(module, "first"), first);
  void *second = mgpuModuleGetFunction(module, "second");
  EXPECT_NE(first, second);
  EXPECT_EQ(fake().count("hipModuleGetFunction"), 2);
  EXPECT_EQ(fake().count("hipFuncGetAttribute"), 2);
  EXPECT_EQ(fake().last("hipFuncGetAttribute").args[1],
            uint64_t(HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
  uint64_t loaded = fake().last("hipModuleLoadData").args[0];
  mgpuModuleUnload(module);
  EXPECT_EQ(fake().last("hipModuleUnload").args[0], loaded);
}

TEST_F(ROCmRuntimeTest, ManagedMemoryAndItsHints) {
  void *stream = mgpuStreamCreate();
  void *ptr = mgpuMemAlloc(4096, nullptr, true);
  FakeHipCall alloc = fake().last("hipMallocManaged");
  EXPECT_EQ(alloc.args[0], bits(ptr));
  EXPECT_EQ(alloc.args[1], 4096u);
  EXPECT_EQ(alloc.args[2], uint64_t(hipMemAttachGlobal));
  EXPECT_EQ(fake().count("hipMalloc"), 0);

  // To the device on a stream: asynchronous, nothing waited for.
  gpumemMemPrefetch(ptr, 4096, GPUMEM_PREFETCH_TO_DEVICE, stream);
  FakeHipCall prefetch = fake().last("hipMemPrefetchAsync");
  EXPECT_EQ(prefetch.args[0], bits(ptr));
  EXPECT_EQ(prefetch.args[1], 4096u);
  EXPECT_EQ(prefetch.args[2], 0u);
  EXPECT_EQ(prefetch.args[3], bits(stream));
  EXPECT_EQ(fake().count("hipStreamSynchronize"), 0);
  // To the host on the null stream: hipCpuDeviceId, then waited for.
  gpumemMemPrefetch(ptr, 1024, GPUMEM_PREFETCH_TO_HOST, nullptr);
  prefetch = fake().last("hipMemPrefetchAsync");
  EXPECT_EQ(prefetch.args[2], uint64_t(int64_t(hipCpuDeviceId)));
  EXPECT_EQ(prefetch.args[3], 0u);
  EXPECT_EQ(fake().symbols().back(), "hipStreamSynchronize");
  EXPECT_EQ(fake().last("hipStreamSynchronize").args[0], 0u);

  // Every advice, with HIP's number and device.
  const struct {
    int32_t advice;
    hipMemoryAdvise hip;
    int device;
  } advices[] = {
      {GPUMEM_ADVISE_READ_MOSTLY, hipMemAdviseSetReadMostly, 0},
      {GPUMEM_ADVISE_UNSET_READ_MOSTLY, hipMemAdviseUnsetReadMostly, 0},
      {GPUMEM_ADVISE_PREFERRED_LOCATION_DEVICE,
       hipMemAdviseSetPreferredLocation, 0},
      {GPUMEM_ADVISE_PREFERRED_LOCATION_HOST, hipMemAdviseSetPreferredLocation,
       hipCpuDeviceId},
      {GPUMEM_ADVISE_UNSET_PREFERRED_LOCATION,
       hipMemAdviseUnsetPreferredLocation, 0},
      {GPUMEM_ADVISE_ACCESSED_BY_DEVICE, hipMemAdviseSetAccessedBy, 0},
      {GPUMEM_ADVISE_UNSET_ACCESSED_BY_DEVICE, hipMemAdviseUnsetAccessedBy, 0},
  };
  for (const auto &expected : advices) {
    gpumemMemAdvise(ptr, 4096, expected.advice);
    FakeHipCall advise = fake().last("hipMemAdvise");
    EXPECT_EQ(advise.args[0], bits(ptr)) << expected.advice;
    EXPECT_EQ(advise.args[1], 4096u) << expected.advice;
    EXPECT_EQ(advise.args[2], uint64_t(expected.hip)) << expected.advice;
    EXPECT_EQ(advise.args[3], uint64_t(int64_t(expected.device)))
        << expected.advice;
  }
  EXPECT_EQ(fake().count("hipMemAdvise"), GPUMEM_ADVISE_COUNT);

  mgpuMemFree(ptr, nullptr);
  EXPECT_EQ(fake().last("hipFree").args[0], bits(ptr));
  mgpuStreamDestroy(stream);
}

TEST_F(ROCmRuntimeTest, HostRegisteredMemory) {
  static uint32_t buffer[256];
  mgpuMemHostRegister(buffer, sizeof(buffer));
  FakeHipCall registered = fake().last("hipHostRegister");
  EXPECT_EQ(registered.args[0], bits(buffer));
  EXPECT_EQ(registered.args[1], sizeof(buffer));
  EXPECT_EQ(registered.args[2],
            uint64_t(hipHostRegisterMapped | hipHostRegisterPortable));
  // The device reaches it at the host's addresses, as kernels need.
  FakeHipCall mapped = fake().last("hipHostGetDevicePointer");
  EXPECT_EQ(mapped.args[0], bits(buffer));
  EXPECT_EQ(mapped.args[1], bits(buffer));
  // Fills and copies take it as they take device memory.
  mgpuMemset32(buffer, 5, 256, nullptr);
  EXPECT_EQ(buffer[255], 5u);
  mgpuMemHostUnregister(buffer);
  EXPECT_EQ(fake().last("hipHostUnregister").args[0], bits(buffer));
  // A memref registers from its first element, for the bytes it reaches.
  int64_t descriptor[] = {int64_t(uintptr_t(buffer)),
                          int64_t(uintptr_t(buffer)), 4, 10, 2};
  mgpuMemHostRegisterMemRef(1, descriptor, 4);
  registered = fake().last("hipHostRegister");
  EXPECT_EQ(registered.args[0], bits(buffer + 4));
  EXPECT_EQ(registered.args[1], (9u * 2 + 1) * 4);
  mgpuMemHostUnregisterMemRef(1, descriptor, 4);
  EXPECT_EQ(fake().last("hipHostUnregister").args[0], bits(buffer + 4));
  // Nothing to register: HIP is not asked.
  fake().Reset();
  mgpuMemHostRegister(buffer, 0);
  mgpuMemHostUnregister(nullptr);
  EXPECT_EQ(fake().CallLogSize(), 0);
}

TEST_F(ROCmRuntimeTest, DeviceMemoryOnAStream) {
  void *stream = mgpuStreamCreate();
  fake().Reset();
  void *ptr = mgpuMemAlloc(512, stream, false);
  EXPECT_EQ(fake().symbols(), std::vector<std::string>{"hipMalloc"});
  EXPECT_EQ(fake().last("hipMalloc").args[0], bits(ptr));
  EXPECT_EQ(mgpuMemAlloc(0, stream, false), nullptr);
  // Freed on a stream: the stream's work first.
  fake().Reset();
  mgpuMemFree(ptr, stream);
  EXPECT_EQ(fake().symbols(),
            (std::vector<std::string>{"hipStreamSynchronize", "hipFree"}));
  EXPECT_EQ(fake().last("hipStreamSynchronize").args[0], bits(stream));
  mgpuStreamDestroy(stream);
}

TEST_F(ROCmRuntimeTest, StreamsAndEvents) {
  void *stream = mgpuStreamCreate();
  void *other = mgpuStreamCreate();
  void *event = mgpuEventCreate();
  EXPECT_EQ(fake().last("hipStreamCreateWithFlags").args[1],
            uint64_t(hipStreamNonBlocking));
  EXPECT_EQ(fake().last("hipStreamCreateWithFlags").args[0], bits(other));
  EXPECT_EQ(fake().last("hipEventCreateWithFlags").args[1],
            uint64_t(hipEventDisableTiming));
  EXPECT_EQ(fake().last("hipEventCreateWithFlags").args[0], bits(event));
  fake().Reset();
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(other, event);
  mgpuStreamSynchronize(other);
  mgpuEventSynchronize(event);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(other);
  mgpuStreamDestroy(stream);
  mgpuStreamDestroy(nullptr);
  mgpuEventDestroy(nullptr);
  std::vector<FakeHipCall> calls = fake().calls();
  ASSERT_EQ(calls.size(), 7u);
  EXPECT_STREQ(calls[0].symbol, "hipEventRecord");
  EXPECT_EQ(calls[0].args[0], bits(event));
  EXPECT_EQ(calls[0].args[1], bits(stream));
  EXPECT_STREQ(calls[1].symbol, "hipStreamWaitEvent");
  EXPECT_EQ(calls[1].args[0], bits(other));
  EXPECT_EQ(calls[1].args[1], bits(event));
  EXPECT_EQ(calls[1].args[2], 0u);
  EXPECT_STREQ(calls[2].symbol, "hipStreamSynchronize");
  EXPECT_EQ(calls[2].args[0], bits(other));
  EXPECT_STREQ(calls[3].symbol, "hipEventSynchronize");
  EXPECT_STREQ(calls[4].symbol, "hipEventDestroy");
  EXPECT_STREQ(calls[5].symbol, "hipStreamDestroy");
  EXPECT_EQ(calls[5].args[0], bits(other));
  EXPECT_STREQ(calls[6].symbol, "hipStreamDestroy");
  EXPECT_EQ(calls[6].args[0], bits(stream));
}

TEST_F(ROCmRuntimeTest, CopiesAndFillsAreStreamOrderedOnAStream) {
  void *stream = mgpuStreamCreate();
  void *ptr = mgpuMemAlloc(64, nullptr, false);
  uint32_t host[16] = {};
  fake().Reset();
  mgpuMemcpy(ptr, host, 64, nullptr);
  mgpuMemcpy(host, ptr, 64, stream);
  mgpuMemset32(ptr, 0xDEADBEEFu, 16, nullptr);
  mgpuMemset32(ptr, 0xDEADBEEFu, 16, stream);
  mgpuMemset16(ptr, 0xBEEF, 32, nullptr);
  mgpuMemset16(ptr, 0xBEEF, 32, stream);
  EXPECT_EQ(fake().symbols(),
            (std::vector<std::string>{"hipMemcpy", "hipMemcpyAsync",
                                      "hipMemsetD32", "hipMemsetD32Async",
                                      "hipMemsetD16", "hipMemsetD16Async"}));
  EXPECT_EQ(fake().last("hipMemcpy").args[3], uint64_t(hipMemcpyDefault));
  EXPECT_EQ(fake().last("hipMemcpyAsync").args[3], uint64_t(hipMemcpyDefault));
  EXPECT_EQ(fake().last("hipMemcpyAsync").args[4], bits(stream));
  EXPECT_EQ(fake().last("hipMemsetD32").args[1], 0xDEADBEEFu);
  EXPECT_EQ(fake().last("hipMemsetD32Async").args[3], bits(stream));
  EXPECT_EQ(fake().last("hipMemsetD16").args[2], 32u);
  EXPECT_EQ(fake().last("hipMemsetD16Async").args[3], bits(stream));
  mgpuStreamSynchronize(stream);
  mgpuMemFree(ptr, nullptr);
  mgpuStreamDestroy(stream);
}

} // namespace
