//===----------------------------------------------------------------------===//
// The CUDA driver, loaded at run time: libgpumem_cuda_runtime.so does not
// link libcuda, so it loads and builds on machines without a GPU, and a
// missing driver is one clear error instead of a loader failure. The entry
// points are listed once, in DriverSymbols.def; the device and context the
// mgpu* calls use are in Device.h.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_DRIVER_H
#define GPUMEM_RUNTIME_CUDA_DRIVER_H

#include "DriverTypes.h"

#include <string>

namespace gpumem::cuda {

/// The driver's entry points, one member per line of DriverSymbols.def,
/// named as in cuda.h (member cuMemAlloc holds symbol cuMemAlloc_v2).
/// Optional members are null when the driver does not export them.
struct Driver {
#define GPUMEM_CUDA_DRIVER_SYMBOL(name, symbol, parameters)                    \
  CUresult(*name) parameters = nullptr;
#include "DriverSymbols.def"
  /// What was dlopen'ed: $GPUMEM_CUDA_DRIVER, or libcuda.so.1.
  const char *path = nullptr;
  /// cuDeviceGetCount after cuInit; at least 1.
  int deviceCount = 0;
};

/// The driver, loaded on first use from any thread (global constructors
/// included): dlopen of $GPUMEM_CUDA_DRIVER when set and not empty, else
/// of libcuda.so.1; every symbol resolved; cuInit(0); at least one device.
/// Exits with an error when any of that fails.
const Driver &driver();

/// The driver as driver() loads it, or null with `why` set to the error
/// driver() would end the process with.
const Driver *probeDriver(std::string &why);

/// "CUDA_ERROR_NAME: description" of `result`, from cuGetErrorName and
/// cuGetErrorString, or "CUDA error N" when the driver does not know it.
std::string describe(CUresult result);

/// Exits with "CALL failed: NAME: description" unless `result` is
/// CUDA_SUCCESS.
void check(CUresult result, const char *call);

/// For calls that release something (unload, free, destroy, unregister),
/// which may come from global destructors after the driver has begun to
/// shut down: like check, but CUDA_ERROR_DEINITIALIZED is not an error.
void checkRelease(CUresult result, const char *call);

/// The address a device pointer stands for, as a CUdeviceptr.
inline CUdeviceptr devicePointer(const void *ptr) {
  return CUdeviceptr(reinterpret_cast<uintptr_t>(ptr));
}

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_DRIVER_H
