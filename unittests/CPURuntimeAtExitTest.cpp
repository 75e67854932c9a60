//===----------------------------------------------------------------------===//
// CPU runtime: a program shaped like gpumem's compiled host code. The module
// is loaded by a constructor of priority 123 and unloaded by a destructor of
// the same priority, after the runtime's own static destructors (the worker
// pool) have run; main launches on it with several workers. Exits 0 and
// prints "ok" when the kernel computed the right values.
//===----------------------------------------------------------------------===//

#include "CPURuntimeTestSupport.h"

#include <cstdio>
#include <vector>

static void *module;

__attribute__((constructor(123))) static void loadAtStartup() {
  module = gpumem_test::loadModule(GPUMEM_TEST_KERNELS);
}

__attribute__((destructor(123))) static void unloadAtExit() {
  mgpuModuleUnload(module);
}

int main() {
  gpumemCPURuntimeConfigure(2, 0);
  void *reduce = mgpuModuleGetFunction(module, "reduce");
  std::vector<int32_t> in(4 * 128, 1), out(4, 0);
  int32_t *inp = in.data(), *outp = out.data();
  void *params[] = {&inp, &outp};
  mgpuLaunchKernel(reduce, 4, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr, 2);
  if (out != std::vector<int32_t>(4, 128)) {
    std::printf("wrong sums\n");
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
