//===----------------------------------------------------------------------===//
// CPU runtime: every error that stops the program, each asserting the exact
// message and exit code 1 (GoogleTest death tests, run in a re-executed
// child so the worker threads of the parent do not matter), and the
// environment variables, which are read when the pool is configured. The
// errors every runtime shares (memory hint arguments, memref descriptors)
// are in the mgpu* conformance suite (MGPUConformanceTest.cpp).
//===----------------------------------------------------------------------===//

#include "CPURuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

using namespace gpumem_test;
using ::testing::ExitedWithCode;

namespace {

class CPURuntimeDeathTest : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

//--- Launch configuration --------------------------------------------------//

TEST_F(CPURuntimeDeathTest, BlockOf1025Threads) {
  EXPECT_EXIT(launch("empty", {1, 1, 1}, {1025, 1, 1}), ExitedWithCode(1),
              R"(^gpumem: error: kernel 'empty': a block of 1025 x 1 x 1 = )"
              R"(1025 threads; the cpu target allows at most 1024 threads )"
              R"(per block
$)");
  EXPECT_EXIT(launch("reduce", {4, 1, 1}, {32, 32, 2}), ExitedWithCode(1),
              R"(kernel 'reduce': a block of 32 x 32 x 2 = 2048 threads; the )"
              R"(cpu target allows at most 1024 threads per block)");
  EXPECT_EXIT(launch("empty", {1, 1, 1}, {1LL << 40, 1LL << 40, 1 << 20}),
              ExitedWithCode(1),
              R"(a block of 1099511627776 x 1099511627776 x 1048576 = more )"
              R"(than 2\^63 threads; the cpu target allows at most 1024 )"
              R"(threads per block)");
}

TEST_F(CPURuntimeDeathTest, NonPositiveDimensions) {
  EXPECT_EXIT(launch("empty", {1, 0, 1}, {1, 1, 1}), ExitedWithCode(1),
              R"(kernel 'empty': a grid of 1 x 0 x 1 blocks: every dimension )"
              R"(must be at least 1)");
  EXPECT_EXIT(launch("empty", {1, 1, 1}, {4, 1, -2}), ExitedWithCode(1),
              R"(kernel 'empty': a block of 4 x 1 x -2 threads: every )"
              R"(dimension must be at least 1)");
}

TEST_F(CPURuntimeDeathTest, NegativeDynamicSharedMemory) {
  EXPECT_EXIT(launch("empty", {1, 1, 1}, {1, 1, 1}, {}, -16), ExitedWithCode(1),
              R"(kernel 'empty': negative dynamic shared memory size -16)");
}

TEST_F(CPURuntimeDeathTest, TooMuchSharedMemory) {
  EXPECT_EXIT(launch("empty", {1, 1, 1}, {1, 1, 1}, {}, 232449),
              ExitedWithCode(1),
              R"(kernel 'empty': a block needs 232449 bytes of shared memory )"
              R"(\(0 static, 232449 dynamic\); the cpu target allows at most )"
              R"(232448, like the largest NVIDIA GPU \(sm_90\))");
}

TEST_F(CPURuntimeDeathTest, WrongNumberOfParameters) {
  int64_t n = 0;
  EXPECT_EXIT(launch("saxpy", {1, 1, 1}, {1, 1, 1}, {&n}), ExitedWithCode(1),
              R"(kernel 'saxpy': takes 4 parameters, the launch passes 1)");
}

TEST_F(CPURuntimeDeathTest, NullKernel) {
  EXPECT_EXIT(mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                               nullptr, 0),
              ExitedWithCode(1), R"(mgpuLaunchKernel: null kernel)");
}

//--- Barriers and shuffles -------------------------------------------------//

TEST_F(CPURuntimeDeathTest, ThreadReturnsWhileOthersWaitAtABarrier) {
  EXPECT_EXIT(launch("barrier_return", {1, 1, 1}, {32, 1, 1}),
              ExitedWithCode(1),
              R"(^gpumem: error: kernel 'barrier_return': divergent barrier )"
              R"(at diverge\.mlir:4:3: thread \(16,0,0\) of block \(0,0,0\) )"
              R"(returned from the kernel while 16 threads wait there
$)");
  // The same from a pool thread, in the block it happens to run.
  EXPECT_EXIT(
      {
        gpumemCPURuntimeConfigure(2, 0);
        launch("barrier_return", {2, 1, 1}, {20, 1, 1});
      },
      ExitedWithCode(1),
      R"(kernel 'barrier_return': divergent barrier at diverge\.mlir:4:3: )"
      R"(thread \(16,0,0\) of block \([01],0,0\) returned from the kernel )"
      R"(while 16 threads wait there)");
}

TEST_F(CPURuntimeDeathTest, ThreadsReturningBeforeABarrierMakeItDivergent) {
  // Threads 0..15 return before the others reach the barrier: as wrong as
  // returning while they wait, whichever order the threads run in.
  std::vector<int32_t> out(48, -1);
  int32_t *p = out.data();
  EXPECT_EXIT(launch("late_barrier", {1, 1, 1}, {48, 1, 1}, {&p}),
              ExitedWithCode(1),
              R"(^gpumem: error: kernel 'late_barrier': divergent barrier at )"
              R"(late\.mlir:5:3: thread \(0,0,0\) of block \(0,0,0\) and 15 )"
              R"(other threads returned from the kernel without reaching it
$)");
  // synccheck reports it at the first thread that waits, and lets the
  // barrier complete without them.
  EXPECT_EXIT(
      {
        launch("late_barrier_synccheck", {1, 1, 1}, {48, 1, 1}, {&p});
        bool right = true;
        for (int64_t t = 0; t < 48; ++t)
          right &= out[t] == (t < 16 ? -1 : 3 * (16 + (t - 16 + 1) % 32));
        std::fprintf(stderr, "results %s\n", right ? "right" : "wrong");
        std::exit(0);
      },
      ExitedWithCode(1),
      R"(^gpumem: sanitizer: divergent barrier in kernel )"
      R"('late_barrier_synccheck', block \(0,0,0\) thread \(16,0,0\)
  at late\.mlir:5:3
  thread \(0,0,0\) and 15 other threads returned from the kernel without )"
      R"(reaching it, while 32 threads wait here
results right
gpumem: sanitizer: ERROR SUMMARY: 1 error
$)");
}

TEST_F(CPURuntimeDeathTest, ThreadsAtDifferentBarriers) {
  EXPECT_EXIT(launch("barrier_mismatch", {1, 1, 1}, {8, 1, 1}),
              ExitedWithCode(1),
              R"(^gpumem: error: kernel 'barrier_mismatch': divergent )"
              R"(barrier at mismatch\.mlir:5:3: thread \(1,0,0\) of block )"
              R"(\(0,0,0\) waits there while 1 threads wait at )"
              R"(mismatch\.mlir:2:3
$)");
}

TEST_F(CPURuntimeDeathTest, LanesAtDifferentShuffles) {
  EXPECT_EXIT(launch("shuffle_mismatch", {1, 1, 1}, {32, 1, 1}),
              ExitedWithCode(1),
              R"(^gpumem: error: kernel 'shuffle_mismatch': deadlock at )"
              R"(shuffle smismatch\.mlir:2:2: thread \(16,0,0\) of block )"
              R"(\(0,0,0\) waits there while 16 threads of its warp wait at )"
              R"(the shuffle at smismatch\.mlir:1:1
$)");
}

TEST_F(CPURuntimeDeathTest, LanesAtAShuffleAndABarrier) {
  EXPECT_EXIT(launch("shuffle_vs_barrier", {1, 1, 1}, {4, 1, 1}),
              ExitedWithCode(1),
              R"(kernel 'shuffle_vs_barrier': deadlock at shuffle )"
              R"(mixed\.mlir:6:5: thread \(1,0,0\) of block \(0,0,0\) waits )"
              R"(there while 1 threads of its warp wait at the barrier at )"
              R"(mixed\.mlir:3:5)");
  EXPECT_EXIT(launch("barrier_vs_shuffle", {1, 1, 1}, {4, 1, 1}),
              ExitedWithCode(1),
              R"(kernel 'barrier_vs_shuffle': deadlock at barrier )"
              R"(mixed2\.mlir:4:5: thread \(1,0,0\) of block \(0,0,0\) waits )"
              R"(there while 1 threads of its warp wait at the shuffle at )"
              R"(mixed2\.mlir:2:5)");
}

TEST_F(CPURuntimeDeathTest, BarrierInAKernelWithoutFibers) {
  EXPECT_EXIT(launch("barrier_no_fibers", {1, 1, 1}, {2, 1, 1}),
              ExitedWithCode(1),
              R"(kernel 'barrier_no_fibers': thread \(0,0,0\) of block )"
              R"(\(0,0,0\) reached the barrier at nofibers\.mlir:2:3, but the )"
              R"(kernel is marked as having no barriers or warp operations )"
              R"(\(needsFibers == 0\))");
}

TEST_F(CPURuntimeDeathTest, ShuffleWidthOutOfRange) {
  EXPECT_EXIT(launch("shuffle_bad_width", {1, 1, 1}, {32, 1, 1}),
              ExitedWithCode(1),
              R"(kernel 'shuffle_bad_width': shuffle at width\.mlir:1:1: )"
              R"(width 0 is not in 1\.\.32)");
}

//--- 64-lane warps --------------------------------------------------------//

TEST_F(CPURuntimeDeathTest, MemberMaskNamesALanePastTheBlock) {
  // 48 threads: the warp has lanes 0..47, the mask names all 64.
  EXPECT_EXIT(launch("wave64_full_mask", {1, 1, 1}, {48, 1, 1}),
              ExitedWithCode(1),
              R"(^gpumem: error: kernel 'wave64_full_mask': bar\.warp\.sync )"
              R"(at full_mask\.mlir:4:5: thread \([0-9]+,0,0\) of block )"
              R"(\(0,0,0\) names lanes that do not exist in member mask )"
              R"(0xffffffffffffffff \(its warp has 48 lanes\)
$)");
}

TEST_F(CPURuntimeDeathTest, NamedBarrierCountOfAWarpOf32In64LaneWarps) {
  int32_t *out = nullptr, count = 96;
  EXPECT_EXIT(launch("wave64_barrier", {1, 1, 1}, {128, 1, 1}, {&out, &count}),
              ExitedWithCode(1),
              R"(kernel 'wave64_barrier': bar\.sync at )"
              R"(wave64_barrier\.mlir:3:3: a thread count of 96 is not a )"
              R"(positive multiple of 64)");
}

TEST_F(CPURuntimeDeathTest, ShuffleWiderThan64Lanes) {
  int32_t mode = GPUMEM_SHUFFLE_XOR, offset = 1, width = 65;
  uint64_t *values = nullptr;
  int32_t *valid = nullptr;
  EXPECT_EXIT(launch("shuffle_wave64", {1, 1, 1}, {64, 1, 1},
                     {&mode, &offset, &width, &values, &valid}),
              ExitedWithCode(1),
              R"(kernel 'shuffle_wave64': shuffle at shuffle\.mlir:7:11: )"
              R"(width 65 is not in 1\.\.64)");
}

TEST_F(CPURuntimeDeathTest, WarpSizeNeither32Nor64) {
  EXPECT_EXIT(mgpuModuleGetFunction(testModule(), "warp_size_48"),
              ExitedWithCode(1),
              R"(kernel 'warp_size_48': malformed kernel record \(warpSize )"
              R"(48; the runtime runs warps of 32 or 64 lanes\))");
}

TEST_F(CPURuntimeDeathTest, BlockSizeOtherThanKnown) {
  launch("empty_known", {2, 1, 1}, {8, 2, 1});
  EXPECT_EXIT(launch("empty_known", {2, 1, 1}, {16, 1, 1}), ExitedWithCode(1),
              R"(kernel 'empty_known': a block of 16 x 1 x 1 threads, but )"
              R"(the kernel was compiled for blocks of 8 x 2 x 1 \(its )"
              R"(known_block_size\))");
}

TEST_F(CPURuntimeDeathTest, AssertFail) {
  // The failing threads print CUDA's line and stop; the others go on; the
  // launch fails at its end.
  const char *expected =
      R"(^assert\.mlir:7: check: block: \[1,0,0\], thread: \[3,0,0\] )"
      R"(Assertion `x must be positive` failed\.
thread 4 went on
assert\.mlir:7: check: block: \[1,0,0\], thread: \[5,0,0\] )"
      R"(Assertion `x must be positive` failed\.
gpumem: error: kernel 'assert': an assertion failed \(the failing threads )"
      R"(are listed above\)
$)";
  EXPECT_EXIT(launch("assert", {2, 1, 1}, {8, 1, 1}), ExitedWithCode(1),
              expected);
  EXPECT_EXIT(
      {
        gpumemCPURuntimeConfigure(4, 0);
        launch("assert", {16, 1, 1}, {8, 1, 1});
      },
      ExitedWithCode(1), expected);
}

TEST_F(CPURuntimeDeathTest, AssertFailBeforeBarrier) {
  // The barrier completes without the thread that failed.
  EXPECT_EXIT(launch("assert_barrier", {1, 1, 1}, {8, 1, 1}), ExitedWithCode(1),
              R"(^barrier\.mlir:2: \(unknown\): block: \[0,0,0\], )"
              R"(thread: \[3,0,0\] Assertion `three` failed\.
past the barrier
gpumem: error: kernel 'assert_barrier': an assertion failed)");
}

//--- Modules ---------------------------------------------------------------//

TEST_F(CPURuntimeDeathTest, GarbageModuleBytes) {
  std::vector<char> garbage(4096, 'x');
  EXPECT_EXIT(mgpuModuleLoad(garbage.data(), garbage.size()), ExitedWithCode(1),
              R"(^gpumem: error: mgpuModuleLoad: the module \(4096 bytes\) is )"
              R"(not an ELF shared object; the cpu runtime loads gpu\.modules )"
              R"(compiled for gpumem's cpu target
$)");
  EXPECT_EXIT(mgpuModuleLoad(garbage.data(), 0), ExitedWithCode(1),
              R"(the module \(0 bytes\) is not an ELF shared object)");
}

TEST_F(CPURuntimeDeathTest, TruncatedModule) {
  std::vector<char> bytes = readFile(GPUMEM_TEST_KERNELS);
  bytes.resize(300);
  EXPECT_EXIT(mgpuModuleLoad(bytes.data(), bytes.size()), ExitedWithCode(1),
              R"(^gpumem: error: mgpuModuleLoad: cannot load the module )"
              R"(\(300 bytes\): .+)");
}

TEST_F(CPURuntimeDeathTest, ModuleForAnotherMachine) {
  std::vector<char> bytes = readFile(GPUMEM_TEST_KERNELS);
  uint16_t cuda = 190; // EM_CUDA, as in a cubin
  std::memcpy(&bytes[18], &cuda, 2);
  EXPECT_EXIT(mgpuModuleLoad(bytes.data(), bytes.size()), ExitedWithCode(1),
              R"(mgpuModuleLoad: the module is an ELF object for machine 190, )"
              R"(not for this host \([0-9]+\); it is a cubin: run it with )"
              R"(libgpumem_cuda_runtime\.so)");
}

TEST_F(CPURuntimeDeathTest, ModuleWithoutTheModuleSymbol) {
  EXPECT_EXIT(loadModule(GPUMEM_TEST_KERNELS_NO_SYMBOL), ExitedWithCode(1),
              R"(^gpumem: error: mgpuModuleLoad: the shared object exports )"
              R"(no '__gpumem_cpu_module': it is not a gpu\.module compiled )"
              R"(for gpumem's cpu target
$)");
}

TEST_F(CPURuntimeDeathTest, ModuleWithAnotherABIVersion) {
  EXPECT_EXIT(loadModule(GPUMEM_TEST_KERNELS_BAD_ABI), ExitedWithCode(1),
              R"(mgpuModuleLoad: the module was compiled for cpu kernel abi )"
              R"(version 99; this runtime implements version )" +
                  std::to_string(GPUMEM_CPU_ABI_VERSION));
}

TEST_F(CPURuntimeDeathTest, MissingKernel) {
  EXPECT_EXIT(mgpuModuleGetFunction(testModule(), "nope"), ExitedWithCode(1),
              R"(^gpumem: error: mgpuModuleGetFunction: the module has no )"
              R"(kernel 'nope'; its kernels: saxpy, saxpy_loop, whoami, )"
              R"(rendezvous, empty, .*, stack_hog
$)");
}

TEST_F(CPURuntimeDeathTest, JITLoadingPTX) {
  char ptx[] = ".version 8.0\n.target sm_90\n";
  EXPECT_EXIT(mgpuModuleLoadJIT(ptx, 2), ExitedWithCode(1),
              R"(^gpumem: error: the cpu runtime cannot JIT-load PTX )"
              R"(\(mgpuModuleLoadJIT\))");
}

//--- Environment -----------------------------------------------------------//

/// With GPUMEM_CPU_THREADS=3, three blocks that wait for each other all
/// start; exits 0 when they did.
void runThreeWorkers() {
  setenv("GPUMEM_CPU_THREADS", "3", 1);
  gpumemCPURuntimeConfigure(0, 0);
  int64_t counter = 0;
  int64_t *counterp = &counter;
  std::vector<uint64_t> ids(3, 0);
  std::vector<int32_t> ok(3, 0);
  uint64_t *idp = ids.data();
  int32_t *okp = ok.data();
  launch("rendezvous", {3, 1, 1}, {1, 1, 1}, {&counterp, &idp, &okp});
  bool good = ok == std::vector<int32_t>(3, 1) &&
              std::set<uint64_t>(ids.begin(), ids.end()).size() == 3;
  std::fprintf(stderr, good ? "three workers\n" : "wrong\n");
  std::exit(good ? 0 : 2);
}

TEST_F(CPURuntimeDeathTest, ThreadsFromTheEnvironment) {
  EXPECT_EXIT(runThreeWorkers(), ExitedWithCode(0), "three workers");
}

TEST_F(CPURuntimeDeathTest, BadThreadsVariable) {
  EXPECT_EXIT(
      {
        setenv("GPUMEM_CPU_THREADS", "abc", 1);
        gpumemCPURuntimeConfigure(0, 0);
      },
      ExitedWithCode(1),
      R"(^gpumem: error: GPUMEM_CPU_THREADS must be an integer in )"
      R"(1\.\.4096, not 'abc'
$)");
  EXPECT_EXIT(
      {
        setenv("GPUMEM_CPU_THREADS", "0", 1);
        gpumemCPURuntimeConfigure(0, 0);
      },
      ExitedWithCode(1),
      R"(GPUMEM_CPU_THREADS must be an integer in )"
      R"(1\.\.4096, not '0')");
}

/// With GPUMEM_CPU_STACK_SIZE=1M, threads with 256 KiB of locals run
/// (the default 64 KiB is too small); exits 0 when they computed right.
void runWithBigStacks() {
  setenv("GPUMEM_CPU_STACK_SIZE", "1M", 1);
  gpumemCPURuntimeConfigure(0, 0);
  std::vector<int32_t> out(64, 0);
  int32_t *p = out.data();
  launch("stack_hog", {2, 1, 1}, {64, 1, 1}, {&p});
  // The sum of char(i >> 10) for i = 0, 1024, ... below 256 KiB.
  int32_t want = 0;
  for (int i = 0; i < 256; ++i)
    want += char(i);
  bool good = out == std::vector<int32_t>(64, want);
  std::fprintf(stderr, good ? "big stacks\n" : "wrong\n");
  std::exit(good ? 0 : 2);
}

TEST_F(CPURuntimeDeathTest, StackSizeFromTheEnvironment) {
  EXPECT_EXIT(runWithBigStacks(), ExitedWithCode(0), "big stacks");
}

TEST_F(CPURuntimeDeathTest, BadStackSizeVariable) {
  EXPECT_EXIT(
      {
        setenv("GPUMEM_CPU_STACK_SIZE", "4K", 1);
        gpumemCPURuntimeConfigure(0, 0);
      },
      ExitedWithCode(1),
      R"(GPUMEM_CPU_STACK_SIZE must be a size from 16K to 1G \(bytes, or )"
      R"(with a K, M or G suffix\), not '4K')");
}

/// Runs stack_hog (256 KiB of locals) on 64 KiB fiber stacks.
void overflowFiberStacks(int32_t workers, intptr_t blocks) {
  gpumemCPURuntimeConfigure(workers, 64 << 10);
  std::vector<int32_t> out(blocks * 2, 0);
  int32_t *p = out.data();
  launch("stack_hog", {blocks, 1, 1}, {2, 1, 1}, {&p});
}

TEST_F(CPURuntimeDeathTest, FiberStackOverflow) {
  EXPECT_EXIT(overflowFiberStacks(1, 1), ExitedWithCode(1),
              R"(^gpumem: error: kernel 'stack_hog': thread \(0,0,0\) of )"
              R"(block \(0,0,0\) overflowed its fiber stack of 65536 bytes; )"
              R"(set GPUMEM_CPU_STACK_SIZE to more
$)");
  // On pool threads too.
  EXPECT_EXIT(overflowFiberStacks(2, 8), ExitedWithCode(1),
              R"(kernel 'stack_hog': thread \(0,0,0\) of block \([0-7],0,0\) )"
              R"(overflowed its fiber stack of 65536 bytes)");
}

/// A fault that is no stack overflow is reported as the kernel's crash,
/// with its block and thread: stack_hog with big enough stacks, storing
/// its result through a null pointer.
void nullStoreInFiberMode() {
  gpumemCPURuntimeConfigure(1, 1 << 20);
  int32_t *null = nullptr;
  launch("stack_hog", {1, 1, 1}, {2, 1, 1}, {&null});
}

TEST_F(CPURuntimeDeathTest, OtherFaultsAreKernelCrashes) {
  EXPECT_EXIT(nullStoreInFiberMode(), ::testing::ExitedWithCode(1),
              R"(gpumem: error: kernel 'stack_hog' crashed \(SIGSEGV: )"
              R"(invalid memory access at 0x4\) in block \(0,0,0\) thread )"
              R"(\([01],0,0\))");
}

/// A fault outside kernels, after a launch installed the runtime's
/// handlers, goes to the handler that was there before (AddressSanitizer's
/// in sanitizer builds), or kills the process.
void hostFaultAfterALaunch() {
  int32_t results[2] = {};
  int32_t *out = results;
  gpumemCPURuntimeConfigure(1, 1 << 20);
  launch("stack_hog", {1, 1, 1}, {2, 1, 1}, {&out});
  // An unmapped page (not null, which UndefinedBehaviorSanitizer reports
  // first), through a volatile address so that the compiler does not object.
  volatile uintptr_t unmapped = 64;
  *reinterpret_cast<volatile int32_t *>(uintptr_t(unmapped)) = results[0];
}

TEST_F(CPURuntimeDeathTest, HostFaultsStayCrashes) {
#ifdef GPUMEM_ADDRESS_SANITIZER
  EXPECT_EXIT(hostFaultAfterALaunch(), ::testing::ExitedWithCode(1),
              "AddressSanitizer: SEGV");
#else
  EXPECT_EXIT(hostFaultAfterALaunch(), ::testing::KilledBySignal(SIGSEGV), "");
#endif
}

} // namespace

namespace {

/// mgpuMemFree takes only the start of device memory from mgpuMemAlloc.
TEST_F(CPURuntimeDeathTest, FreeOfAnInteriorPointer) {
  EXPECT_EXIT(
      {
        auto *d = static_cast<char *>(mgpuMemAlloc(64, nullptr, false));
        mgpuMemFree(d + 8, nullptr);
      },
      ::testing::ExitedWithCode(1),
      "gpumem: error: mgpuMemFree: 0x[0-9a-f]+ is 8 bytes into device memory "
      "of 64 bytes, not its start");
}

TEST_F(CPURuntimeDeathTest, FreeOfHostMemory) {
  EXPECT_EXIT(
      {
        static int host[4];
        mgpuMemFree(host, nullptr);
      },
      ::testing::ExitedWithCode(1),
      "gpumem: error: mgpuMemFree: 0x[0-9a-f]+ is not device memory from "
      "mgpuMemAlloc");
}

/// A copy into freed memory, through a pointer inside it.
TEST_F(CPURuntimeDeathTest, CopyIntoFreedMemory) {
  EXPECT_EXIT(
      {
        auto *d = static_cast<char *>(mgpuMemAlloc(64, nullptr, false));
        char host[16] = {};
        mgpuMemFree(d, nullptr);
        mgpuMemcpy(d + 16, host, sizeof(host), nullptr);
      },
      ::testing::ExitedWithCode(1),
      "gpumem: error: mgpuMemcpy: the destination 0x[0-9a-f]+ is 16 bytes "
      "into device memory of 64 bytes that was freed \\(use after free\\)");
}

} // namespace
