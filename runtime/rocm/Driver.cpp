//===----------------------------------------------------------------------===//
// Loading HIP: dlopen, one dlsym per line of HIPSymbols.def (a missing
// symbol is an error), hipInit(0), hipGetDeviceCount (which also says
// whether a failed hipInit means there is no GPU). The HIP table lives
// in a function-local static pointer, initialised once under the compiler's
// guard and never destroyed, so it is safe from the priority-123
// constructors that load modules and from the destructors that unload them
// at exit. The library is never dlclose'd.
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "Support.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace gpumem::rocm {

namespace {

constexpr const char *defaultLibraryPath = "libamdhip64.so.5";

/// Names of the results the runtime may meet, for a HIP whose
/// hipGetErrorName does not know them.
const char *knownName(hipError_t result) {
  switch (result) {
#define NAME(value)                                                            \
  case value:                                                                  \
    return #value;
    NAME(hipSuccess)
    NAME(hipErrorInvalidValue)
    NAME(hipErrorOutOfMemory)
    NAME(hipErrorNotInitialized)
    NAME(hipErrorDeinitialized)
    NAME(hipErrorInvalidConfiguration)
    NAME(hipErrorInsufficientDriver)
    NAME(hipErrorInvalidDeviceFunction)
    NAME(hipErrorNoDevice)
    NAME(hipErrorInvalidDevice)
    NAME(hipErrorInvalidImage)
    NAME(hipErrorInvalidContext)
    NAME(hipErrorNoBinaryForGpu)
    NAME(hipErrorInvalidKernelFile)
    NAME(hipErrorSharedObjectInitFailed)
    NAME(hipErrorInvalidHandle)
    NAME(hipErrorNotFound)
    NAME(hipErrorIllegalAddress)
    NAME(hipErrorLaunchOutOfResources)
    NAME(hipErrorContextIsDestroyed)
    NAME(hipErrorHostMemoryAlreadyRegistered)
    NAME(hipErrorHostMemoryNotRegistered)
    NAME(hipErrorLaunchFailure)
    NAME(hipErrorNotSupported)
    NAME(hipErrorUnknown)
#undef NAME
  default:
    return nullptr;
  }
}

std::string describeWith(const HIP &api, hipError_t result) {
  // HIP names a code it does not know "hipErrorUnknown", and describes it
  // as unknown: keep the runtime's own name, or the number, then.
  const char *name = api.hipGetErrorName(result);
  const char *description = nullptr;
  if (!name || !*name ||
      (result != hipErrorUnknown && std::strcmp(name, "hipErrorUnknown") == 0))
    name = knownName(result);
  else
    description = api.hipGetErrorString(result);
  std::string text;
  if (name)
    text = name;
  else
    text = "HIP error " + std::to_string(result);
  if (description && *description &&
      !(name && std::strcmp(description, name) == 0))
    text += std::string(": ") + description;
  else if (name)
    text += " (" + std::to_string(result) + ")";
  return text;
}

std::string noDevice(const char *path) {
  return std::string("no AMD GPU found (HIP runtime ") + path +
         "); the rocm target needs a GPU that ROCm supports, with the "
         "amdgpu kernel driver loaded and /dev/kfd accessible";
}

/// HIP loaded, or null with `why` set when it cannot be: not found, no
/// symbol, no GPU, or a failed hipInit or hipGetDeviceCount.
const HIP *tryLoad(std::string &why) {
  auto *api = new HIP;
  const char *path = std::getenv("GPUMEM_HIP_LIBRARY");
  if (!path || !*path)
    path = defaultLibraryPath;
  api->path = path;
  auto fail = [&](const std::string &message) -> const HIP * {
    why = message;
    delete api;
    return nullptr;
  };
  dlerror();
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    return fail(std::string("no HIP runtime found (") + path +
                "): " + (error ? error : "not found") +
                "; the rocm runtime needs HIP 5.2 or newer (Debian: "
                "libamdhip64-5)");
  }
#define GPUMEM_HIP_SYMBOL(name, parameters)                                    \
  api->name = reinterpret_cast<decltype(api->name)>(dlsym(library, #name));    \
  if (!api->name)                                                              \
    return fail(std::string("the HIP runtime ") + path + " has no " + #name +  \
                "; gpumem needs HIP 5.2 or newer");
#define GPUMEM_HIP_TEXT_SYMBOL GPUMEM_HIP_SYMBOL
#include "HIPSymbols.def"
  // The device properties' layout changed in HIP 6; gcnArchName is at 1160
  // bytes there and at 396 before (as LLVM's amdgpu-arch reads it too).
  struct PropertiesLayout {
    const char *symbol;
    size_t archNameOffset;
  };
  for (PropertiesLayout layout :
       {PropertiesLayout{"hipGetDevicePropertiesR0600", 1160},
        PropertiesLayout{"hipGetDevicePropertiesR0000", 396},
        PropertiesLayout{"hipGetDeviceProperties", 396}})
    if (void *symbol = dlsym(library, layout.symbol)) {
      api->getDeviceProperties =
          reinterpret_cast<decltype(api->getDeviceProperties)>(symbol);
      api->archNameOffset = layout.archNameOffset;
      break;
    }
  // Without a GPU (or without /dev/kfd), HIP 5.2's hipInit answers
  // hipErrorInvalidDevice and hipGetDeviceCount hipErrorNoDevice: whenever
  // hipInit fails, the device count says whether that is the reason.
  hipError_t result = api->hipInit(0);
  hipError_t counted = api->hipGetDeviceCount(&api->deviceCount);
  if (counted == hipErrorNoDevice ||
      (counted == hipSuccess && api->deviceCount <= 0))
    return fail(noDevice(path));
  if (result != hipSuccess)
    return fail(std::string("hipInit failed (HIP runtime ") + path +
                "): " + describeWith(*api, result));
  if (counted != hipSuccess)
    return fail("hipGetDeviceCount failed: " + describeWith(*api, counted));
  return api;
}

/// tryLoad's answer, asked once.
struct LoadedHIP {
  std::string why;
  const HIP *api = tryLoad(why);
};

const LoadedHIP &loaded() {
  static const LoadedHIP *once = new LoadedHIP;
  return *once;
}

} // namespace

const HIP &hip() {
  const LoadedHIP &hip = loaded();
  if (!hip.api)
    fatal("%s", hip.why.c_str());
  return *hip.api;
}

const HIP *probeHIP(std::string &why) {
  why = loaded().why;
  return loaded().api;
}

std::string describe(hipError_t result) { return describeWith(hip(), result); }

void check(hipError_t result, const char *call) {
  if (result != hipSuccess)
    fatal("%s failed: %s", call, describe(result).c_str());
}

void checkRelease(hipError_t result, const char *call) {
  if (!shutDown(result))
    check(result, call);
}

} // namespace gpumem::rocm
