//===----------------------------------------------------------------------===//
// Loading the CUDA driver: dlopen, one dlsym per line of DriverSymbols.def
// (a missing symbol is an error unless the line says it is optional),
// cuInit(0), cuDeviceGetCount; asked once, and an error when an mgpu* call
// needs the driver, but only an answer for gpumemRuntimeProbe (Device.cpp).
// The Driver lives in a function-local static
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

/// The driver loaded, or null with `why` set when it cannot be: not found,
/// no symbol, a failed cuInit or cuDeviceGetCount, or no device.
const Driver *tryLoad(std::string &why) {
  auto *api = new Driver;
  const char *path = std::getenv("GPUMEM_CUDA_DRIVER");
  if (!path || !*path)
    path = defaultDriverPath;
  api->path = path;
  auto fail = [&](const std::string &message) -> const Driver * {
    why = message;
    delete api;
    return nullptr;
  };
  dlerror();
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    return fail(std::string("no CUDA driver found (") + path +
                "): " + (error ? error : "not found"));
  }
#define GPUMEM_CUDA_DRIVER_SYMBOL(name, symbol, parameters)                    \
  api->name = reinterpret_cast<decltype(api->name)>(dlsym(library, symbol));   \
  if (!api->name)                                                              \
    return fail(std::string("the CUDA driver ") + path + " has no " + symbol + \
                "; gpumem needs a driver for CUDA 11.2 or newer");
#define GPUMEM_CUDA_DRIVER_OPTIONAL_SYMBOL(name, symbol, parameters)           \
  api->name = reinterpret_cast<decltype(api->name)>(dlsym(library, symbol));
#include "DriverSymbols.def"
  CUresult result = api->cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE)
    return fail("no CUDA device found");
  if (result != CUDA_SUCCESS)
    return fail(std::string("cuInit failed (driver ") + path +
                "): " + describeWith(*api, result));
  result = api->cuDeviceGetCount(&api->deviceCount);
  if (result != CUDA_SUCCESS)
    return fail("cuDeviceGetCount failed: " + describeWith(*api, result));
  if (api->deviceCount <= 0)
    return fail("no CUDA device found");
  return api;
}

/// tryLoad's answer, asked once.
struct LoadedDriver {
  std::string why;
  const Driver *api = tryLoad(why);
};

const LoadedDriver &loaded() {
  static const LoadedDriver *once = new LoadedDriver;
  return *once;
}

} // namespace

const Driver &driver() {
  const LoadedDriver &driver = loaded();
  if (!driver.api)
    fatal("%s", driver.why.c_str());
  return *driver.api;
}

const Driver *probeDriver(std::string &why) {
  why = loaded().why;
  return loaded().api;
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
