//===----------------------------------------------------------------------===//
// CUDA runtime: a program shaped like gpumem's compiled host code, on the
// fake driver. A priority-123 constructor picks the driver, loads the
// module and makes a stream, an event and memory; main launches; a
// priority-123 destructor releases everything. That destructor runs after
// the driver has shut down at exit (the fake, like libcuda, registers its
// shutdown with atexit in cuInit), so every release meets
// CUDA_ERROR_DEINITIALIZED, which must not be an error. Prints "ok" from
// main and a line from the destructor; exits 0 with nothing on stderr.
//===----------------------------------------------------------------------===//

#include "CUDARuntime.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

static void *module, *stream, *event, *buffer;

__attribute__((constructor(123))) static void loadAtStartup() {
  setenv("GPUMEM_CUDA_DRIVER", GPUMEM_FAKE_CUDA, 1);
  static char image[] = "atexit_kernel";
  module = mgpuModuleLoad(image, sizeof(image));
  stream = mgpuStreamCreate();
  event = mgpuEventCreate();
  buffer = mgpuMemAlloc(64, stream, false);
}

__attribute__((destructor(123))) static void unloadAtExit() {
  mgpuMemFree(buffer, stream);
  mgpuEventDestroy(event);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
  void *fake = dlopen(GPUMEM_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
  auto shutDown =
      fake ? reinterpret_cast<int (*)()>(dlsym(fake, "fakeCudaDeinitialized"))
           : nullptr;
  std::printf("%s\n", shutDown && shutDown()
                          ? "released after the driver shut down"
                          : "the driver had not shut down");
}

int main() {
  void *kernel = mgpuModuleGetFunction(module, "atexit_kernel");
  void *params[] = {&buffer};
  mgpuLaunchKernel(kernel, 1, 1, 1, 32, 1, 1, 0, stream, params, nullptr, 1);
  mgpuEventRecord(event, stream);
  mgpuEventSynchronize(event);
  std::printf("ok\n");
  return 0;
}
