//===----------------------------------------------------------------------===//
// CUDA runtime against the fake driver, in the test process: which driver
// calls each mgpu* call makes, with which arguments. Module loading and the
// per-module kernel cache, the fatbin entry each chip loads, JIT options,
// launch pass-through, the dynamic shared memory limit raised only when a
// launch needs more, allocation kinds, synchronous versus stream-ordered copies
// and fills, the extent of a registered memref, managed memory hints (the
// CUDA 12.2 entry points, their locations, synchronous without a stream),
// streams and events, the context made current once per thread. (Errors and
// first-use behaviour: CUDARuntimeDeathTest.cpp.)
//===----------------------------------------------------------------------===//

#include "CUDARuntimeTestSupport.h"
#include "DriverTypes.h"
#include "Fatbin.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace gpumem_cuda_test;

namespace {

using CUDARuntimeFake = CUDARuntimeFakeTest;

TEST_F(CUDARuntimeFake, ModuleLoadAndCachedKernelLookup) {
  const char image[] = "fake cubin: kernel_a kernel_b";
  void *module = loadFakeModule(image);
  ASSERT_NE(module, nullptr);
  ASSERT_EQ(fake().count("cuModuleLoadData"), 1);
  EXPECT_STREQ(fake().last("cuModuleLoadData").text, image);
  EXPECT_EQ(fake().last("cuModuleLoadData").args[1], bits(image));

  void *a = mgpuModuleGetFunction(module, "kernel_a");
  ASSERT_NE(a, nullptr);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(mgpuModuleGetFunction(module, "kernel_a"), a);
  // The cache is keyed by the name, not by where the name is stored.
  std::string name = "kernel_b";
  void *b = mgpuModuleGetFunction(module, name.c_str());
  EXPECT_NE(b, a);
  std::string again = std::string("kernel_") + "b";
  EXPECT_EQ(mgpuModuleGetFunction(module, again.c_str()), b);
  EXPECT_EQ(fake().count("cuModuleGetFunction"), 2);
  // Two attributes read per kernel, once.
  EXPECT_EQ(fake().count("cuFuncGetAttribute"), 4);

  // Another module has its own kernels.
  void *other = loadFakeModule(image);
  EXPECT_NE(other, module);
  EXPECT_NE(mgpuModuleGetFunction(other, "kernel_a"), a);
  EXPECT_EQ(fake().count("cuModuleGetFunction"), 3);

  mgpuModuleUnload(module);
  mgpuModuleUnload(other);
  mgpuModuleUnload(nullptr);
  EXPECT_EQ(fake().count("cuModuleUnload"), 2);
}

TEST_F(CUDARuntimeFake, ModuleLoadJITPassesLogBufferAndOptimizationLevel) {
  const char ptx[] =
      ".version 6.0\n.target sm_50\n.visible .entry jit_kernel()\n"
      "{\n\tret;\n}\n";
  void *module = mgpuModuleLoadJIT(const_cast<char *>(ptx), 3);
  ASSERT_NE(module, nullptr);
  FakeCudaCall call = fake().last("cuModuleLoadDataEx");
  EXPECT_EQ(call.args[0], 3u) << "number of JIT options";
  EXPECT_EQ(call.args[1], 3u) << "CU_JIT_OPTIMIZATION_LEVEL";
  EXPECT_EQ(call.args[2], 1u) << "error log buffer and its size passed";
  EXPECT_GE(call.args[3], 4096u) << "error log buffer size";
  EXPECT_EQ(call.args[4], bits(ptx));
  EXPECT_EQ(fake().count("cuModuleLoadData"), 0);
  EXPECT_NE(mgpuModuleGetFunction(module, "jit_kernel"), nullptr);
  mgpuModuleUnload(module);
}

/// Loads `fatbin` on a fake device of compute capability major.minor;
/// returns "sm_NN cubin" or "sm_NN PTX", the entry the fake driver loaded
/// (with " compressed" when it was), and unloads the module.
std::string fatbinEntryLoaded(std::vector<unsigned char> &fatbin, int major,
                              int minor, const char *kernel = nullptr) {
  fake().SetComputeCapability(major, minor);
  void *module = mgpuModuleLoad(fatbin.data(), fatbin.size());
  FakeCudaCall call = fake().last("cuModuleLoadData");
  if (kernel) {
    EXPECT_NE(mgpuModuleGetFunction(module, kernel), nullptr);
  }
  mgpuModuleUnload(module);
  fake().SetComputeCapability(9, 0);
  return "sm_" + std::to_string(call.args[3]) +
         (call.args[2] == 2   ? " cubin"
          : call.args[2] == 1 ? " PTX"
                              : " none") +
         (call.args[4] ? " compressed" : "");
}

TEST_F(CUDARuntimeFake, FatbinLoadsTheEntryADriverWould) {
  // sm_80 and sm_90 cubins, sm_90 PTX: each device gets the cubin of its
  // major revision with the highest minor not above its own, else the PTX.
  std::vector<unsigned char> fatbin = sm80sm90Fatbin();
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 9, 0, "kernel_sm90_cubin"),
            "sm_90 cubin");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 8, 0, "kernel_sm80_cubin"),
            "sm_80 cubin");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 8, 6, "kernel_sm80_cubin"),
            "sm_80 cubin");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 8, 9), "sm_80 cubin");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 10, 0, "kernel_sm90_ptx"), "sm_90 PTX");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 12, 0), "sm_90 PTX");
  EXPECT_STREQ(fake().last("cuModuleLoadData").text,
               "fatbin: sm_80 cubin, sm_90 cubin, sm_90 PTX");
  EXPECT_EQ(fake().last("cuModuleLoadData").args[1], bits(fatbin.data()));

  // The order of the entries does not matter; the closest cubin wins, and
  // a cubin wins over PTX made for the device itself.
  std::vector<unsigned char> reversed =
      makeFatbin({{1, 86, "ptx86"}, {2, 86, "cubin86"}, {2, 80, "cubin80"}});
  EXPECT_EQ(fatbinEntryLoaded(reversed, 8, 9), "sm_86 cubin");
  EXPECT_EQ(fatbinEntryLoaded(reversed, 8, 6), "sm_86 cubin");
  EXPECT_EQ(fatbinEntryLoaded(reversed, 8, 0), "sm_80 cubin");
  EXPECT_EQ(fatbinEntryLoaded(reversed, 9, 0), "sm_86 PTX");
}

TEST_F(CUDARuntimeFake, FatbinArchSpecificAndCompressedEntries) {
  // An sm_90a image runs on 9.0 only; newer chips JIT the sm_80 PTX.
  std::vector<unsigned char> fatbin = makeFatbin(
      {{2, 90, "a", 0x100000}, {1, 90, "a", 0x100000}, {1, 80, "ptx80"}});
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 9, 0), "sm_90 cubin");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 10, 0), "sm_80 PTX");
  EXPECT_STREQ(fake().last("cuModuleLoadData").text,
               "fatbin: sm_90a cubin, sm_90a PTX, sm_80 PTX");

  // The fake does not decompress a payload (CUDA 13's fatbinary compresses
  // PTX by default): the module has every kernel.
  std::vector<unsigned char> compressed =
      makeFatbin({{1, 90, "\x28\xb5\x2f\xfd zstd", 0x8000}});
  EXPECT_EQ(fatbinEntryLoaded(compressed, 9, 0, "any_kernel"),
            "sm_90 PTX compressed");
}

/// The first fatbin in `file`; empty when there is none.
std::vector<unsigned char> firstFatbin(const std::vector<unsigned char> &file) {
  std::vector<gpumem::cuda::FatbinEntry> entries;
  for (size_t at = 0; at + 16 <= file.size(); ++at) {
    if (!gpumem::cuda::readFatbin(file.data() + at, file.size() - at,
                                  entries) ||
        entries.empty())
      continue;
    uint64_t size = 0;
    std::memcpy(&size, file.data() + at + 8, sizeof(size));
    return std::vector<unsigned char>(
        file.begin() + at,
        file.begin() + at + std::min<uint64_t>(16 + size, file.size() - at));
  }
  return {};
}

// A fatbin fatbinary packed for gpumem: test/Target/CUDA/fatbin-driver-
// choice.test runs this with GPUMEM_TEST_FATBIN set to an executable of
// gpumem-compile --target=cuda --chip=sm_80,sm_90.
TEST_F(CUDARuntimeFake, FatbinOfGpumemCompile) {
  const char *path = std::getenv("GPUMEM_TEST_FATBIN");
  if (!path)
    GTEST_SKIP() << "GPUMEM_TEST_FATBIN is not set";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::vector<unsigned char> fatbin = firstFatbin(std::vector<unsigned char>(
      std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()));
  ASSERT_FALSE(fatbin.empty()) << "no fatbin in " << path;
  // First, while the runtime in the death test's fresh process has not
  // read the device's compute capability yet.
  EXPECT_EXIT(
      {
        fake().SetComputeCapability(7, 5);
        mgpuModuleLoad(fatbin.data(), fatbin.size());
      },
      ::testing::ExitedWithCode(1),
      R"(on device 0 \(sm_75\): CUDA_ERROR_NO_BINARY_FOR_GPU: .*; the module )"
      R"(is a fatbin of sm_80 cubin, sm_90 cubin, sm_90 PTX
$)");
  // fatbinary compresses the PTX, not the cubins.
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 9, 0), "sm_90 cubin");
  EXPECT_STREQ(fake().last("cuModuleLoadData").text,
               "fatbin: sm_80 cubin, sm_90 cubin, sm_90 PTX");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 8, 0), "sm_80 cubin");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 8, 6), "sm_80 cubin");
  EXPECT_EQ(fatbinEntryLoaded(fatbin, 10, 0), "sm_90 PTX compressed");
}

TEST_F(CUDARuntimeFake, LaunchPassesEverythingThrough) {
  void *module = loadFakeModule("pass_through_kernel");
  void *function = mgpuModuleGetFunction(module, "pass_through_kernel");
  uint64_t cuFunction = fake().last("cuModuleGetFunction").args[0];
  void *stream = mgpuStreamCreate();
  int32_t n = 7;
  float *data = nullptr;
  void *params[] = {&n, &data};
  void *extra[] = {nullptr};
  mgpuLaunchKernel(function, 3, 5, 7, 32, 4, 2, 1000, stream, params, extra, 2);
  FakeCudaCall call = fake().last("cuLaunchKernel");
  EXPECT_STREQ(call.text, "pass_through_kernel");
  EXPECT_EQ(call.args[0], cuFunction);
  EXPECT_EQ(std::vector<uint64_t>(call.args + 1, call.args + 8),
            (std::vector<uint64_t>{3, 5, 7, 32, 4, 2, 1000}));
  EXPECT_EQ(call.args[8], bits(stream));
  EXPECT_EQ(call.args[9], bits(params));
  EXPECT_EQ(call.args[10], bits(extra));

  mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  call = fake().last("cuLaunchKernel");
  EXPECT_EQ(std::vector<uint64_t>(call.args + 1, call.args + 11),
            (std::vector<uint64_t>{1, 1, 1, 1, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(fake().count("cuLaunchKernel"), 2);
  EXPECT_EQ(fake().count("cuFuncSetAttribute"), 0);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
}

TEST_F(CUDARuntimeFake, DynamicSharedMemoryLimitRaisedOnlyWhenNeeded) {
  void *module = loadFakeModule("grow_shrink_kernel");
  void *function = mgpuModuleGetFunction(module, "grow_shrink_kernel");
  uint64_t cuFunction = fake().last("cuModuleGetFunction").args[0];
  // Up to 48 KiB needs nothing; then the limit follows the largest launch.
  for (int32_t smem : {0, 1024, 49152, 65536, 50000, 65536, 4096, 100000, 99999,
                       100000, 0, 232448})
    mgpuLaunchKernel(function, 1, 1, 1, 64, 1, 1, smem, nullptr, nullptr,
                     nullptr, 0);
  EXPECT_EQ(fake().count("cuLaunchKernel"), 12);
  std::vector<FakeCudaCall> raised = fake().calls("cuFuncSetAttribute");
  ASSERT_EQ(raised.size(), 3u);
  std::vector<uint64_t> values;
  for (const FakeCudaCall &call : raised) {
    EXPECT_EQ(call.args[0], cuFunction);
    EXPECT_EQ(
        call.args[1],
        uint64_t(
            gpumem::cuda::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
    values.push_back(call.args[2]);
  }
  EXPECT_EQ(values, (std::vector<uint64_t>{65536, 100000, 232448}));
  mgpuModuleUnload(module);
}

TEST_F(CUDARuntimeFake, DynamicSharedLimitAccountsForStaticSharedMemory) {
  fake().SetStaticSharedBytes("static_kernel", 8192);
  void *module = loadFakeModule("static_kernel");
  void *function = mgpuModuleGetFunction(module, "static_kernel");
  auto launch = [&](int32_t smem) {
    mgpuLaunchKernel(function, 2, 1, 1, 128, 1, 1, smem, nullptr, nullptr,
                     nullptr, 0);
  };
  launch(40960); // 48 KiB - 8 KiB: the default limit
  EXPECT_EQ(fake().count("cuFuncSetAttribute"), 0);
  launch(40961);
  launch(232448 - 8192); // all the opt-in maximum leaves
  std::vector<FakeCudaCall> raised = fake().calls("cuFuncSetAttribute");
  ASSERT_EQ(raised.size(), 2u);
  EXPECT_EQ(raised[0].args[2], 40961u);
  EXPECT_EQ(raised[1].args[2], 224256u);
  mgpuModuleUnload(module);
}

TEST_F(CUDARuntimeFake, AllocationKinds) {
  void *stream = mgpuStreamCreate();
  void *device = mgpuMemAlloc(256, nullptr, false);
  FakeCudaCall call = fake().last("cuMemAlloc_v2");
  EXPECT_EQ(call.args[0], bits(device));
  EXPECT_EQ(call.args[1], 256u);

  void *ordered = mgpuMemAlloc(512, stream, false);
  call = fake().last("cuMemAllocAsync");
  EXPECT_EQ(call.args[0], bits(ordered));
  EXPECT_EQ(call.args[1], 512u);
  EXPECT_EQ(call.args[2], bits(stream));

  void *managed = mgpuMemAlloc(1024, nullptr, true);
  call = fake().last("cuMemAllocManaged");
  EXPECT_EQ(call.args[0], bits(managed));
  EXPECT_EQ(call.args[1], 1024u);
  EXPECT_EQ(call.args[2], uint64_t(gpumem::cuda::CU_MEM_ATTACH_GLOBAL));
  // Host-shared memory is managed memory on a stream too.
  void *managedToo = mgpuMemAlloc(64, stream, true);
  EXPECT_EQ(fake().last("cuMemAllocManaged").args[0], bits(managedToo));
  EXPECT_EQ(fake().count("cuMemAllocManaged"), 2);
  EXPECT_EQ(fake().count("cuMemAllocAsync"), 1);
  EXPECT_EQ(fake().count("cuMemAlloc_v2"), 1);

  // Zero bytes: null, as upstream; nothing asked of the driver.
  int before = fake().CallLogSize();
  EXPECT_EQ(mgpuMemAlloc(0, nullptr, false), nullptr);
  EXPECT_EQ(mgpuMemAlloc(0, stream, true), nullptr);
  mgpuMemFree(nullptr, stream);
  mgpuMemFree(nullptr, nullptr);
  EXPECT_EQ(fake().CallLogSize(), before);

  mgpuMemFree(ordered, stream);
  call = fake().last("cuMemFreeAsync");
  EXPECT_EQ(call.args[0], bits(ordered));
  EXPECT_EQ(call.args[1], bits(stream));
  mgpuMemFree(device, nullptr);
  EXPECT_EQ(fake().last("cuMemFree_v2").args[0], bits(device));
  mgpuMemFree(managed, nullptr);
  mgpuMemFree(managedToo, nullptr);
  EXPECT_EQ(fake().count("cuMemFree_v2"), 3);
  EXPECT_EQ(fake().count("cuMemFreeAsync"), 1);

  // Memory cuMemAllocAsync did not return, freed on a stream: the stream is
  // waited for, then cuMemFree; never cuMemFreeAsync.
  void *managedOnStream = mgpuMemAlloc(256, stream, true);
  int synchronizes = fake().count("cuStreamSynchronize");
  mgpuMemFree(managedOnStream, stream);
  EXPECT_EQ(fake().count("cuStreamSynchronize"), synchronizes + 1);
  EXPECT_EQ(fake().last("cuStreamSynchronize").args[0], bits(stream));
  EXPECT_EQ(fake().last("cuMemFree_v2").args[0], bits(managedOnStream));
  EXPECT_EQ(fake().count("cuMemFree_v2"), 4);
  EXPECT_EQ(fake().count("cuMemFreeAsync"), 1);
  mgpuStreamDestroy(stream);
}

TEST_F(CUDARuntimeFake, CopiesAndFillsAreSynchronousOnlyWithoutAStream) {
  void *stream = mgpuStreamCreate();
  auto *buffer = static_cast<uint32_t *>(mgpuMemAlloc(64 * 4, nullptr, false));
  mgpuMemset32(buffer, 0xDEADBEEFu, 64, nullptr);
  FakeCudaCall call = fake().last("cuMemsetD32_v2");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 3),
            (std::vector<uint64_t>{bits(buffer), 0xDEADBEEFu, 64}));
  mgpuMemset32(buffer + 1, 7, 3, stream);
  call = fake().last("cuMemsetD32Async");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 4),
            (std::vector<uint64_t>{bits(buffer + 1), 7, 3, bits(stream)}));
  auto *halves = reinterpret_cast<uint16_t *>(buffer + 8);
  mgpuMemset16(halves, 0xBEEF, 5, nullptr);
  call = fake().last("cuMemsetD16_v2");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 3),
            (std::vector<uint64_t>{bits(halves), 0xBEEF, 5}));
  mgpuMemset16(halves + 5, 0x1234, 1, stream);
  call = fake().last("cuMemsetD16Async");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 4),
            (std::vector<uint64_t>{bits(halves + 5), 0x1234, 1, bits(stream)}));

  std::vector<uint32_t> host(64, 0);
  mgpuMemcpy(host.data(), buffer, 64 * 4, nullptr);
  call = fake().last("cuMemcpy");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 3),
            (std::vector<uint64_t>{bits(host.data()), bits(buffer), 256}));
  EXPECT_EQ(host[0], 0xDEADBEEFu);
  EXPECT_EQ(host[1], 7u);
  EXPECT_EQ(host[3], 7u);
  EXPECT_EQ(host[4], 0xDEADBEEFu);
  EXPECT_EQ(host[8], 0xBEEFBEEFu);
  EXPECT_EQ(host[10], 0x1234BEEFu);
  EXPECT_EQ(host[11], 0xDEADBEEFu);

  std::vector<uint32_t> pattern(64);
  for (uint32_t i = 0; i < 64; ++i)
    pattern[i] = i * i;
  mgpuMemcpy(buffer, pattern.data(), 64 * 4, stream);
  call = fake().last("cuMemcpyAsync");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 4),
            (std::vector<uint64_t>{bits(buffer), bits(pattern.data()), 256,
                                   bits(stream)}));
  mgpuStreamSynchronize(stream);
  mgpuMemcpy(host.data(), buffer, 64 * 4, nullptr);
  EXPECT_EQ(host, pattern);
  EXPECT_EQ(fake().count("cuMemcpy"), 2);
  EXPECT_EQ(fake().count("cuMemcpyAsync"), 1);

  // Nothing to copy or fill: no driver call.
  int before = fake().CallLogSize();
  mgpuMemcpy(nullptr, nullptr, 0, stream);
  mgpuMemset32(buffer, 1, 0, nullptr);
  mgpuMemset16(buffer, 1, 0, stream);
  EXPECT_EQ(fake().CallLogSize(), before);
  mgpuMemFree(buffer, nullptr);
  mgpuStreamDestroy(stream);
}

/// A ranked memref descriptor as compiled code passes it.
template <int Rank> struct MemRef {
  float *allocated, *aligned;
  int64_t offset, sizes[Rank], strides[Rank];
};

struct Registration {
  uint64_t start, bytes;
};

/// Registers and unregisters `descriptor`; what the driver was asked.
template <typename Descriptor>
Registration registerAndUnregister(int64_t rank, Descriptor &descriptor,
                                   int64_t elementBytes = 4) {
  fake().Reset();
  mgpuMemHostRegisterMemRef(rank, &descriptor, elementBytes);
  std::vector<FakeCudaCall> registered = fake().calls("cuMemHostRegister_v2");
  mgpuMemHostUnregisterMemRef(rank, &descriptor, elementBytes);
  std::vector<FakeCudaCall> unregistered = fake().calls("cuMemHostUnregister");
  if (registered.empty()) {
    EXPECT_TRUE(unregistered.empty());
    return {0, 0};
  }
  EXPECT_EQ(registered.size(), 1u);
  EXPECT_EQ(registered[0].args[2],
            uint64_t(gpumem::cuda::CU_MEMHOSTREGISTER_PORTABLE));
  EXPECT_EQ(unregistered.size(), 1u);
  if (!unregistered.empty()) {
    EXPECT_EQ(unregistered[0].args[0], registered[0].args[0]);
  }
  return {registered[0].args[0], registered[0].args[1]};
}

TEST_F(CUDARuntimeFake, HostRegisterMemRefCoversTheDescriptorsExtent) {
  std::vector<float> data(64);
  float *base = data.data();
  auto at = [&](int64_t element) { return bits(base + element); };

  MemRef<2> dense = {base, base, 0, {2, 3}, {3, 1}};
  Registration r = registerAndUnregister(2, dense);
  EXPECT_EQ(r.start, at(0));
  EXPECT_EQ(r.bytes, 24u); // upstream's sizes[0] * strides[0] * 4

  MemRef<2> offset = {base, base, 5, {2, 3}, {3, 1}};
  r = registerAndUnregister(2, offset);
  EXPECT_EQ(r.start, at(5));
  EXPECT_EQ(r.bytes, 24u);

  // A 2x3 window of a 2x8 array: from (0,0) to (1,2), 11 elements.
  MemRef<2> window = {base, base, 1, {2, 3}, {8, 1}};
  r = registerAndUnregister(2, window);
  EXPECT_EQ(r.start, at(1));
  EXPECT_EQ(r.bytes, 44u);

  // Reversed: elements 3, 2, 1, 0.
  MemRef<1> reversed = {base, base, 3, {4}, {-1}};
  r = registerAndUnregister(1, reversed);
  EXPECT_EQ(r.start, at(0));
  EXPECT_EQ(r.bytes, 16u);

  // Broadcast rows: every row is the same 3 elements.
  MemRef<2> broadcast = {base, base, 2, {4, 3}, {0, 1}};
  r = registerAndUnregister(2, broadcast);
  EXPECT_EQ(r.start, at(2));
  EXPECT_EQ(r.bytes, 12u);

  // 3-D, 8-byte elements: 2x2x2 in a 4x4x4 array of doubles.
  std::vector<double> doubles(64);
  struct {
    double *allocated, *aligned;
    int64_t offset, sizes[3], strides[3];
  } cube = {doubles.data(), doubles.data() + 1, 4, {2, 2, 2}, {16, 4, 1}};
  r = registerAndUnregister(3, cube, 8);
  EXPECT_EQ(r.start, bits(doubles.data() + 5));
  EXPECT_EQ(r.bytes, (16 + 4 + 1 + 1) * 8u);

  // Rank 0: one element.
  struct {
    float *allocated, *aligned;
    int64_t offset;
  } scalar = {base, base, 2};
  r = registerAndUnregister(0, scalar);
  EXPECT_EQ(r.start, at(2));
  EXPECT_EQ(r.bytes, 4u);

  // No elements: nothing to register.
  MemRef<2> empty = {base, base, 0, {0, 3}, {3, 1}};
  r = registerAndUnregister(2, empty);
  EXPECT_EQ(r.bytes, 0u);

  // Plain pointer and size.
  fake().Reset();
  mgpuMemHostRegister(base, 100);
  FakeCudaCall call = fake().last("cuMemHostRegister_v2");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 3),
            (std::vector<uint64_t>{bits(base), 100,
                                   gpumem::cuda::CU_MEMHOSTREGISTER_PORTABLE}));
  mgpuMemHostUnregister(base);
  EXPECT_EQ(fake().last("cuMemHostUnregister").args[0], bits(base));
}

TEST_F(CUDARuntimeFake, ManagedMemoryHints) {
  using namespace gpumem::cuda;
  auto *managed = static_cast<char *>(mgpuMemAlloc(4096, nullptr, true));
  void *stream = mgpuStreamCreate();
  // The first hint reads whether the device takes them, once per process.
  gpumemMemPrefetch(managed, 4096, GPUMEM_PREFETCH_TO_DEVICE, stream);
  fake().Reset();

  gpumemMemPrefetch(managed, 4096, GPUMEM_PREFETCH_TO_DEVICE, stream);
  EXPECT_EQ(fake().symbols(),
            std::vector<std::string>{"cuMemPrefetchAsync_v2"});
  FakeCudaCall call = fake().last("cuMemPrefetchAsync_v2");
  EXPECT_EQ(
      std::vector<uint64_t>(call.args, call.args + 6),
      (std::vector<uint64_t>{bits(managed), 4096, CU_MEM_LOCATION_TYPE_DEVICE,
                             0, 0, bits(stream)}));

  // Without a stream: on the null stream, waited for.
  fake().Reset();
  gpumemMemPrefetch(managed + 1024, 512, GPUMEM_PREFETCH_TO_HOST, nullptr);
  EXPECT_EQ(fake().symbols(),
            (std::vector<std::string>{"cuMemPrefetchAsync_v2",
                                      "cuStreamSynchronize"}));
  call = fake().last("cuMemPrefetchAsync_v2");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 6),
            (std::vector<uint64_t>{bits(managed + 1024), 512,
                                   CU_MEM_LOCATION_TYPE_HOST, 0, 0, 0}));
  EXPECT_EQ(fake().last("cuStreamSynchronize").args[0], 0u);

  // Every advice, with its location: (advice, location type).
  const std::vector<std::pair<int32_t, std::vector<uint64_t>>> advices = {
      {GPUMEM_ADVISE_READ_MOSTLY,
       {CU_MEM_ADVISE_SET_READ_MOSTLY, CU_MEM_LOCATION_TYPE_DEVICE}},
      {GPUMEM_ADVISE_UNSET_READ_MOSTLY,
       {CU_MEM_ADVISE_UNSET_READ_MOSTLY, CU_MEM_LOCATION_TYPE_DEVICE}},
      {GPUMEM_ADVISE_PREFERRED_LOCATION_DEVICE,
       {CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_MEM_LOCATION_TYPE_DEVICE}},
      {GPUMEM_ADVISE_PREFERRED_LOCATION_HOST,
       {CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_MEM_LOCATION_TYPE_HOST}},
      {GPUMEM_ADVISE_UNSET_PREFERRED_LOCATION,
       {CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, CU_MEM_LOCATION_TYPE_DEVICE}},
      {GPUMEM_ADVISE_ACCESSED_BY_DEVICE,
       {CU_MEM_ADVISE_SET_ACCESSED_BY, CU_MEM_LOCATION_TYPE_DEVICE}},
      {GPUMEM_ADVISE_UNSET_ACCESSED_BY_DEVICE,
       {CU_MEM_ADVISE_UNSET_ACCESSED_BY, CU_MEM_LOCATION_TYPE_DEVICE}},
  };
  for (const auto &[advice, expected] : advices) {
    fake().Reset();
    gpumemMemAdvise(managed + 64, 128, advice);
    ASSERT_EQ(fake().symbols(), std::vector<std::string>{"cuMemAdvise_v2"})
        << advice;
    call = fake().last("cuMemAdvise_v2");
    EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 5),
              (std::vector<uint64_t>{bits(managed + 64), 128, expected[0],
                                     expected[1], 0}))
        << advice;
  }

  // Nothing to move or advise: no driver call.
  fake().Reset();
  gpumemMemPrefetch(managed, 0, GPUMEM_PREFETCH_TO_DEVICE, nullptr);
  gpumemMemAdvise(managed, 0, GPUMEM_ADVISE_READ_MOSTLY);
  EXPECT_EQ(fake().CallLogSize(), 0);

  mgpuMemFree(managed, nullptr);
  mgpuStreamDestroy(stream);
}

TEST_F(CUDARuntimeFake, StreamsAndEvents) {
  void *stream = mgpuStreamCreate();
  FakeCudaCall call = fake().last("cuStreamCreate");
  EXPECT_EQ(call.args[0], bits(stream));
  EXPECT_EQ(call.args[1], uint64_t(gpumem::cuda::CU_STREAM_NON_BLOCKING));
  void *other = mgpuStreamCreate();
  void *event = mgpuEventCreate();
  call = fake().last("cuEventCreate");
  EXPECT_EQ(call.args[0], bits(event));
  EXPECT_EQ(call.args[1], uint64_t(gpumem::cuda::CU_EVENT_DISABLE_TIMING));

  mgpuEventRecord(event, stream);
  call = fake().last("cuEventRecord");
  EXPECT_EQ(call.args[0], bits(event));
  EXPECT_EQ(call.args[1], bits(stream));
  mgpuStreamWaitEvent(other, event);
  call = fake().last("cuStreamWaitEvent");
  EXPECT_EQ(std::vector<uint64_t>(call.args, call.args + 3),
            (std::vector<uint64_t>{bits(other), bits(event), 0}));
  mgpuEventSynchronize(event);
  EXPECT_EQ(fake().last("cuEventSynchronize").args[0], bits(event));
  mgpuStreamSynchronize(other);
  EXPECT_EQ(fake().last("cuStreamSynchronize").args[0], bits(other));
  mgpuStreamSynchronize(nullptr);
  EXPECT_EQ(fake().last("cuStreamSynchronize").args[0], 0u);

  mgpuEventDestroy(event);
  EXPECT_EQ(fake().last("cuEventDestroy_v2").args[0], bits(event));
  mgpuStreamDestroy(other);
  mgpuStreamDestroy(stream);
  EXPECT_EQ(fake().last("cuStreamDestroy_v2").args[0], bits(stream));
  int before = fake().CallLogSize();
  mgpuStreamDestroy(nullptr);
  mgpuEventDestroy(nullptr);
  EXPECT_EQ(fake().CallLogSize(), before);
}

TEST_F(CUDARuntimeFake, ContextIsMadeCurrentOncePerThread) {
  mgpuMemFree(mgpuMemAlloc(16, nullptr, false), nullptr);
  int before = fake().count("cuCtxSetCurrent");
  for (int i = 0; i < 3; ++i)
    mgpuMemFree(mgpuMemAlloc(16, nullptr, false), nullptr);
  EXPECT_EQ(fake().count("cuCtxSetCurrent"), before);
  // The fake fails allocations on a thread without a current context.
  std::thread other([] {
    for (int i = 0; i < 3; ++i)
      mgpuMemFree(mgpuMemAlloc(16, nullptr, false), nullptr);
  });
  other.join();
  EXPECT_EQ(fake().count("cuCtxSetCurrent"), before + 1);
  EXPECT_NE(fake().last("cuCtxSetCurrent").args[0], 0u);
}

} // namespace
