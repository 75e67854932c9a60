//===----------------------------------------------------------------------===//
// rocm runtime: a program shaped like gpumem's compiled host code, on the
// fake HIP. A priority-123 constructor picks HIP, loads the module and makes
// a stream, an event, device and managed memory and a host registration;
// main launches with dynamic LDS; a priority-123 destructor releases
// everything. That destructor runs after HIP has shut down at exit (the
// fake registers its shutdown with atexit in hipInit), so every release
// meets hipErrorDeinitialized, which must not be an error. Prints "ok" from
// main and a line from the destructor; exits 0 with nothing on stderr.
//===----------------------------------------------------------------------===//

#include "ROCmRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

static void *module, *stream, *event, *buffer, *managed;
static char registered[256];

__attribute__((constructor(123))) static void loadAtStartup() {
  setenv("GPUMEM_HIP_LIBRARY", GPUMEM_FAKE_HIP, 1);
  static char image[] = "atexit_kernel";
  module = mgpuModuleLoad(image, sizeof(image));
  stream = mgpuStreamCreate();
  event = mgpuEventCreate();
  buffer = mgpuMemAlloc(64, stream, false);
  managed = mgpuMemAlloc(64, nullptr, true);
  mgpuMemHostRegister(registered, sizeof(registered));
}

__attribute__((destructor(123))) static void unloadAtExit() {
  mgpuMemHostUnregister(registered);
  mgpuMemFree(managed, nullptr);
  mgpuMemFree(buffer, stream);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
  void *fake = dlopen(GPUMEM_FAKE_HIP, RTLD_NOW | RTLD_LOCAL);
  auto shutDown =
      fake ? reinterpret_cast<int (*)()>(dlsym(fake, "fakeHipDeinitialized"))
           : nullptr;
  std::printf("%s\n", shutDown && shutDown() ? "released after HIP shut down"
                                             : "HIP had not shut down");
}

int main() {
  void *kernel = mgpuModuleGetFunction(module, "atexit_kernel");
  void *params[] = {&buffer, &managed};
  mgpuLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 1024, stream, params, nullptr, 2);
  mgpuEventRecord(event, stream);
  mgpuEventSynchronize(event);
  std::printf("ok\n");
  return 0;
}
