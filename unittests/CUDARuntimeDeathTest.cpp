//===----------------------------------------------------------------------===//
// CUDA runtime: its first use and every error that stops the program, each
// in a fresh process (GoogleTest death tests, re-executed), against the
// fake driver unless the test is about not finding one. Errors assert the
// exact message and exit code 1; first-use checks (which driver calls set
// the runtime up, on which device) exit 0 with nothing on stderr. Release
// calls after the driver has shut down, as at exit, must stay quiet.
//===----------------------------------------------------------------------===//

#include "CUDARuntimeTestSupport.h"
#include "DriverTypes.h"

#include "gpumem/Runtime/DeviceSanitizerLog.h"
#include "gpumem/Runtime/TargetSelection.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace gpumem_cuda_test;
using namespace gpumem::cuda;
using ::testing::ExitedWithCode;

namespace {

using CUDARuntimeInitDeathTest = CUDARuntimeFakeTest;
using CUDARuntimeDeathTest = CUDARuntimeFakeTest;

void useNoDriver() {
  setenv("GPUMEM_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
}

//--- Finding the driver and a device ---------------------------------------//

TEST_F(CUDARuntimeInitDeathTest, NoDriver) {
  const char *expected =
      R"(^gpumem: error: no CUDA driver found \(/nonexistent/libcuda\.so\.1\): )"
      R"(/nonexistent/libcuda\.so\.1: cannot open shared object file: No such )"
      R"(file or directory
$)";
  EXPECT_EXIT(
      {
        useNoDriver();
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1), expected);
  EXPECT_EXIT(
      {
        useNoDriver();
        loadFakeModule("kernel");
      },
      ExitedWithCode(1), expected);
  EXPECT_EXIT(
      {
        useNoDriver();
        mgpuStreamCreate();
      },
      ExitedWithCode(1), expected);
  EXPECT_EXIT(
      {
        useNoDriver();
        mgpuSetDefaultDevice(0);
      },
      ExitedWithCode(1), expected);
}

TEST_F(CUDARuntimeInitDeathTest, NoDriverAtTheDefaultPath) {
  if (void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(driver);
    GTEST_SKIP() << "this machine has libcuda.so.1";
  }
  // An empty GPUMEM_CUDA_DRIVER counts as unset.
  EXPECT_EXIT(
      {
        setenv("GPUMEM_CUDA_DRIVER", "", 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: no CUDA driver found \(libcuda\.so\.1\): )"
      R"(libcuda\.so\.1: cannot open shared object file: No such file or )"
      R"(directory
$)");
}

TEST_F(CUDARuntimeInitDeathTest, NoDevice) {
  // Drivers report no device from cuInit.
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(0);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1), "^gpumem: error: no CUDA device found\n$");
  // Or from cuDeviceGetCount.
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(0);
        fake().SetInitResult(CUDA_SUCCESS);
        loadFakeModule("kernel");
      },
      ExitedWithCode(1), "^gpumem: error: no CUDA device found\n$");
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(0);
        mgpuSetDefaultDevice(0);
      },
      ExitedWithCode(1), "^gpumem: error: no CUDA device found\n$");
}

/// Prints what gpumemRuntimeProbe answers, "<kind> <detail>", and exits 0:
/// the probe never ends the process itself.
[[noreturn]] void printProbe() {
  char detail[512];
  int kind = gpumemRuntimeProbe(detail, sizeof(detail));
  std::fprintf(stderr, "%d %s\n", kind, detail);
  std::exit(0);
}

TEST_F(CUDARuntimeInitDeathTest, ProbeAnswersWhereCallsWouldStop) {
  EXPECT_EXIT(
      {
        useNoDriver();
        printProbe();
      },
      ExitedWithCode(0),
      R"(^0 no CUDA driver found \(/nonexistent/libcuda\.so\.1\): )"
      R"(/nonexistent/libcuda\.so\.1: cannot open shared object file)");
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(0);
        printProbe();
      },
      ExitedWithCode(0), "^0 no CUDA device found\n$");
  EXPECT_EXIT(printProbe(), ExitedWithCode(0), "^2 1 CUDA device\n$");
  // After the probe, a call still stops with the same error.
  EXPECT_EXIT(
      {
        useNoDriver();
        char detail[64];
        gpumemRuntimeProbe(detail, sizeof(detail));
        mgpuStreamCreate();
      },
      ExitedWithCode(1), "^gpumem: error: no CUDA driver found");
}

TEST_F(CUDARuntimeInitDeathTest, InitFails) {
  EXPECT_EXIT(
      {
        fake().SetInitResult(CUDA_ERROR_UNKNOWN);
        mgpuStreamCreate();
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuInit failed \(driver [^ ]*libgpumem-fake-cuda\.so\): )"
      R"(CUDA_ERROR_UNKNOWN: unknown error
$)");
  // A result the driver has no name for.
  EXPECT_EXIT(
      {
        fake().SetInitResult(12345);
        mgpuStreamCreate();
      },
      ExitedWithCode(1), R"(cuInit failed \(driver .*\): CUDA error 12345
$)");
}

TEST_F(CUDARuntimeInitDeathTest, DriverWithoutASymbol) {
  EXPECT_EXIT(
      {
        setenv("GPUMEM_CUDA_DRIVER", GPUMEM_FAKE_CUDA_OLD, 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: the CUDA driver [^ ]*libgpumem-fake-cuda-old\.so )"
      R"(has no cuMemAllocAsync; gpumem needs a driver for CUDA 11\.2 or newer
$)");
  EXPECT_EXIT(
      {
        setenv("GPUMEM_CUDA_DRIVER", "libc.so.6", 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: the CUDA driver libc\.so\.6 has no cuInit; gpumem )"
      R"(needs a driver for CUDA 11\.2 or newer
$)");
}

#ifdef GPUMEM_CUDA_STUB_DRIVER
// The CUDA toolkit's stub libcuda exports a real driver's symbols, so the
// runtime finds every entry of its table there; cuInit then fails.
TEST_F(CUDARuntimeInitDeathTest, ToolkitStubDriver) {
  EXPECT_EXIT(
      {
        setenv("GPUMEM_CUDA_DRIVER", GPUMEM_CUDA_STUB_DRIVER, 1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuInit failed \(driver [^ ]*libcuda\.so\): )"
      "CUDA_ERROR_STUB_LIBRARY[ :][^\n]*\n$");
}
#endif

//--- The device and its context --------------------------------------------//

TEST_F(CUDARuntimeInitDeathTest, FirstUseSetsUpDeviceZero) {
  EXPECT_IN_FRESH_PROCESS([&] {
    void *first = mgpuMemAlloc(16, nullptr, false);
    std::vector<std::string> setup = fake().symbols();
    require(setup ==
                std::vector<std::string>{
                    "cuInit", "cuDeviceGetCount", "cuDeviceGet",
                    "cuDevicePrimaryCtxRetain",
                    // Compute capability, shared memory, launch limits.
                    "cuDeviceGetAttribute", "cuDeviceGetAttribute",
                    "cuDeviceGetAttribute", "cuDeviceGetAttribute",
                    "cuDeviceGetAttribute", "cuDeviceGetAttribute",
                    "cuDeviceGetAttribute", "cuDeviceGetAttribute",
                    "cuDeviceGetAttribute", "cuDeviceGetAttribute",
                    "cuCtxSetCurrent", "cuMemAlloc_v2"},
            "the calls of the first use");
    require(fake().last("cuDeviceGet").args[1] == 0, "device 0");
    require(fake().last("cuCtxSetCurrent").args[0] ==
                fake().last("cuDevicePrimaryCtxRetain").args[0],
            "the primary context is made current");
    fake().Reset();
    void *second = mgpuMemAlloc(16, nullptr, false);
    require(fake().symbols() == std::vector<std::string>{"cuMemAlloc_v2"},
            "later calls set nothing up");
    mgpuMemFree(first, nullptr);
    mgpuMemFree(second, nullptr);
  });
}

TEST_F(CUDARuntimeInitDeathTest, SetDefaultDeviceBeforeFirstUse) {
  EXPECT_IN_FRESH_PROCESS([&] {
    fake().SetDeviceCount(3);
    mgpuSetDefaultDevice(2);
    mgpuSetDefaultDevice(1); // the last choice counts
    require(fake().count("cuDeviceGet") == 0, "no device opened yet");
    mgpuStreamDestroy(mgpuStreamCreate());
    require(fake().last("cuDeviceGet").args[1] == 1, "device 1 opened");
    require(fake().last("cuDevicePrimaryCtxRetain").args[1] == 1,
            "device 1's primary context");
    mgpuSetDefaultDevice(1); // the same device again is fine
  });
}

TEST_F(CUDARuntimeInitDeathTest, DeviceFromTheEnvironment) {
  EXPECT_IN_FRESH_PROCESS([&] {
    fake().SetDeviceCount(2);
    setenv("GPUMEM_CUDA_DEVICE", "1", 1);
    mgpuMemFree(mgpuMemAlloc(4, nullptr, false), nullptr);
    require(fake().last("cuDeviceGet").args[1] == 1, "device 1 opened");
  });
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(2);
        setenv("GPUMEM_CUDA_DEVICE", "2", 1);
        mgpuMemAlloc(4, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: GPUMEM_CUDA_DEVICE must be a device ordinal in )"
      R"(0\.\.1, not '2'
$)");
  EXPECT_EXIT(
      {
        setenv("GPUMEM_CUDA_DEVICE", "gpu0", 1);
        mgpuMemAlloc(4, nullptr, false);
      },
      ExitedWithCode(1),
      R"(GPUMEM_CUDA_DEVICE must be a device ordinal in 0\.\.0, not 'gpu0')");
}

TEST_F(CUDARuntimeInitDeathTest, SetDefaultDeviceOutOfRange) {
  EXPECT_EXIT(mgpuSetDefaultDevice(1), ExitedWithCode(1),
              R"(^gpumem: error: mgpuSetDefaultDevice\(1\): no such device; )"
              R"(this machine has 1 CUDA device \(ordinals 0\.\.0\)
$)");
  EXPECT_EXIT(mgpuSetDefaultDevice(-1), ExitedWithCode(1),
              R"(mgpuSetDefaultDevice\(-1\): no such device)");
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(2);
        mgpuSetDefaultDevice(5);
      },
      ExitedWithCode(1),
      R"(mgpuSetDefaultDevice\(5\): no such device; this machine has 2 CUDA )"
      R"(devices \(ordinals 0\.\.1\))");
}

TEST_F(CUDARuntimeInitDeathTest, SetDefaultDeviceAfterFirstUse) {
  EXPECT_EXIT(
      {
        fake().SetDeviceCount(2);
        loadFakeModule("kernel");
        mgpuSetDefaultDevice(1);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: mgpuSetDefaultDevice\(1\): the runtime already uses )"
      R"(device 0, chosen at its first call \(modules are loaded before main )"
      R"(runs\); set GPUMEM_CUDA_DEVICE=1 to choose the device before that
$)");
  EXPECT_IN_FRESH_PROCESS([&] {
    fake().SetDeviceCount(2);
    loadFakeModule("kernel");
    mgpuSetDefaultDevice(0);
  });
}

//--- Modules ---------------------------------------------------------------//

TEST_F(CUDARuntimeDeathTest, ModuleLoadFails) {
  EXPECT_EXIT(
      {
        fake().Fail("cuModuleLoadData", CUDA_ERROR_NO_BINARY_FOR_GPU);
        loadFakeModule("some_kernel");
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuModuleLoadData failed for a module of 12 bytes on )"
      R"(device 0 \(sm_90\): CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is )"
      R"(available for execution on the device
$)");
}

TEST_F(CUDARuntimeDeathTest, FatbinWithoutTheDevicesChip) {
  // No cubin of major revision 7 and no PTX as old as sm_75: the fake
  // driver refuses the fatbin, as drivers do.
  std::vector<unsigned char> fatbin = sm80sm90Fatbin();
  EXPECT_EXIT(
      {
        fake().SetComputeCapability(7, 5);
        mgpuModuleLoad(fatbin.data(), fatbin.size());
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuModuleLoadData failed for a module of )" +
          std::to_string(fatbin.size()) +
          R"( bytes on device 0 \(sm_75\): CUDA_ERROR_NO_BINARY_FOR_GPU: no )"
          R"(kernel image is available for execution on the device; the )"
          R"(module is a fatbin of sm_80 cubin, sm_90 cubin, sm_90 PTX
$)");
}

TEST_F(CUDARuntimeDeathTest, HostObjectModule) {
  std::vector<unsigned char> elf(64, 0);
  std::memcpy(elf.data(), ELFMAG, SELFMAG);
  elf[4] = 2;   // ELFCLASS64
  elf[18] = 62; // EM_X86_64
  EXPECT_EXIT(mgpuModuleLoad(elf.data(), elf.size()), ExitedWithCode(1),
              R"(^gpumem: error: mgpuModuleLoad: the module is an ELF object )"
              R"(for machine 62, not a CUDA binary \(machine 190\); it is a )"
              R"(gpu\.module compiled for gpumem's cpu target: run it with )"
              R"(libgpumem_cpu_runtime\.so
$)");
}

TEST_F(CUDARuntimeDeathTest, JITFailurePrintsTheLog) {
  EXPECT_EXIT(
      {
        fake().Fail("cuModuleLoadDataEx", CUDA_ERROR_INVALID_PTX);
        fake().SetJitLog("ptxas application ptx input, line 3; error   : "
                         "Unknown symbol 'x'\nptxas fatal   : Ptx assembly "
                         "aborted due to errors\n");
        mgpuModuleLoadJIT(const_cast<char *>(".version 6.0\n"), 2);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuModuleLoadDataEx failed to JIT-compile PTX at )"
      R"(optimization level 2 for device 0 \(sm_90\): CUDA_ERROR_INVALID_PTX: )"
      R"(a PTX JIT compilation failed; JIT log:
ptxas application ptx input, line 3; error   : Unknown symbol 'x'
ptxas fatal   : Ptx assembly aborted due to errors
$)");
  EXPECT_EXIT(
      {
        fake().Fail("cuModuleLoadDataEx", CUDA_ERROR_INVALID_PTX);
        mgpuModuleLoadJIT(const_cast<char *>(".version 6.0\n"), 0);
      },
      ExitedWithCode(1),
      R"(CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed; the JIT log )"
      R"(is empty
$)");
}

TEST_F(CUDARuntimeDeathTest, KernelNotFound) {
  EXPECT_EXIT(mgpuModuleGetFunction(loadFakeModule("kernel_a"), "missing"),
              ExitedWithCode(1),
              R"(^gpumem: error: cuModuleGetFunction failed for kernel )"
              R"('missing': CUDA_ERROR_NOT_FOUND: named symbol not found
$)");
}

TEST_F(CUDARuntimeDeathTest, NullArguments) {
  EXPECT_EXIT(mgpuModuleLoad(nullptr, 0), ExitedWithCode(1),
              "^gpumem: error: mgpuModuleLoad: null module data\n$");
  EXPECT_EXIT(mgpuModuleLoadJIT(nullptr, 2), ExitedWithCode(1),
              "^gpumem: error: mgpuModuleLoadJIT: null PTX\n$");
  EXPECT_EXIT(mgpuModuleGetFunction(nullptr, "k"), ExitedWithCode(1),
              R"(^gpumem: error: mgpuModuleGetFunction: null module )"
              R"(\(looking for kernel 'k'\)
$)");
  EXPECT_EXIT(mgpuModuleGetFunction(loadFakeModule("k"), nullptr),
              ExitedWithCode(1),
              "^gpumem: error: mgpuModuleGetFunction: null kernel name\n$");
  EXPECT_EXIT(mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                               nullptr, 0),
              ExitedWithCode(1),
              "^gpumem: error: mgpuLaunchKernel: null kernel\n$");
}

//--- Launches --------------------------------------------------------------//

/// Looks kernel `name` up in a fake module of that name and launches it.
void launch(const char *name, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
            intptr_t blockX, intptr_t blockY, intptr_t blockZ, int32_t smem) {
  void *function = mgpuModuleGetFunction(loadFakeModule(name), name);
  mgpuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, smem,
                   nullptr, nullptr, nullptr, 0);
}

TEST_F(CUDARuntimeDeathTest, LaunchFails) {
  EXPECT_EXIT(
      {
        fake().Fail("cuLaunchKernel", CUDA_ERROR_INVALID_VALUE);
        launch("main_kernel", 4, 4, 1, 16, 16, 1, 2048);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuLaunchKernel failed for kernel 'main_kernel' )"
      R"(\(grid 4x4x1, block 16x16x1, 2048 bytes of dynamic shared memory\): )"
      R"(CUDA_ERROR_INVALID_VALUE: invalid argument
$)");
}

//--- --sanitize=memcheck's log in device memory ----------------------------//

extern "C" void gpumemMemoryCallLocation(const char *location);

/// A record of a device log (DeviceSanitizerLog.h) for site `what` at
/// `location` of `kind`, first by linear block `block`, thread `thread`.
GPUMemDeviceSanitizerRecord logRecord(int32_t kind, const char *what,
                                      const char *location, uint64_t block,
                                      uint64_t thread, uint32_t hits) {
  GPUMemDeviceSanitizerRecord record{};
  record.kind = kind;
  record.whatAddress = uintptr_t(what);
  record.locationAddress = uintptr_t(location);
  record.first = block << GPUMEM_DEVICE_SANITIZER_THREAD_BITS | thread;
  record.hits = hits;
  std::snprintf(record.what, sizeof(record.what), "%s", what);
  std::snprintf(record.location, sizeof(record.location), "%s", location);
  return record;
}

// After a launch of an instrumented module's kernel the runtime waits for
// it, reads the log its code wrote, reports each site once (two records of
// one site merged, sites in the order of their first thread) with the
// words of the other targets, and fails the program at its end.
TEST_F(CUDARuntimeDeathTest, SanitizerLogIsReportedAfterTheLaunch) {
  auto log = std::make_unique<GPUMemDeviceSanitizerLog>();
  *log = {};
  log->count = 3;
  log->records[0] =
      logRecord(GPUMEM_DEVICE_REPORT_ACCESS, "load from memref<8xf32>",
                "k.mlir:9:5", /*block=*/5, /*thread=*/3, 2);
  log->records[0].detail = 0;
  log->records[0].index = 8;
  log->records[0].size = 8;
  log->records[1] =
      logRecord(GPUMEM_DEVICE_REPORT_DIVISION, "arith.divsi of i32",
                "k.mlir:4:7", /*block=*/1, /*thread=*/0, 1);
  log->records[2] =
      logRecord(GPUMEM_DEVICE_REPORT_SHARED_ACCESS,
                "store to memref<4xi32, #gpu.address_space<workgroup>>",
                "k.mlir:6:3", /*block=*/1, /*thread=*/2, 1);
  log->records[2].detail = 0;
  log->records[2].index = -1;
  log->records[2].size = 4;
  log->records[2].base = 16;
  EXPECT_EXIT(
      {
        // The buffer the first record's memref views, made at a line.
        gpumemMemoryCallLocation("k.mlir:2:8");
        void *buffer = mgpuMemAlloc(64, nullptr, false);
        log->records[0].base = uintptr_t(buffer) + 8;
        fake().SetGlobal(GPUMEM_DEVICE_SANITIZER_LOG, log.get(), sizeof(*log));
        void *function = mgpuModuleGetFunction(
            loadFakeModule("main_kernel " GPUMEM_DEVICE_SANITIZER_LOG),
            "main_kernel");
        mgpuLaunchKernel(function, 3, 2, 1, 4, 1, 1, 0, nullptr, nullptr,
                         nullptr, 0);
        require(fake().count("cuStreamSynchronize") == 1,
                "the launch is waited for");
        require(fake().count("cuMemsetD32_v2") == 1, "the log is cleared");
        std::exit(0);
      },
      ExitedWithCode(1),
      R"(^gpumem: sanitizer: integer division by zero in kernel )"
      R"('main_kernel', block \(1,0,0\) thread \(0,0,0\)
  at k\.mlir:4:7
  arith\.divsi of i32: the divisor is 0, which traps on a CPU and gives an )"
      R"(unspecified value on a GPU; the division was made by 1 instead
gpumem: sanitizer: out-of-bounds store to memref<4xi32, )"
      R"(#gpu\.address_space<workgroup>> in kernel 'main_kernel', block \(1,0,0\) thread \(2,0,0\)
  at k\.mlir:6:3
  index -1 of dimension 0 is outside 0\.\.3
  the memref views the block's workgroup memory from byte 16
gpumem: sanitizer: out-of-bounds load from memref<8xf32> in kernel )"
      R"('main_kernel', block \(2,1,0\) thread \(3,0,0\)
  at k\.mlir:9:5
  index 8 of dimension 0 is outside 0\.\.7
  the memref views device memory of 64 bytes from byte 8, allocated at )"
      R"(k\.mlir:2:8
gpumem: sanitizer: the out-of-bounds load from memref<8xf32> at k\.mlir:9:5 )"
      R"(happened 2 times
gpumem: sanitizer: ERROR SUMMARY: 4 errors
$)");
}

// A kernel that erred at more sites than the log holds: what it recorded
// is reported, and the errors it only counted are named and counted.
TEST_F(CUDARuntimeDeathTest, SanitizerLogWithoutRoom) {
  auto log = std::make_unique<GPUMemDeviceSanitizerLog>();
  *log = {};
  log->count = GPUMEM_DEVICE_SANITIZER_RECORDS + 5;
  log->dropped = 5;
  for (int i = 0; i < GPUMEM_DEVICE_SANITIZER_RECORDS; ++i)
    log->records[i] = logRecord(GPUMEM_DEVICE_REPORT_DIVISION,
                                "arith.divui of i32", "k.mlir:4:7",
                                /*block=*/0, /*thread=*/uint64_t(i), 1);
  EXPECT_EXIT(
      {
        fake().SetGlobal(GPUMEM_DEVICE_SANITIZER_LOG, log.get(), sizeof(*log));
        void *function = mgpuModuleGetFunction(
            loadFakeModule("main_kernel " GPUMEM_DEVICE_SANITIZER_LOG),
            "main_kernel");
        mgpuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0, nullptr, nullptr,
                         nullptr, 0);
        std::exit(0);
      },
      ExitedWithCode(1),
      R"(^gpumem: sanitizer: integer division by zero in kernel 'main_kernel', )"
      R"(block \(0,0,0\) thread \(0,0,0\)
  at k\.mlir:4:7
  arith\.divui of i32: the divisor is 0, .*
gpumem: sanitizer: kernel 'main_kernel' erred at more sites than its log in )"
      R"(device memory holds \(64\): 5 more errors were counted but not recorded
gpumem: sanitizer: the integer division by zero at k\.mlir:4:7 happened 64 )"
      R"(times
gpumem: sanitizer: ERROR SUMMARY: 69 errors
$)");
}

// A module whose image does not name the log costs no driver call, and a
// launch of it is not waited for.
TEST_F(CUDARuntimeDeathTest, UninstrumentedModulesHaveNoLog) {
  EXPECT_IN_FRESH_PROCESS([] {
    launch("main_kernel", 1, 1, 1, 32, 1, 1, 0);
    require(fake().count("cuModuleGetGlobal_v2") == 0, "no global asked for");
    require(fake().count("cuStreamSynchronize") == 0, "no wait");
  });
}

// The device's limits are checked before the driver is asked, which would
// answer CUDA_ERROR_INVALID_VALUE alone: each error names the limit.
TEST_F(CUDARuntimeDeathTest, LaunchBeyondTheDeviceLimits) {
  EXPECT_EXIT(launch("wide_kernel", 1, 1, 1, 1024, 2, 1, 0), ExitedWithCode(1),
              R"(^gpumem: error: kernel 'wide_kernel': a block of 1024 x 2 x )"
              R"(1 = 2048 threads; the device allows at most 1024 threads per )"
              R"(block
$)");
  EXPECT_EXIT(
      launch("deep_kernel", 1, 1, 1, 1, 1, 65, 0), ExitedWithCode(1),
      R"(^gpumem: error: kernel 'deep_kernel': a block of 1 x 1 x 65 )"
      R"(threads; the device allows blocks of at most 1024 x 1024 x 64 )"
      R"(threads
$)");
  EXPECT_EXIT(launch("tall_kernel", 1, 65536, 1, 32, 1, 1, 0),
              ExitedWithCode(1),
              R"(^gpumem: error: kernel 'tall_kernel': a grid of 1 x 65536 x )"
              R"(1 blocks; the device allows grids of at most 2147483647 x )"
              R"(65535 x 65535 blocks
$)");
  EXPECT_EXIT(launch("empty_kernel", 1, 1, 1, 0, 1, 1, 0), ExitedWithCode(1),
              R"(^gpumem: error: kernel 'empty_kernel': a block of 0 x 1 x 1 )"
              R"(threads: every dimension must be at least 1
$)");
}

TEST_F(CUDARuntimeDeathTest, TooMuchSharedMemory) {
  EXPECT_EXIT(
      {
        fake().SetStaticSharedBytes("big_kernel", 1024);
        launch("big_kernel", 8, 1, 1, 256, 1, 1, 231425);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: kernel 'big_kernel' asks for 232449 bytes of shared )"
      R"(memory \(1024 static \+ 231425 dynamic\); the device allows at most )"
      R"(232448 per block
$)");
  // A device without opt-in shared memory beyond 48 KiB.
  EXPECT_EXIT(
      {
        fake().SetMaxSharedPerBlockOptin(49152);
        launch("dynamic_kernel", 1, 1, 1, 32, 1, 1, 49153);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: kernel 'dynamic_kernel' asks for 49153 bytes of )"
      R"(shared memory \(0 static \+ 49153 dynamic\); the device allows at )"
      R"(most 49152 per block
$)");
}

TEST_F(CUDARuntimeDeathTest, RaisingTheLimitFails) {
  EXPECT_EXIT(
      {
        fake().Fail("cuFuncSetAttribute", CUDA_ERROR_INVALID_VALUE);
        launch("attr_kernel", 1, 1, 1, 32, 1, 1, 65536);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuFuncSetAttribute\()"
      R"(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 65536\) failed for )"
      R"(kernel 'attr_kernel': CUDA_ERROR_INVALID_VALUE: invalid argument
$)");
}

TEST_F(CUDARuntimeDeathTest, LaunchConfigurationOutOfRange) {
  EXPECT_EXIT(launch("k", 1, -1, 1, 32, 1, 1, 0), ExitedWithCode(1),
              R"(^gpumem: error: kernel 'k': grid 1x-1x1, block 32x1x1: every )"
              R"(dimension must be in 0\.\.4294967295 for cuLaunchKernel
$)");
  EXPECT_EXIT(launch("k", 1LL << 32, 1, 1, 32, 1, 1, 0), ExitedWithCode(1),
              R"(kernel 'k': grid 4294967296x1x1, block 32x1x1: every )"
              R"(dimension must be in 0\.\.4294967295)");
  EXPECT_EXIT(launch("k", 1, 1, 1, 32, 1, 1, -16), ExitedWithCode(1),
              R"(^gpumem: error: kernel 'k': negative dynamic shared memory )"
              R"(size -16
$)");
}

//--- Memory, streams, events -----------------------------------------------//

TEST_F(CUDARuntimeDeathTest, OutOfMemoryReportsFreeMemory) {
  EXPECT_EXIT(
      {
        fake().SetMemInfo(1 << 20, 1 << 30);
        mgpuMemAlloc(2 << 20, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemAlloc failed for 2097152 bytes: )"
      R"(CUDA_ERROR_OUT_OF_MEMORY: out of memory \(device 0 has 1048576 )"
      R"(bytes free of 1073741824\)
$)");
  EXPECT_EXIT(
      {
        fake().SetMemInfo(1 << 20, 1 << 30);
        mgpuMemAlloc(3 << 20, nullptr, true);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemAllocManaged failed for 3145728 bytes: )"
      R"(CUDA_ERROR_OUT_OF_MEMORY: out of memory \(device 0 has 1048576 )"
      R"(bytes free of 1073741824\)
$)");
  // Managed memory asked for on a stream (gpu.alloc host_shared lowered
  // with one) is cuMemAllocManaged too.
  EXPECT_EXIT(
      {
        fake().SetMemInfo(1 << 20, 1 << 30);
        mgpuMemAlloc(3 << 20, mgpuStreamCreate(), true);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemAllocManaged failed for 3145728 bytes: )"
      R"(CUDA_ERROR_OUT_OF_MEMORY: out of memory \(device 0 has 1048576 )"
      R"(bytes free of 1073741824\)
$)");
  EXPECT_EXIT(
      {
        fake().SetMemInfo(1 << 20, 1 << 30);
        mgpuMemAlloc(1 << 30, mgpuStreamCreate(), false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemAllocAsync failed for 1073741824 bytes: )"
      R"(CUDA_ERROR_OUT_OF_MEMORY: out of memory \(device 0 has 1048576 )"
      R"(bytes free of 1073741824\)
$)");
  // Any other failure says nothing about free memory.
  EXPECT_EXIT(
      {
        fake().Fail("cuMemAlloc_v2", CUDA_ERROR_INVALID_VALUE);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemAlloc failed for 16 bytes: )"
      R"(CUDA_ERROR_INVALID_VALUE: invalid argument
$)");
}

//--- Managed memory hints --------------------------------------------------//

TEST_F(CUDARuntimeDeathTest, MemoryHintErrors) {
  // Memory the driver does not manage (here: cuMemAlloc's).
  EXPECT_EXIT(gpumemMemPrefetch(mgpuMemAlloc(64, nullptr, false), 64,
                                GPUMEM_PREFETCH_TO_DEVICE, nullptr),
              ExitedWithCode(1),
              R"(^gpumem: error: cuMemPrefetchAsync failed for 64 bytes at )"
              R"(0x[0-9a-f]+ to device 0: CUDA_ERROR_INVALID_VALUE: invalid )"
              R"(argument; is it managed memory \(gpumem\.alloc_managed or )"
              R"(gpu\.alloc host_shared\)\?
$)");
  EXPECT_EXIT(gpumemMemPrefetch(mgpuMemAlloc(64, nullptr, true), 128,
                                GPUMEM_PREFETCH_TO_HOST, nullptr),
              ExitedWithCode(1),
              R"(^gpumem: error: cuMemPrefetchAsync failed for 128 bytes at )"
              R"(0x[0-9a-f]+ to the host: CUDA_ERROR_INVALID_VALUE: invalid )"
              R"(argument; is it managed memory)");
  EXPECT_EXIT(
      {
        fake().Fail("cuMemAdvise_v2", CUDA_ERROR_INVALID_DEVICE);
        gpumemMemAdvise(mgpuMemAlloc(16, nullptr, true), 16,
                        GPUMEM_ADVISE_PREFERRED_LOCATION_DEVICE);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemAdvise\(CU_MEM_ADVISE_SET_PREFERRED_LOCATION, )"
      R"(the device\) failed for 16 bytes at 0x[0-9a-f]+: )"
      R"(CUDA_ERROR_INVALID_DEVICE: invalid device ordinal
$)");
  EXPECT_EXIT(gpumemMemAdvise(mgpuMemAlloc(16, nullptr, false), 16,
                              GPUMEM_ADVISE_READ_MOSTLY),
              ExitedWithCode(1),
              R"(^gpumem: error: cuMemAdvise\(CU_MEM_ADVISE_SET_READ_MOSTLY\) )"
              R"(failed for 16 bytes at 0x[0-9a-f]+: )"
              R"(CUDA_ERROR_INVALID_VALUE: invalid argument; is it managed )"
              R"(memory \(gpumem\.alloc_managed or gpu\.alloc host_shared\)\?
$)");
  // Values outside the ABI's enums: the conformance suite
  // (MGPUConformanceTest.cpp).
}

TEST_F(CUDARuntimeDeathTest, MemoryHintsNeedConcurrentManagedAccess) {
  EXPECT_IN_FRESH_PROCESS([&] {
    fake().SetConcurrentManagedAccess(0);
    void *managed = mgpuMemAlloc(256, nullptr, true);
    fake().Reset();
    gpumemMemPrefetch(managed, 256, GPUMEM_PREFETCH_TO_DEVICE, nullptr);
    gpumemMemAdvise(managed, 256, GPUMEM_ADVISE_READ_MOSTLY);
    gpumemMemPrefetch(managed, 256, GPUMEM_PREFETCH_TO_HOST, nullptr);
    require(fake().symbols() ==
                std::vector<std::string>{"cuDeviceGetAttribute"},
            "the attribute read once, and no hint given");
    require(fake().last("cuDeviceGetAttribute").args[1] ==
                uint64_t(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS),
            "CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS");
    mgpuMemFree(managed, nullptr);
  });
}

// A driver older than CUDA 12.2 has only the CUdevice forms.
TEST_F(CUDARuntimeDeathTest, MemoryHintsOnADriverBeforeCUDA12_2) {
  EXPECT_IN_FRESH_PROCESS([&] {
    setenv("GPUMEM_CUDA_DRIVER", GPUMEM_FAKE_CUDA_12_1, 1);
    FakeCuda &old = *loadFakeCuda(GPUMEM_FAKE_CUDA_12_1);
    auto *managed = static_cast<char *>(mgpuMemAlloc(256, nullptr, true));
    void *stream = mgpuStreamCreate();
    gpumemMemPrefetch(managed, 256, GPUMEM_PREFETCH_TO_DEVICE, stream);
    FakeCudaCall call = old.last("cuMemPrefetchAsync");
    require(std::vector<uint64_t>(call.args, call.args + 4) ==
                std::vector<uint64_t>{bits(managed), 256, 0, bits(stream)},
            "prefetch to device 0 on the stream");
    gpumemMemPrefetch(managed + 128, 128, GPUMEM_PREFETCH_TO_HOST, nullptr);
    call = old.last("cuMemPrefetchAsync");
    require(std::vector<uint64_t>(call.args, call.args + 4) ==
                std::vector<uint64_t>{bits(managed + 128), 128,
                                      uint64_t(int64_t(CU_DEVICE_CPU)), 0},
            "prefetch to CU_DEVICE_CPU on the null stream");
    require(old.symbols().back() == "cuStreamSynchronize",
            "a prefetch without a stream is waited for");
    gpumemMemAdvise(managed, 256, GPUMEM_ADVISE_PREFERRED_LOCATION_HOST);
    call = old.last("cuMemAdvise");
    require(std::vector<uint64_t>(call.args, call.args + 4) ==
                std::vector<uint64_t>{bits(managed), 256,
                                      CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                      uint64_t(int64_t(CU_DEVICE_CPU))},
            "preferred location: the host");
    gpumemMemAdvise(managed, 256, GPUMEM_ADVISE_ACCESSED_BY_DEVICE);
    call = old.last("cuMemAdvise");
    require(call.args[2] == CU_MEM_ADVISE_SET_ACCESSED_BY && call.args[3] == 0,
            "accessed by device 0");
    mgpuMemFree(managed, nullptr);
    mgpuStreamDestroy(stream);
  });
}

TEST_F(CUDARuntimeDeathTest, DriverErrorsNameTheCall) {
  EXPECT_EXIT(
      {
        fake().Fail("cuStreamSynchronize", CUDA_ERROR_ILLEGAL_ADDRESS);
        mgpuStreamSynchronize(mgpuStreamCreate());
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuStreamSynchronize failed: )"
      R"(CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered
$)");
  EXPECT_EXIT(
      {
        fake().Fail("cuStreamCreate", CUDA_ERROR_INVALID_CONTEXT);
        mgpuStreamCreate();
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuStreamCreate failed: CUDA_ERROR_INVALID_CONTEXT: )"
      R"(invalid device context
$)");
  EXPECT_EXIT(
      {
        fake().Fail("cuEventRecord", CUDA_ERROR_INVALID_HANDLE);
        mgpuEventRecord(mgpuEventCreate(), nullptr);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuEventRecord failed: CUDA_ERROR_INVALID_HANDLE: )"
      R"(invalid resource handle
$)");
  EXPECT_EXIT(
      {
        fake().Fail("cuMemsetD32Async", CUDA_ERROR_INVALID_VALUE);
        void *stream = mgpuStreamCreate();
        mgpuMemset32(mgpuMemAlloc(64, stream, false), 1, 16, stream);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemsetD32Async failed: CUDA_ERROR_INVALID_VALUE: )"
      R"(invalid argument
$)");
  EXPECT_EXIT(
      {
        fake().Fail("cuMemcpy", 12345);
        uint32_t word = 0;
        mgpuMemcpy(&word, mgpuMemAlloc(4, nullptr, false), 4, nullptr);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemcpy failed copying 4 bytes from 0x[0-9a-f]+ to )"
      R"(0x[0-9a-f]+: CUDA error 12345
$)");
}

TEST_F(CUDARuntimeDeathTest, HostRegistrationErrors) {
  static float data[16];
  EXPECT_EXIT(
      {
        mgpuMemHostRegister(data, sizeof(data));
        mgpuMemHostRegister(data + 4, 8);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemHostRegister failed for 8 bytes at 0x[0-9a-f]+: )"
      R"(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED: part or all of the )"
      R"(requested memory range is already mapped
$)");
  EXPECT_EXIT(mgpuMemHostUnregister(data), ExitedWithCode(1),
              R"(^gpumem: error: cuMemHostUnregister failed for )"
              R"(0x[0-9a-f]+: CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED: pointer )"
              R"(does not correspond to a registered memory region
$)");
}

TEST_F(CUDARuntimeDeathTest, MemRefDescriptorErrors) {
  struct {
    float *allocated, *aligned;
    int64_t offset, sizes[1], strides[1];
  } negative = {nullptr, nullptr, 0, {-2}, {1}},
    huge = {nullptr, nullptr, 0, {INT64_MAX}, {4}};
  EXPECT_EXIT(mgpuMemHostRegisterMemRef(1, &negative, 4), ExitedWithCode(1),
              R"(^gpumem: error: mgpuMemHostRegisterMemRef: negative size -2 )"
              R"(in dimension 0
$)");
  EXPECT_EXIT(mgpuMemHostRegisterMemRef(1, &huge, 4), ExitedWithCode(1),
              R"(^gpumem: error: mgpuMemHostRegisterMemRef: the memref's )"
              R"(extent overflows 64 bits
$)");
  EXPECT_EXIT(mgpuMemHostUnregisterMemRef(-1, &negative, 4), ExitedWithCode(1),
              R"(^gpumem: error: mgpuMemHostUnregisterMemRef: invalid memref )"
              R"(\(rank -1, 4-byte elements\)
$)");
}

//--- Process exit ----------------------------------------------------------//

/// What a program holds when it exits: a module, memory, a stream, an event,
/// registered host memory.
struct Held {
  void *module, *otherModule, *stream, *event, *device, *ordered;
  float host[16];
};

Held *holdEverything() {
  auto *held = new Held;
  held->module = loadFakeModule("exit_kernel");
  held->otherModule = loadFakeModule("exit_kernel");
  mgpuModuleGetFunction(held->module, "exit_kernel");
  held->stream = mgpuStreamCreate();
  held->event = mgpuEventCreate();
  held->device = mgpuMemAlloc(64, nullptr, false);
  held->ordered = mgpuMemAlloc(64, held->stream, false);
  mgpuMemHostRegister(held->host, sizeof(held->host));
  return held;
}

void releaseEverything(Held *held) {
  mgpuMemHostUnregister(held->host);
  mgpuMemFree(held->ordered, held->stream);
  mgpuMemFree(held->device, nullptr);
  mgpuEventDestroy(held->event);
  mgpuStreamDestroy(held->stream);
  mgpuModuleUnload(held->module);
  // From a thread that never called in: entering the context fails too.
  std::thread other([held] { mgpuModuleUnload(held->otherModule); });
  other.join();
}

TEST_F(CUDARuntimeDeathTest, ReleaseAfterTheDriverShutDownIsQuiet) {
  EXPECT_IN_FRESH_PROCESS([&] {
    Held *held = holdEverything();
    fake().SetDeinitialized(1);
    fake().Reset();
    releaseEverything(held);
    require(fake().count("cuModuleUnload") == 1 &&
                fake().count("cuMemFreeAsync") == 1 &&
                fake().count("cuMemFree_v2") == 1 &&
                fake().count("cuStreamDestroy_v2") == 1 &&
                fake().count("cuEventDestroy_v2") == 1 &&
                fake().count("cuMemHostUnregister") == 1 &&
                fake().count("cuCtxSetCurrent") == 1,
            "every release reached the driver, which had shut down");
  });
  // Other calls are errors then.
  EXPECT_EXIT(
      {
        mgpuStreamDestroy(mgpuStreamCreate());
        fake().SetDeinitialized(1);
        mgpuMemAlloc(16, nullptr, false);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: cuMemAlloc failed for 16 bytes: )"
      R"(CUDA_ERROR_DEINITIALIZED: driver shutting down
$)");
}

} // namespace
