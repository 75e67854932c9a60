//===----------------------------------------------------------------------===//
// The one device the runtime uses and its primary context. The device is
// chosen at the first call that needs it: the ordinal given to
// mgpuSetDefaultDevice before that, else $GPUMEM_CUDA_DEVICE, else 0. Its
// primary context is retained then (never released: the driver tears it
// down at exit) and made current, with cuCtxSetCurrent, on every thread
// the first time that thread calls in.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_DEVICE_H
#define GPUMEM_RUNTIME_CUDA_DEVICE_H

#include "CUDALaunchLimits.h"
#include "DriverTypes.h"

namespace gpumem::cuda {

/// What the runtime knows of its device.
struct Device {
  int ordinal;
  CUdevice device;
  CUcontext context; ///< the primary context
  int computeMajor, computeMinor;
  /// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: the most shared
  /// memory, static and dynamic, one block can have.
  int maxSharedBytesPerBlock;
  /// CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, _MAX_BLOCK_DIM_X/Y/Z and
  /// _MAX_GRID_DIM_X/Y/Z, checked before each launch.
  gpumem::runtime::CUDALaunchLimits launchLimits;
};

/// The device, chosen and set up on first use (any thread; exits on error),
/// with its primary context current on the calling thread.
const Device &enterContext();

/// enterContext for calls that release something: false, doing nothing,
/// when the driver is already shutting down (CUDA_ERROR_DEINITIALIZED).
bool enterContextForRelease();

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_DEVICE_H
