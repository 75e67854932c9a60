//===----------------------------------------------------------------------===//
// The HIP runtime, loaded at run time: libgpumem_rocm_runtime.so does not
// link libamdhip64, so it builds and loads on machines without HIP, and a
// missing HIP or AMD GPU is one clear error instead of a loader failure.
// The entry points are listed once, in HIPSymbols.def; the device the mgpu*
// calls use is in Device.h.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_ROCM_DRIVER_H
#define GPUMEM_RUNTIME_ROCM_DRIVER_H

#include "HIPTypes.h"

#include <string>

namespace gpumem::rocm {

/// HIP's entry points, one member per line of HIPSymbols.def.
struct HIP {
#define GPUMEM_HIP_SYMBOL(name, parameters)                                    \
  hipError_t(*name) parameters = nullptr;
#define GPUMEM_HIP_TEXT_SYMBOL(name, parameters)                               \
  const char *(*name)parameters = nullptr;
#include "HIPSymbols.def"
  /// What was dlopen'ed: $GPUMEM_HIP_LIBRARY, or libamdhip64.so.5.
  const char *path = nullptr;
  /// hipGetDeviceProperties in the layout of HIP 6 (the symbol
  /// hipGetDevicePropertiesR0600), else of HIP 5 (hipGetDeviceProperties-
  /// R0000, or hipGetDeviceProperties unversioned); null when HIP has
  /// neither. Only the chip's name (gcnArchName) is read from it, at the
  /// offset of its layout; see deviceArchName.
  hipError_t (*getDeviceProperties)(void *properties, int ordinal) = nullptr;
  /// Where gcnArchName lies in what getDeviceProperties writes.
  size_t archNameOffset = 0;
  /// hipGetDeviceCount after hipInit; at least 1.
  int deviceCount = 0;
};

/// HIP, loaded on first use from any thread (global constructors included):
/// dlopen of $GPUMEM_HIP_LIBRARY when set and not empty, else of
/// libamdhip64.so.5; every symbol resolved; hipInit(0); at least one device.
/// Exits with an error when any of that fails.
const HIP &hip();

/// HIP as hip() loads it, or null with `why` set to the error hip() would
/// end the process with.
const HIP *probeHIP(std::string &why);

/// "hipErrorName: description" of `result`, from hipGetErrorName and
/// hipGetErrorString, or "HIP error N" when HIP does not know it.
std::string describe(hipError_t result);

/// Exits with "CALL failed: NAME: description" unless `result` is
/// hipSuccess.
void check(hipError_t result, const char *call);

/// Whether `result` says HIP is already shutting down, as it may be for
/// calls from global destructors at exit.
inline bool shutDown(hipError_t result) {
  return result == hipErrorDeinitialized ||
         result == hipErrorContextIsDestroyed;
}

/// For calls that release something (unload, free, destroy, unregister):
/// like check, but HIP shutting down is not an error.
void checkRelease(hipError_t result, const char *call);

} // namespace gpumem::rocm

#endif // GPUMEM_RUNTIME_ROCM_DRIVER_H
