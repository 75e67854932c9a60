//===----------------------------------------------------------------------===//
// Helpers of the rocm runtime tests: pointing the runtime at the fake HIP
// (ROCmRuntimeFakeHIP.cpp, whose path CMake passes in as GPUMEM_FAKE_HIP),
// reaching the fake's control and query functions, and running a check in a
// fresh process. The runtime reads GPUMEM_HIP_LIBRARY once per process, at
// its first call; death tests re-execute the test binary ("threadsafe"
// style), so each starts with a runtime that has not loaded HIP yet.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_UNITTESTS_ROCMRUNTIMETESTSUPPORT_H
#define GPUMEM_UNITTESTS_ROCMRUNTIMETESTSUPPORT_H

#include "ROCmRuntime.h"
#include "ROCmRuntimeFakeHIP.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace gpumem_rocm_test {

/// Every control and query function of the fake HIP, for X-macros.
#define GPUMEM_FAKE_HIP_FUNCTIONS(X)                                           \
  X(Reset)                                                                     \
  X(CallLogSize)                                                               \
  X(CallLogEntry)                                                              \
  X(SetDeviceCount)                                                            \
  X(SetInitResult)                                                             \
  X(Fail)                                                                      \
  X(SetMaxSharedPerBlock)                                                      \
  X(SetArchName)                                                               \
  X(SetStaticSharedBytes)                                                      \
  X(SetMemInfo)                                                                \
  X(SetConcurrentManagedAccess)                                                \
  X(SetRegisteredOffset)                                                       \
  X(SetDeinitialized)                                                          \
  X(Deinitialized)

/// The fake HIP's control and query functions, from the same loaded copy
/// the runtime uses (dlopen of one path gives one object).
struct FakeHip {
#define FAKE_FUNCTION(name) decltype(&::fakeHip##name) name;
  GPUMEM_FAKE_HIP_FUNCTIONS(FAKE_FUNCTION)
#undef FAKE_FUNCTION

  /// Every call recorded since the last Reset, or only those of `symbol`.
  std::vector<FakeHipCall> calls(const char *symbol = nullptr) const {
    std::vector<FakeHipCall> result;
    FakeHipCall call;
    for (int i = 0; CallLogEntry(i, &call); ++i)
      if (!symbol || std::strcmp(call.symbol, symbol) == 0)
        result.push_back(call);
    return result;
  }
  int count(const char *symbol) const { return int(calls(symbol).size()); }
  /// The symbols called, in order.
  std::vector<std::string> symbols() const {
    std::vector<std::string> result;
    for (const FakeHipCall &call : calls())
      result.push_back(call.symbol);
    return result;
  }
  /// The last call of `symbol`; a zeroed record when there was none.
  FakeHipCall last(const char *symbol) const {
    std::vector<FakeHipCall> all = calls(symbol);
    return all.empty() ? FakeHipCall{} : all.back();
  }
};

/// Loads the fake HIP at `path` and resolves its functions; exits when that
/// fails.
inline FakeHip *loadFakeHip(const char *path) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::fprintf(stderr, "cannot load the fake HIP: %s\n", dlerror());
    std::exit(3);
  }
  auto *functions = new FakeHip;
#define FAKE_FUNCTION(name)                                                    \
  functions->name = reinterpret_cast<decltype(functions->name)>(               \
      dlsym(library, "fakeHip" #name));                                        \
  if (!functions->name) {                                                      \
    std::fprintf(stderr, "the fake HIP has no fakeHip" #name "\n");            \
    std::exit(3);                                                              \
  }
  GPUMEM_FAKE_HIP_FUNCTIONS(FAKE_FUNCTION)
#undef FAKE_FUNCTION
  return functions;
}

/// The fake HIP the tests point the runtime at (loaded once per process).
inline FakeHip &fake() {
  static FakeHip *loaded = loadFakeHip(GPUMEM_FAKE_HIP);
  return *loaded;
}

/// Makes the runtime load the fake HIP at its first call in this process,
/// and clears the fake's log and scripted failures.
class ROCmRuntimeFakeTest : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    setenv("GPUMEM_HIP_LIBRARY", GPUMEM_FAKE_HIP, 1);
    unsetenv("GPUMEM_ROCM_DEVICE");
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

/// The integer the fake records for a pointer or handle.
inline uint64_t bits(const void *pointer) {
  return uint64_t(uintptr_t(pointer));
}

} // namespace gpumem_rocm_test

#endif // GPUMEM_UNITTESTS_ROCMRUNTIMETESTSUPPORT_H
