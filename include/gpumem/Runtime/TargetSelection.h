/*===----------------------------------------------------------------------===*
 * One executable for several targets (gpumem-compile --target=cuda,rocm,cpu),
 * stated once for the compiler that writes such an executable, the runtimes
 * it chooses among and the start-up code that chooses.
 *
 * The executable holds one complete copy of the program per target: its
 * host code, its gpu.binary and its module constructors, with every symbol
 * renamed apart. The calls a copy makes into its target's runtime go
 * through slots that are empty until that runtime is chosen, and its
 * constructors do not run at start. main() calls gpumemRunTargetImages,
 * which asks each target's runtime, in the order of the images, whether its
 * device is here; the first that answers runs: its runtime is loaded for
 * good, the slots filled, the constructors run, its entry called, and its
 * destructors run at exit. GPUMEM_TARGET=<name> forces one image; `-v` as
 * the program's only argument says on stderr which one runs and why the
 * others did not.
 *===----------------------------------------------------------------------===*/

#ifndef GPUMEM_RUNTIME_TARGETSELECTION_H
#define GPUMEM_RUNTIME_TARGETSELECTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a runtime finds here, as gpumemRuntimeProbe answers. */
enum {
  GPUMEM_DEVICE_NONE = 0, /* nothing it can run kernels on */
  GPUMEM_DEVICE_CPU = 1,  /* CPU cores, or a Vulkan CPU driver */
  GPUMEM_DEVICE_GPU = 2   /* a GPU */
};

/* Exported by every runtime library: what it would run kernels on, without
   ending the process when there is nothing (the mgpu* calls would). Writes a
   NUL-terminated description of the device, or of why there is none, into
   `detail` (at most `size` bytes, truncated). */
__attribute__((visibility("default"))) int gpumemRuntimeProbe(char *detail,
                                                              size_t size);

/* One target's copy of the program in a multi-target executable. */
typedef struct GPUMemTargetImage {
  /* The target's name, as --target and GPUMEM_TARGET spell it: "cuda". */
  const char *name;
  /* Its runtime library, for dlopen: "libgpumem_cuda_runtime.so", found as
     the executable's run path says, else next to the executable, in ../lib
     from it, or in `runtimeDirectory` (where gpumem-compile found it): a
     sanitizer's dlopen interceptor does not search the run path. */
  const char *runtimeLibrary;
  const char *runtimeDirectory;
  /* The least GPUMEM_DEVICE_* its runtime must find for the image to be
     chosen without GPUMEM_TARGET: GPU for cuda, rocm and vulkan (a Vulkan CPU
     driver is not taken for a GPU), CPU for the targets that run kernels on
     CPU cores. A forced image needs only a device of any kind. */
  int32_t leastDevice;
  /* The runtime's functions this copy calls, by name, and the slot each
     call goes through. */
  int32_t symbolCount;
  const char *const *symbolNames;
  void **symbolSlots;
  /* The copy's global constructors and destructors, in the order to run. */
  int32_t constructorCount;
  void (*const *constructors)(void);
  int32_t destructorCount;
  void (*const *destructors)(void);
  /* The copy's main; returns the exit status. */
  int32_t (*entry)(void);
} GPUMemTargetImage;

/* Chooses one of `count` images as the file comment says and runs it;
   returns its exit status. Without a runnable image, or with a bad
   GPUMEM_TARGET or argument, prints "gpumem: error: ..." and returns 1. */
int gpumemRunTargetImages(int argc, char **argv,
                          const GPUMemTargetImage *images, int32_t count);

#ifdef __cplusplus
}
#endif

#endif /* GPUMEM_RUNTIME_TARGETSELECTION_H */
