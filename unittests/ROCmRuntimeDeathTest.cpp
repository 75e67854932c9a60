//===----------------------------------------------------------------------===//
// rocm runtime: its first use and every error that stops the program, each
// in a fresh process (GoogleTest death tests, re-executed), against the
// fake HIP unless the test is about not finding one. Errors assert the
// exact message and exit code 1; first-use checks (which HIP calls set the
// runtime up, on which device) exit 0 with nothing on stderr. Release calls
// after HIP has shut down, as at exit, must stay quiet.
//===----------------------------------------------------------------------===//

#include "HIPTypes.h"
#include "ROCmRuntimeTestSupport.h"

#include "gpumem/Runtime/OffloadBundle.h"
#include "gpumem/Runtime/TargetSelection.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace gpumem_rocm_test;
using namespace gpumem::rocm;
using ::testing::ExitedWithCode;

namespace {

using ROCmRuntimeInitDeathTest = ROCmRuntimeFakeTest;
using ROCmRuntimeDeathTest = ROCmRuntimeFakeTest;

void useNoHIP() {
  setenv("GPUMEM_HIP_LIBRARY", "/nonexistent/libamdhip64.so.5", 1);
}

//--- Finding HIP and a device ----------------------------------------------//

TEST_F(ROCmRuntimeInitDeathTest, NoHIPFailsEveryEntryPoint) {
  const char *expected =
      R"(^gpumem: error: no HIP runtime found \(/nonexistent/libamdhip64\.so\.5\): )"
      R"(/nonexistent/libamdhip64\.so\.5: cannot open shared object file: No )"
      R"(such file or directory; the rocm runtime needs HIP 5\.2 or newer )"
      R"(\(Debian: libamdhip64-5\)
$)";
  static char host[64];
  static void *fakeHandle = host;
  int64_t descriptor[] = {int64_t(uintptr_t(host)), int64_t(uintptr_t(host)), 0,
                          4, 1};
  // Every entry point, with arguments that make it do something.
  const std::vector<std::pair<const char *, std::function<void()>>> calls = {
      {"mgpuModuleLoad", [] { loadFakeModule("kernel"); }},
      {"mgpuModuleLoadJIT", [] { mgpuModuleLoadJIT(host, 2); }},
      {"mgpuModuleUnload", [] { mgpuModuleUnload(fakeHandle); }},
      {"mgpuStreamCreate", [] { mgpuStreamCreate(); }},
      {"mgpuStreamDestroy", [] { mgpuStreamDestroy(fakeHandle); }},
      {"mgpuStreamSynchronize", [] { mgpuStreamSynchronize(nullptr); }},
      {"mgpuStreamWaitEvent", [] { mgpuStreamWaitEvent(nullptr, fakeHandle); }},
      {"mgpuEventCreate", [] { mgpuEventCreate(); }},
      {"mgpuEventDestroy", [] { mgpuEventDestroy(fakeHandle); }},
      {"mgpuEventSynchronize", [] { mgpuEventSynchronize(fakeHandle); }},
      {"mgpuEventRecord", [] { mgpuEventRecord(fakeHandle, nullptr); }},
      {"mgpuMemAlloc", [] { mgpuMemAlloc(16, nullptr, false); }},
      {"mgpuMemAlloc(host shared)", [] { mgpuMemAlloc(16, nullptr, true); }},
      {"mgpuMemFree", [] { mgpuMemFree(host, nullptr); }},
      {"mgpuMemcpy", [] { mgpuMemcpy(host, host + 32, 16, nullptr); }},
      {"mgpuMemset32", [] { mgpuMemset32(host, 1, 4, nullptr); }},
      {"mgpuMemset16", [] { mgpuMemset16(host, 1, 4, nullptr); }},
      {"mgpuMemHostRegister", [] { mgpuMemHostRegister(host, 16); }},
      {"mgpuMemHostRegisterMemRef",
       [&descriptor] { mgpuMemHostRegisterMemRef(1, descriptor, 4); }},
      {"mgpuMemHostUnregister", [] { mgpuMemHostUnregister(host); }},
      {"mgpuMemHostUnregisterMemRef",
       [&descriptor] { mgpuMemHostUnregisterMemRef(1, descriptor, 4); }},
      {"mgpuSetDefaultDevice", [] { mgpuSetDefaultDevice(0); }},
      {"gpumemMemPrefetch",
       [] { gpumemMemPrefetch(host, 16, GPUMEM_PREFETCH_TO_DEVICE, nullptr); }},
      {"gpumemMemAdvise",
       [] { gpumemMemAdvise(host, 16, GPUMEM_ADVISE_READ_MOSTLY); }},
  };
  for (const auto &[name, call] : calls) {
    SCOPED_TRACE(name);
    EXPECT_EXIT(
        {
          useNoHIP();
          call();
        },
        ExitedWithCode(1), expected);
  }
  // Module and kernel handles come from mgpuModuleLoad, so a lookup or a
  // launch without HIP cannot happen; their null checks come first.
  EXPECT_EXIT(
      {
        useNoHIP();
        mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                         nullptr, 0);
      },
      ExitedWithCode(1), "^gpumem: error: mgpuLaunchKernel: null kernel\n$");
  EXPECT_EXIT(
      {
        useNoHIP();
        mgpuModuleGetFunction(nullptr, "kernel");
      },
      ExitedWithCode(1),
      "^gpumem: error: mgpuModuleGetFunction: null module \\(looking for "
      "kernel 'kernel'\\)\n$");
}

TEST_F(ROCmRuntimeInitDeathTest, NoHIPAtTheDefaultPath) {
  if (void *library = dlopen("libamdhip64.so.5", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(library);
    GTEST_SKIP() << "this machine has libamdhip64.so.5";
  }
  // An empty GPUMEM_HIP_LIBRARY counts as unset.
  EXPECT_EXIT(
      {
        setenv("GPUMEM_HIP_LIBRARY", "", 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: no HIP runtime found \(libamdhip64\.so\.5\): )"
      R"(libamdhip64\.so\.5: cannot open shared object file: No such file or )"
      R"(directory; the rocm runtime needs HIP 5\.2 or newer \(Debian: )"
      R"(libamdhip64-5\)
$)");
}

TEST_F(ROCmRuntimeInitDeathTest, NoDevice) {
  std::string expected =
      std::string(R"(^gpumem: error: no AMD GPU found \(HIP runtime )") +
      GPUMEM_FAKE_HIP +
      R"(\); the rocm target needs a GPU that ROCm )"
      R"(supports, with the amdgpu kernel driver loaded )"
      R"(and /dev/kfd accessible
$)";
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(0);
        mgpuStreamCreate();
      },
      ExitedWithCode(1), expected);
}

/// Prints what gpumemRuntimeProbe answers, "<kind> <detail>", and exits 0:
/// the probe never ends the process itself.
[[noreturn]] void printProbe() {
  char detail[512];
  int kind = gpumemRuntimeProbe(detail, sizeof(detail));
  std::fprintf(stderr, "%d %s\n", kind, detail);
  std::exit(0);
}

TEST_F(ROCmRuntimeInitDeathTest, ProbeAnswersWhereCallsWouldStop) {
  EXPECT_EXIT(
      {
        useNoHIP();
        printProbe();
      },
      ExitedWithCode(0),
      R"(^0 no HIP runtime found \(/nonexistent/libamdhip64\.so\.5\): )");
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(0);
        printProbe();
      },
      ExitedWithCode(0), "^0 no AMD GPU found \\(HIP runtime ");
  EXPECT_EXIT(printProbe(), ExitedWithCode(0), "^2 1 AMD GPU\n$");
}

TEST_F(ROCmRuntimeInitDeathTest, RealHIPWithoutAGPU) {
  void *library = dlopen("libamdhip64.so.5", RTLD_LAZY | RTLD_LOCAL);
  if (!library)
    GTEST_SKIP() << "this machine has no libamdhip64.so.5";
  dlclose(library);
  if (access("/dev/kfd", F_OK) == 0)
    GTEST_SKIP() << "this machine has /dev/kfd";
  EXPECT_EXIT(
      {
        unsetenv("GPUMEM_HIP_LIBRARY");
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: no AMD GPU found \(HIP runtime libamdhip64\.so\.5\); )"
      R"(the rocm target needs a GPU that ROCm supports, with the amdgpu )"
      R"(kernel driver loaded and /dev/kfd accessible
$)");
}

TEST_F(ROCmRuntimeInitDeathTest, InitFails) {
  // hipErrorInsufficientDriver is a code the fake's hipGetErrorName does not
  // know: the runtime names it itself.
  EXPECT_EXIT(
      {
        fake().SetInitResult(hipErrorInsufficientDriver);
        mgpuStreamCreate();
      },
      ExitedWithCode(1),
      std::string(R"(^gpumem: error: hipInit failed \(HIP runtime )") +
          GPUMEM_FAKE_HIP + R"(\): hipErrorInsufficientDriver \(35\)
$)");
  EXPECT_EXIT(
      {
        fake().SetInitResult(12345);
        mgpuStreamCreate();
      },
      ExitedWithCode(1),
      std::string(R"(^gpumem: error: hipInit failed \(HIP runtime )") +
          GPUMEM_FAKE_HIP + R"(\): HIP error 12345
$)");
}

TEST_F(ROCmRuntimeInitDeathTest, LibraryWithoutASymbol) {
  EXPECT_EXIT(
      {
        setenv("GPUMEM_HIP_LIBRARY", "libc.so.6", 1);
        mgpuStreamCreate();
      },
      ExitedWithCode(1),
      R"(^gpumem: error: the HIP runtime libc\.so\.6 has no hipInit; gpumem )"
      R"(needs HIP 5\.2 or newer
$)");
}

TEST_F(ROCmRuntimeInitDeathTest, FirstUseSetsUpDeviceZeroOnEveryThread) {
  EXPECT_IN_FRESH_PROCESS([] {
    void *stream = mgpuStreamCreate();
    require(fake().count("hipInit") == 1, "hipInit once");
    require(fake().count("hipGetDeviceCount") == 1, "hipGetDeviceCount once");
    require(fake().count("hipSetDevice") == 1, "hipSetDevice once");
    require(fake().last("hipSetDevice").args[0] == 0, "device 0");
    require(fake().last("hipDeviceGetName").args[2] == 0, "device 0's name");
    mgpuStreamSynchronize(stream);
    require(fake().count("hipSetDevice") == 1,
            "the thread's device is remembered");
    // Another thread makes the device current once, then calls in freely
    // (the fake refuses device calls on a thread without one).
    std::thread other([stream] {
      void *ptr = mgpuMemAlloc(64, stream, false);
      mgpuMemset32(ptr, 7, 16, stream);
      mgpuMemFree(ptr, stream);
    });
    other.join();
    require(fake().count("hipSetDevice") == 2, "hipSetDevice on the thread");
    mgpuStreamDestroy(stream);
  });
}

TEST_F(ROCmRuntimeInitDeathTest, DeviceFromTheEnvironment) {
  EXPECT_IN_FRESH_PROCESS([] {
    fake().SetDeviceCount(2);
    setenv("GPUMEM_ROCM_DEVICE", "1", 1);
    mgpuEventDestroy(mgpuEventCreate());
    require(fake().last("hipSetDevice").args[0] == 1, "device 1");
  });
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(2);
        setenv("GPUMEM_ROCM_DEVICE", "2", 1);
        mgpuEventCreate();
      },
      ExitedWithCode(1),
      R"(^gpumem: error: GPUMEM_ROCM_DEVICE must be a device ordinal in )"
      R"(0\.\.1, not '2'
$)");
}

TEST_F(ROCmRuntimeInitDeathTest, SetDefaultDevice) {
  EXPECT_IN_FRESH_PROCESS([] {
    fake().SetDeviceCount(3);
    mgpuSetDefaultDevice(2);
    mgpuEventCreate();
    require(fake().last("hipSetDevice").args[0] == 2, "device 2");
    mgpuSetDefaultDevice(2);
  });
  EXPECT_EXIT(mgpuSetDefaultDevice(1), ExitedWithCode(1),
              R"(^gpumem: error: mgpuSetDefaultDevice\(1\): no such device; )"
              R"(this machine has 1 AMD GPU \(ordinals 0\.\.0\)
$)");
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(2);
        mgpuEventCreate();
        mgpuSetDefaultDevice(1);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: mgpuSetDefaultDevice\(1\): the runtime already uses )"
      R"(device 0, chosen at its first call \(modules are loaded before main )"
      R"(runs\); set GPUMEM_ROCM_DEVICE=1 to choose the device before that
$)");
}

//--- Modules and launches --------------------------------------------------//

/// An ELF header for `machine`, followed by zeros.
std::vector<char> elfFor(Elf64_Half machine) {
  std::vector<char> image(256, 0);
  Elf64_Ehdr header{};
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_machine = machine;
  std::memcpy(image.data(), &header, sizeof(header));
  return image;
}

TEST_F(ROCmRuntimeDeathTest, ModulesForOtherMachines) {
  std::vector<char> host = elfFor(EM_X86_64), cubin = elfFor(EM_CUDA);
  EXPECT_EXIT(
      mgpuModuleLoad(host.data(), host.size()), ExitedWithCode(1),
      R"(^gpumem: error: mgpuModuleLoad: the module is an ELF object )"
      R"(for machine 62, not an HSA code object \(machine 224\); it is )"
      R"(a gpu\.module compiled for gpumem's cpu target: run it with )"
      R"(libgpumem_cpu_runtime\.so
$)");
  EXPECT_EXIT(mgpuModuleLoad(cubin.data(), cubin.size()), ExitedWithCode(1),
              R"(^gpumem: error: mgpuModuleLoad: the module is an ELF object )"
              R"(for machine 190, not an HSA code object \(machine 224\); it )"
              R"(is a CUDA binary: run it with libgpumem_cuda_runtime\.so
$)");
}

TEST_F(ROCmRuntimeDeathTest, HSACodeObjectsGoToHIP) {
  std::vector<char> object = elfFor(EM_AMDGPU);
  EXPECT_IN_FRESH_PROCESS([&object] {
    void *module = mgpuModuleLoad(object.data(), object.size());
    require(module != nullptr, "a module");
    require(fake().last("hipModuleLoadData").args[1] == bits(object.data()),
            "hipModuleLoadData got the object");
    mgpuModuleUnload(module);
  });
}

TEST_F(ROCmRuntimeDeathTest, ModuleLoadFails) {
  EXPECT_EXIT(
      {
        fake().Fail("hipModuleLoadData", hipErrorNoBinaryForGpu);
        loadFakeModule("kernel");
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipModuleLoadData failed for a module of 7 bytes on )"
      R"(device 0 \(Fake AMD GPU 0\): hipErrorNoBinaryForGpu: no kernel image )"
      R"(is available for execution on the device; was the gpu\.module )"
      R"(compiled for this device's chip, gfx90a:sramecc\+:xnack-\?
$)");
}

/// A bundle as gpumem-pack-amdgpu-bundle writes one: the host entry, then
/// a "code object" per chip whose bytes name the chip.
std::string bundleOf(const std::vector<std::string> &chips) {
  static std::vector<std::string> ids, codes;
  std::vector<gpumem::bundle::Entry> entries = {{gpumem::bundle::kHostId, ""}};
  ids.assign(chips.size(), "");
  codes.assign(chips.size(), "");
  for (size_t index = 0; index < chips.size(); ++index) {
    ids[index] = std::string(gpumem::bundle::kAMDGPUPrefix) + chips[index];
    codes[index] = "code object for " + chips[index];
    entries.push_back({ids[index], codes[index]});
  }
  return gpumem::bundle::write(entries);
}

TEST_F(ROCmRuntimeDeathTest, BundleLoadsTheEntryOfTheDevicesChip) {
  EXPECT_IN_FRESH_PROCESS([] {
    fake().SetArchName("gfx942:sramecc+:xnack-");
    std::string bundle = bundleOf({"gfx90a", "gfx942:xnack-", "gfx1100"});
    void *module = mgpuModuleLoad(bundle.data(), bundle.size());
    require(module != nullptr, "a module");
    FakeHipCall call = fake().last("hipModuleLoadData");
    require(std::string(call.text) == "code object for gfx942:xnack-",
            "the gfx942 entry went to HIP");
    require(call.args[1] % gpumem::bundle::kAlignment ==
                uintptr_t(bundle.data()) % gpumem::bundle::kAlignment,
            "the entry is aligned in the bundle");
    mgpuModuleUnload(module);
  });
}

TEST_F(ROCmRuntimeDeathTest, BundleGoesWholeWhenHIPDoesNotSayTheChip) {
  EXPECT_IN_FRESH_PROCESS([] {
    fake().SetArchName("");
    std::string bundle = bundleOf({"gfx90a", "gfx942"});
    void *module = mgpuModuleLoad(bundle.data(), bundle.size());
    require(fake().last("hipModuleLoadData").args[1] == bits(bundle.data()),
            "HIP got the bundle");
    mgpuModuleUnload(module);
  });
}

TEST_F(ROCmRuntimeDeathTest, BundleWithoutTheDevicesChip) {
  EXPECT_EXIT(
      {
        fake().SetArchName("gfx1100");
        std::string bundle = bundleOf({"gfx90a", "gfx942:xnack+"});
        mgpuModuleLoad(bundle.data(), bundle.size());
      },
      ExitedWithCode(1),
      R"(^gpumem: error: mgpuModuleLoad: the module holds code objects for )"
      R"(gfx90a, gfx942:xnack\+, none for device 0 \(Fake AMD GPU 0\), which )"
      R"(is gfx1100; compile for it too, for example with )"
      R"(--chip=gfx90a,gfx942,gfx1100
$)");
  // A feature the device has the other way round is another chip.
  EXPECT_EXIT(
      {
        fake().SetArchName("gfx942:sramecc+:xnack-");
        std::string bundle = bundleOf({"gfx942:xnack+"});
        mgpuModuleLoad(bundle.data(), bundle.size());
      },
      ExitedWithCode(1),
      R"(none for device 0 .*which is gfx942:sramecc\+:xnack-;)");
}

TEST_F(ROCmRuntimeDeathTest, TruncatedBundle) {
  EXPECT_EXIT(
      {
        std::string bundle = bundleOf({"gfx90a"});
        mgpuModuleLoad(bundle.data(), 100);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: mgpuModuleLoad: offload bundle entry 1 lies outside )"
      R"(its 100 bytes
$)");
}

TEST_F(ROCmRuntimeDeathTest, NoJIT) {
  char ptx[] = ".version 8.0";
  EXPECT_EXIT(mgpuModuleLoadJIT(ptx, 3), ExitedWithCode(1),
              R"(^gpumem: error: mgpuModuleLoadJIT \(optimization level 3\): )"
              R"(the rocm runtime has no JIT; HIP loads HSA code objects, so )"
              R"(compile the gpu\.module to a binary \(gpu-module-to-binary )"
              R"(format=bin\)
$)");
}

TEST_F(ROCmRuntimeDeathTest, KernelNotFound) {
  EXPECT_EXIT(mgpuModuleGetFunction(loadFakeModule("kernel"), "other"),
              ExitedWithCode(1),
              R"(^gpumem: error: hipModuleGetFunction failed for kernel )"
              R"('other': hipErrorNotFound: named symbol not found
$)");
}

TEST_F(ROCmRuntimeDeathTest, LaunchErrorsUseHIPsMessages) {
  EXPECT_EXIT(
      {
        void *kernel =
            mgpuModuleGetFunction(loadFakeModule("kernel"), "kernel");
        fake().Fail("hipModuleLaunchKernel", hipErrorLaunchFailure);
        mgpuLaunchKernel(kernel, 2, 1, 1, 64, 1, 1, 256, nullptr, nullptr,
                         nullptr, 0);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipModuleLaunchKernel failed for kernel 'kernel' )"
      R"(\(grid 2x1x1, block 64x1x1, 256 bytes of dynamic LDS\): )"
      R"(hipErrorLaunchFailure: unspecified launch failure
$)");
}

TEST_F(ROCmRuntimeDeathTest, LaunchBeyondTheDeviceLimits) {
  EXPECT_EXIT(
      {
        void *kernel =
            mgpuModuleGetFunction(loadFakeModule("kernel"), "kernel");
        mgpuLaunchKernel(kernel, 1, 1, 1, 2048, 1, 1, 0, nullptr, nullptr,
                         nullptr, 0);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipModuleLaunchKernel failed for kernel 'kernel' )"
      R"(\(grid 1x1x1, block 2048x1x1, 0 bytes of dynamic LDS\): )"
      R"(hipErrorInvalidValue: invalid argument \(a workgroup of 2048 x 1 x )"
      R"(1 = 2048 work-items; device 0 \(Fake AMD GPU 0\) allows at most )"
      R"(1024\)
$)");
}

TEST_F(ROCmRuntimeDeathTest, TooMuchLDS) {
  EXPECT_EXIT(
      {
        fake().SetStaticSharedBytes("big", 16384);
        void *kernel = mgpuModuleGetFunction(loadFakeModule("big"), "big");
        mgpuLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 49153, nullptr, nullptr,
                         nullptr, 0);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: kernel 'big' asks for 65537 bytes of LDS \(16384 )"
      R"(static \+ 49153 dynamic\); device 0 \(Fake AMD GPU 0\) allows at most )"
      R"(65536 per workgroup
$)");
  // When HIP cannot say how much static LDS a kernel has, the dynamic bytes
  // are checked alone, as hipModuleLaunchKernel checks them.
  EXPECT_EXIT(
      {
        fake().SetStaticSharedBytes("unknown", -1);
        void *kernel =
            mgpuModuleGetFunction(loadFakeModule("unknown"), "unknown");
        mgpuLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 65540, nullptr, nullptr,
                         nullptr, 0);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipModuleLaunchKernel failed for kernel 'unknown' )"
      R"(\(grid 1x1x1, block 64x1x1, 65540 bytes of dynamic LDS\): )"
      R"(hipErrorInvalidValue: invalid argument \(65540 bytes of dynamic )"
      R"(LDS; device 0 \(Fake AMD GPU 0\) has 65536 per workgroup\)
$)");
}

//--- Memory ----------------------------------------------------------------//

TEST_F(ROCmRuntimeDeathTest, OutOfMemory) {
  EXPECT_EXIT(
      {
        fake().SetMemInfo(1024, 2048);
        mgpuMemAlloc(4096, nullptr, true);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipMallocManaged failed for 4096 bytes: )"
      R"(hipErrorOutOfMemory: out of memory \(device 0 has 1024 bytes free )"
      R"(of 2048\)
$)");
}

TEST_F(ROCmRuntimeDeathTest, RegisteredMemoryAtOtherDeviceAddresses) {
  static char buffer[64];
  EXPECT_EXIT(
      {
        fake().SetRegisteredOffset(4096);
        mgpuMemHostRegister(buffer, sizeof(buffer));
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipHostRegister: device 0 \(Fake AMD GPU 0\) maps )"
      R"(the 64 bytes of host memory at 0x[0-9a-f]+ to device address )"
      R"(0x[0-9a-f]+; kernels get host pointers, so registered host memory )"
      R"(cannot be used on it \(compile with --host-buffers=copy or managed )"
      R"(instead\)
$)");
}

TEST_F(ROCmRuntimeDeathTest, HostRegisterTwice) {
  static char buffer[64];
  EXPECT_EXIT(
      {
        mgpuMemHostRegister(buffer, sizeof(buffer));
        mgpuMemHostRegister(buffer + 8, 8);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipHostRegister failed for 8 bytes at 0x[0-9a-f]+: )"
      R"(hipErrorHostMemoryAlreadyRegistered: part or all of the requested )"
      R"(memory range is already mapped
$)");
}

TEST_F(ROCmRuntimeDeathTest, HintsOnMemoryThatIsNotManaged) {
  EXPECT_EXIT(
      {
        void *ptr = mgpuMemAlloc(64, nullptr, false);
        gpumemMemPrefetch(ptr, 64, GPUMEM_PREFETCH_TO_HOST, nullptr);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipMemPrefetchAsync failed for 64 bytes at )"
      R"(0x[0-9a-f]+ to the host: hipErrorInvalidValue: invalid argument; is )"
      R"(it managed memory \(gpumem\.alloc_managed or gpu\.alloc )"
      R"(host_shared\)\?
$)");
  EXPECT_EXIT(
      {
        void *ptr = mgpuMemAlloc(64, nullptr, false);
        gpumemMemAdvise(ptr, 64, GPUMEM_ADVISE_PREFERRED_LOCATION_HOST);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: hipMemAdvise\(hipMemAdviseSetPreferredLocation, )"
      R"(the host\) failed for 64 bytes at 0x[0-9a-f]+: hipErrorInvalidValue: )"
      R"(invalid argument; is it managed memory \(gpumem\.alloc_managed or )"
      R"(gpu\.alloc host_shared\)\?
$)");
}

TEST_F(ROCmRuntimeDeathTest, HintsWithoutConcurrentManagedAccess) {
  EXPECT_IN_FRESH_PROCESS([] {
    fake().SetConcurrentManagedAccess(0);
    void *ptr = mgpuMemAlloc(64, nullptr, false);
    gpumemMemPrefetch(ptr, 64, GPUMEM_PREFETCH_TO_DEVICE, nullptr);
    gpumemMemAdvise(ptr, 64, GPUMEM_ADVISE_READ_MOSTLY);
    require(fake().count("hipMemPrefetchAsync") == 0, "no prefetch");
    require(fake().count("hipMemAdvise") == 0, "no advice");
    mgpuMemFree(ptr, nullptr);
  });
}

//--- Process exit ----------------------------------------------------------//

TEST_F(ROCmRuntimeDeathTest, ReleasesAfterHIPShutDownAreQuiet) {
  EXPECT_IN_FRESH_PROCESS([] {
    void *module = loadFakeModule("kernel");
    void *stream = mgpuStreamCreate();
    void *event = mgpuEventCreate();
    void *ptr = mgpuMemAlloc(64, nullptr, false);
    static char buffer[64];
    mgpuMemHostRegister(buffer, sizeof(buffer));
    fake().SetDeinitialized(1);
    // From a thread that never called in: making the device current fails
    // too, quietly.
    std::thread([&] {
      mgpuMemFree(ptr, stream);
      mgpuMemHostUnregister(buffer);
    }).join();
    mgpuEventDestroy(event);
    mgpuStreamDestroy(stream);
    mgpuModuleUnload(module);
  });
}

} // namespace
