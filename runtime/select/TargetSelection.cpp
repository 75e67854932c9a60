//===----------------------------------------------------------------------===//
// gpumemRunTargetImages: the start-up of a multi-target executable
// (include/gpumem/Runtime/TargetSelection.h).
//
// For each image in order (or only the one GPUMEM_TARGET names), its
// runtime library is dlopen'ed RTLD_LOCAL and asked gpumemRuntimeProbe; the
// first image whose runtime finds at least the device it needs is chosen
// (the others' libraries stay loaded, unused). The chosen library is then
// made global (RTLD_NOLOAD | RTLD_GLOBAL), as if the executable had linked it:
// the cpu runtime's kernel objects resolve their runtime services against it.
// Its functions fill the image's slots, its constructors run, the destructors
// are registered with atexit (so they run, in order, before the runtime's
// own static destructors), and the image's entry runs as main.
//
// This is linked statically into the executable, which has no C++ runtime of
// its own: plain C library calls only, no exceptions. dlopen here searches
// the executable's run path, so the runtimes are found where gpumem-compile
// told the linker they are.
//===----------------------------------------------------------------------===//

#include "gpumem/Runtime/TargetSelection.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace {

/// Prints "gpumem: error: ..." on stderr.
__attribute__((format(printf, 1, 2))) void error(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  fputs("gpumem: error: ", stderr);
  vfprintf(stderr, format, arguments);
  fputc('\n', stderr);
  va_end(arguments);
}

/// Writes the images' names as "cuda, rocm and cpu" into `out`.
void formatNames(const GPUMemTargetImage *images, int32_t count, char *out,
                 size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int32_t i = 0; i < count && used < size; ++i)
    used += snprintf(out + used, size - used, "%s%s",
                     i == 0           ? ""
                     : i + 1 == count ? " and "
                                      : ", ",
                     images[i].name);
}

/// dlopen's `image`'s runtime with `flags`: by name (the run path), then
/// next to the executable, in ../lib from it, and where gpumem-compile found
/// it. Null with dlerror's first message when none loads.
void *openRuntime(const GPUMemTargetImage &image, int flags) {
  dlerror();
  if (void *library = dlopen(image.runtimeLibrary, flags))
    return library;
  char directory[4096];
  ssize_t length = readlink("/proc/self/exe", directory, sizeof(directory) - 1);
  directory[length > 0 ? length : 0] = '\0';
  if (char *slash = strrchr(directory, '/'))
    *slash = '\0';
  const char *formats[] = {"%s/%s", "%s/../lib/%s"};
  char path[8192];
  for (const char *format : formats) {
    snprintf(path, sizeof(path), format, directory, image.runtimeLibrary);
    if (void *library = dlopen(path, flags))
      return library;
  }
  snprintf(path, sizeof(path), "%s/%s", image.runtimeDirectory,
           image.runtimeLibrary);
  if (void *library = dlopen(path, flags))
    return library;
  // dlerror of the plain name is the message worth giving.
  dlerror();
  dlopen(image.runtimeLibrary, flags);
  return nullptr;
}

/// Loads the runtime of `image` RTLD_LOCAL and returns what its probe says:
/// a GPUMEM_DEVICE_* kind, and in `detail` the device or why there is none
/// (NONE when the library does not load).
int probe(const GPUMemTargetImage &image, char *detail, size_t size) {
  void *library = openRuntime(image, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    snprintf(detail, size, "cannot load %s: %s", image.runtimeLibrary,
             why ? why : "not found");
    return GPUMEM_DEVICE_NONE;
  }
  auto *probeFn = reinterpret_cast<int (*)(char *, size_t)>(
      dlsym(library, "gpumemRuntimeProbe"));
  if (!probeFn) {
    snprintf(detail, size, "%s has no gpumemRuntimeProbe",
             image.runtimeLibrary);
    return GPUMEM_DEVICE_NONE;
  }
  detail[0] = '\0';
  return probeFn(detail, size);
}

/// Why a device of `kind` does not make `image` runnable, for -v and the
/// error without any runnable image.
const char *notEnough(int kind) {
  return kind == GPUMEM_DEVICE_CPU ? " is not a GPU" : "";
}

/// Makes `image`'s runtime global, fills its slots, runs it.
int run(const GPUMemTargetImage &image) {
  void *library = openRuntime(image, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
  if (!library) {
    const char *why = dlerror();
    error("cannot load %s: %s", image.runtimeLibrary, why ? why : "not found");
    return 1;
  }
  for (int32_t i = 0; i < image.symbolCount; ++i) {
    void *symbol = dlsym(library, image.symbolNames[i]);
    if (!symbol) {
      error("the %s runtime %s has no %s; the executable and the runtime "
            "are from different gpumem builds",
            image.name, image.runtimeLibrary, image.symbolNames[i]);
      return 1;
    }
    image.symbolSlots[i] = symbol;
  }
  for (int32_t i = 0; i < image.constructorCount; ++i)
    image.constructors[i]();
  // atexit runs the last registered first.
  for (int32_t i = image.destructorCount - 1; i >= 0; --i)
    if (atexit(image.destructors[i]) != 0) {
      error("cannot register the %s program's destructors", image.name);
      return 1;
    }
  return image.entry();
}

} // namespace

extern "C" int gpumemRunTargetImages(int argc, char **argv,
                                     const GPUMemTargetImage *images,
                                     int32_t count) {
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-v") == 0) {
      verbose = true;
      continue;
    }
    error("unknown argument '%s'; the only one is -v (say which target "
          "runs)",
          argv[i]);
    return 1;
  }
  const char *forced = getenv("GPUMEM_TARGET");
  if (forced && !*forced)
    forced = nullptr;
  if (forced) {
    bool known = false;
    for (int32_t i = 0; i < count; ++i)
      known = known || strcmp(images[i].name, forced) == 0;
    if (!known) {
      char names[256];
      formatNames(images, count, names, sizeof(names));
      error("GPUMEM_TARGET=%s is not a target of this executable, which has "
            "%s",
            forced, names);
      return 1;
    }
  }
  char detail[512];
  for (int32_t i = 0; i < count; ++i) {
    const GPUMemTargetImage &image = images[i];
    if (forced && strcmp(image.name, forced) != 0)
      continue;
    int kind = probe(image, detail, sizeof(detail));
    int least = forced ? GPUMEM_DEVICE_CPU : image.leastDevice;
    if (kind >= least) {
      if (verbose)
        fprintf(stderr, "gpumem: target %s (%s)%s\n", image.name, detail,
                forced ? ", forced by GPUMEM_TARGET" : "");
      return run(image);
    }
    if (forced) {
      error("GPUMEM_TARGET=%s cannot run here: %s", forced, detail);
      return 1;
    }
    if (verbose)
      fprintf(stderr, "gpumem: not %s: %s%s\n", image.name, detail,
              notEnough(kind));
    // A runtime not taken stays loaded, unused: its probe may have started
    // a driver whose threads run its code (lavapipe's do), and RTLD_LOCAL
    // keeps its symbols apart from the chosen one's.
  }
  error("none of this executable's targets can run here%s",
        verbose ? "" : " (-v says why)");
  return 1;
}
