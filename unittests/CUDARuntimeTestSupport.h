//===----------------------------------------------------------------------===//
// Helpers of the CUDA runtime tests: pointing the runtime at the fake
// driver (CUDARuntimeFakeDriver.cpp, whose path CMake passes in as
// GPUMEM_FAKE_CUDA), reaching the fake's control and query functions, and
// running a check in a fresh process. The runtime reads GPUMEM_CUDA_DRIVER
// once per process, at its first call; death tests re-execute the test
// binary ("threadsafe" style), so each starts with a runtime that has not
// loaded a driver yet.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_UNITTESTS_CUDARUNTIMETESTSUPPORT_H
#define GPUMEM_UNITTESTS_CUDARUNTIMETESTSUPPORT_H

#include "CUDARuntime.h"
#include "CUDARuntimeFakeDriver.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace gpumem_cuda_test {

/// Every control and query function of the fake driver, for X-macros.
#define GPUMEM_FAKE_CUDA_FUNCTIONS(X)                                          \
  X(Reset)                                                                     \
  X(CallLogSize)                                                               \
  X(CallLogEntry)                                                              \
  X(SetDeviceCount)                                                            \
  X(SetComputeCapability)                                                      \
  X(SetInitResult)                                                             \
  X(Fail)                                                                      \
  X(SetMaxSharedPerBlockOptin)                                                 \
  X(SetStaticSharedBytes)                                                      \
  X(SetMemInfo)                                                                \
  X(SetConcurrentManagedAccess)                                                \
  X(SetJitLog)                                                                 \
  X(SetGlobal)                                                                 \
  X(SetDeinitialized)                                                          \
  X(Deinitialized)

/// The fake driver's control and query functions, from the same loaded
/// copy the runtime uses (dlopen of one path gives one object).
struct FakeCuda {
#define FAKE_FUNCTION(name) decltype(&::fakeCuda##name) name;
  GPUMEM_FAKE_CUDA_FUNCTIONS(FAKE_FUNCTION)
#undef FAKE_FUNCTION

  /// Every call recorded since the last Reset, or only those of `symbol`.
  std::vector<FakeCudaCall> calls(const char *symbol = nullptr) const {
    std::vector<FakeCudaCall> result;
    FakeCudaCall call;
    for (int i = 0; CallLogEntry(i, &call); ++i)
      if (!symbol || std::strcmp(call.symbol, symbol) == 0)
        result.push_back(call);
    return result;
  }
  int count(const char *symbol) const { return int(calls(symbol).size()); }
  /// The symbols called, in order.
  std::vector<std::string> symbols() const {
    std::vector<std::string> result;
    for (const FakeCudaCall &call : calls())
      result.push_back(call.symbol);
    return result;
  }
  /// The last call of `symbol`; a zeroed record when there was none.
  FakeCudaCall last(const char *symbol) const {
    std::vector<FakeCudaCall> all = calls(symbol);
    return all.empty() ? FakeCudaCall{} : all.back();
  }
};

/// Loads the fake driver at `path` and resolves its functions; exits when
/// that fails.
inline FakeCuda *loadFakeCuda(const char *path) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::fprintf(stderr, "cannot load the fake driver: %s\n", dlerror());
    std::exit(3);
  }
  auto *functions = new FakeCuda;
#define FAKE_FUNCTION(name)                                                    \
  functions->name = reinterpret_cast<decltype(functions->name)>(               \
      dlsym(library, "fakeCuda" #name));                                       \
  if (!functions->name) {                                                      \
    std::fprintf(stderr, "the fake driver has no fakeCuda" #name "\n");        \
    std::exit(3);                                                              \
  }
  GPUMEM_FAKE_CUDA_FUNCTIONS(FAKE_FUNCTION)
#undef FAKE_FUNCTION
  return functions;
}

/// The fake driver the tests point the runtime at (loaded once per
/// process).
inline FakeCuda &fake() {
  static FakeCuda *loaded = loadFakeCuda(GPUMEM_FAKE_CUDA);
  return *loaded;
}

/// Makes the runtime load the fake driver at its first call in this
/// process, and clears the fake's log and scripted failures.
class CUDARuntimeFakeTest : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    setenv("GPUMEM_CUDA_DRIVER", GPUMEM_FAKE_CUDA, 1);
    unsetenv("GPUMEM_CUDA_DEVICE");
    fake().Reset();
  }
};

/// Ends a fresh-process check with exit code 2 and `what` on stderr unless
/// `ok`.
inline void require(bool ok, const std::string &what) {
  if (ok)
    return;
  std::fprintf(stderr, "check failed: %s\n", what.c_str());
  std::fflush(nullptr);
  _exit(2);
}

/// Calls the function (a lambda) in a fresh process, a re-executed death
/// test child, which must then end with exit code 0 and nothing on stderr:
/// for checks that need the runtime's first call. The function reports
/// failures with require.
#define EXPECT_IN_FRESH_PROCESS(...)                                           \
  EXPECT_EXIT(((__VA_ARGS__)(), std::fflush(nullptr), _exit(0)),               \
              ::testing::ExitedWithCode(0), "^$")

/// mgpuModuleLoad of a fake module: its kernels are the names in `text`.
inline void *loadFakeModule(const char *text) {
  return mgpuModuleLoad(const_cast<char *>(text), std::strlen(text) + 1);
}

/// An entry of makeFatbin: kind 1 PTX, 2 cubin; sm 90 for sm_90; the
/// fatbin entry flags (0x100000: sm_90a; 0x8000: compressed).
struct FatbinPart {
  int kind;
  int sm;
  std::string payload;
  uint64_t flags = 0;
};

/// A fatbin as fatbinary lays it out (runtime/cuda/Fatbin.h): a 64-byte
/// header per entry, payloads padded to 8 bytes.
inline std::vector<unsigned char>
makeFatbin(const std::vector<FatbinPart> &parts) {
  std::vector<unsigned char> bytes(16, 0);
  auto put = [&](size_t offset, uint64_t value, size_t size) {
    std::memcpy(bytes.data() + offset, &value, size);
  };
  for (const FatbinPart &part : parts) {
    size_t at = bytes.size(), padded = (part.payload.size() + 7) / 8 * 8;
    bytes.resize(at + 64 + padded, 0);
    put(at, part.kind, 2);
    put(at + 2, 0x101, 2);
    put(at + 4, 64, 4);
    put(at + 8, padded, 8);
    put(at + 16, part.payload.size(), 4);
    put(at + 28, part.sm, 4);
    put(at + 40, 0x11 | part.flags, 8);
    put(at + 56, part.payload.size(), 8);
    std::memcpy(bytes.data() + at + 64, part.payload.data(),
                part.payload.size());
  }
  put(0, 0xBA55ED50, 4);
  put(4, 1, 2);
  put(6, 16, 2);
  put(8, bytes.size() - 16, 8);
  return bytes;
}

/// An sm_80 cubin, an sm_90 one and sm_90 PTX, as gpumem-compile
/// --chip=sm_80,sm_90 packs them; each has a kernel named after it.
inline std::vector<unsigned char> sm80sm90Fatbin() {
  return makeFatbin({{2, 80, "kernel_sm80_cubin"},
                     {2, 90, "kernel_sm90_cubin"},
                     {1, 90, "kernel_sm90_ptx"}});
}

/// The integer the fake records for a pointer or handle.
inline uint64_t bits(const void *pointer) {
  return uint64_t(uintptr_t(pointer));
}

} // namespace gpumem_cuda_test

#endif // GPUMEM_UNITTESTS_CUDARUNTIMETESTSUPPORT_H
