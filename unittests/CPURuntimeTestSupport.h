//===----------------------------------------------------------------------===//
// Helpers of the CPU runtime tests: loading the test kernel module
// (CPURuntimeTestKernels.cpp, built as a shared object whose path CMake
// passes in) through mgpuModuleLoad, and launching its kernels through
// mgpuModuleGetFunction and mgpuLaunchKernel, as compiled host code does.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_UNITTESTS_CPURUNTIMETESTSUPPORT_H
#define GPUMEM_UNITTESTS_CPURUNTIMETESTSUPPORT_H

#include "CPURuntime.h"
#include "gpumem/Runtime/CPUKernelABI.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace gpumem_test {

/// The bytes of the file at `path`; exits when it cannot be read.
inline std::vector<char> readFile(const char *path) {
  std::vector<char> bytes;
  FILE *file = std::fopen(path, "rb");
  if (!file) {
    std::fprintf(stderr, "cannot open %s\n", path);
    std::exit(3);
  }
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    bytes.insert(bytes.end(), buffer, buffer + n);
  std::fclose(file);
  return bytes;
}

/// mgpuModuleLoad of the shared object at `path`.
inline void *loadModule(const char *path) {
  std::vector<char> bytes = readFile(path);
  return mgpuModuleLoad(bytes.data(), bytes.size());
}

/// The test kernels, loaded once per process.
inline void *testModule() {
  static void *module = loadModule(GPUMEM_TEST_KERNELS);
  return module;
}

struct Dim3 {
  intptr_t x = 1, y = 1, z = 1;
};

/// Launches kernel `name` of the test module; `args` point to the
/// arguments.
inline void launch(const char *name, Dim3 grid, Dim3 block,
                   std::vector<void *> args = {}, int32_t smem = 0,
                   void *stream = nullptr) {
  void *function = mgpuModuleGetFunction(testModule(), name);
  mgpuLaunchKernel(function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                   smem, stream, args.data(), nullptr, args.size());
}

} // namespace gpumem_test

#endif // GPUMEM_UNITTESTS_CPURUNTIMETESTSUPPORT_H
