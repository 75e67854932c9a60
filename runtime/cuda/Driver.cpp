//===----------------------------------------------------------------------===//
// Loading the CUDA driver: dlopen, one dlsym per line of DriverSymbols.def
// (a missing symbol is an error unless the line says it is optional),
// cuInit(0), cuDeviceGetCount. The Driver lives in a function-local static
// pointer, initialised once under the compiler's guard and never destroyed,
// so it is safe from the priority-123 constructors that load modules and
// from the destructors that unload them at exit.
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Support.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace gpumem::cuda {

namespace {

constexpr const char *defaultDriverPath = "libcuda.so.1";

/// Names of the results the runtime may meet, for drivers whose
/// cuGetErrorName fails (the toolkit's stub library answers every call
/// with CUDA_ERROR_STUB_LIBRARY).
const char *knownName(CUresult result) {
  switch (result) {
#define NAME(value)                                                            \
  case value:                                                                  \
    return #value;
    NAME(CUDA_SUCCESS)
    NAME(CUDA_ERROR_INVALID_VALUE)
    NAME(CUDA_ERROR_OUT_OF_MEMORY)
    NAME(CUDA_ERROR_NOT_INITIALIZED)
    NAME(CUDA_ERROR_DEINITIALIZED)
    NAME(CUDA_ERROR_STUB_LIBRARY)
    NAME(CUDA_ERROR_NO_DEVICE)
    NAME(CUDA_ERROR_INVALID_DEVICE)
    NAME(CUDA_ERROR_INVALID_IMAGE)
    NAME(CUDA_ERROR_INVALID_CONTEXT)
    NAME(CUDA_ERROR_NO_BINARY_FOR_GPU)
    NAME(CUDA_ERROR_INVALID_PTX)
    NAME(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    NAME(CUDA_ERROR_INVALID_HANDLE)
    NAME(CUDA_ERROR_NOT_FOUND)
    NAME(CUDA_ERROR_ILLEGAL_ADDRESS)
    NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    NAME(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    NAME(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED)
    NAME(CUDA_ERROR_LAUNCH_FAILED)
    NAME(CUDA_ERROR_NOT_SUPPORTED)
    NAME(CUDA_ERROR_UNKNOWN)
#undef NAME
  default:
    return nullptr;
  }
}

std::string describeWith(const Driver &api, CUresult result) {
  const char *name = nullptr, *description = nullptr;
  if (api.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = knownName(result);
  if (api.cuGetErrorString(result, &description) != CUDA_SUCCESS)
    description = nullptr;
  std::string text;
  if (name)
    text = name;
  else
    text = "CUDA error " + std::to_string(result);
  if (description && *description)
    text += std::string(": ") + description;
  else if (name)
    text += " (" + std::to_string(result) + ")";
  return text;
}

const Driver *load() {
  auto *api = new Driver;
  const char *path = std::getenv("GPUMEM_CUDA_DRIVER");
  if (!path || !*path)
    path = defaultDriverPath;
  api->path = path;
  dlerror();
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library)
    fatal("no CUDA driver found (%s): %s", path, dlerror());
#define GPUMEM_CUDA_DRIVER_SYMBOL(name, symbol, parameters)                    \
  api->name = reinterpret_cast<decltype(api->name)>(dlsym(library, symbol));   \
  if (!api->name)                                                              \
    fatal("the CUDA driver %s has no %s; gpumem needs a driver for CUDA "      \
          "11.2 or newer",                                                     \
          path, symbol);
#define GPUMEM_CUDA_DRIVER_OPTIONAL_SYMBOL(name, symbol, parameters)           \
  api->name = reinterpret_cast<decltype(api->name)>(dlsym(library, symbol));
#include "DriverSymbols.def"
  CUresult result = api->cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE)
    fatal("no CUDA device found");
  if (result != CUDA_SUCCESS)
    fatal("cuInit failed (driver %s): %s", path,
          describeWith(*api, result).c_str());
  result = api->cuDeviceGetCount(&api->deviceCount);
  if (result != CUDA_SUCCESS)
    fatal("cuDeviceGetCount failed: %s", describeWith(*api, result).c_str());
  if (api->deviceCount <= 0)
    fatal("no CUDA device found");
  return api;
}

} // namespace

const Driver &driver() {
  static const Driver *loaded = load();
  return *loaded;
}

std::string describe(CUresult result) { return describeWith(driver(), result); }

void check(CUresult result, const char *call) {
  if (result != CUDA_SUCCESS)
    fatal("%s failed: %s", call, describe(result).c_str());
}

void checkRelease(CUresult result, const char *call) {
  if (result != CUDA_ERROR_DEINITIALIZED)
    check(result, call);
}

} // namespace gpumem::cuda
