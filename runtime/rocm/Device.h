//===----------------------------------------------------------------------===//
// The one device the runtime uses. It is chosen at the first call that needs
// it: the ordinal given to mgpuSetDefaultDevice before that, else
// $GPUMEM_ROCM_DEVICE, else 0. HIP has no contexts to retain: each thread
// that calls in makes the device current with hipSetDevice the first time
// it does (HIP's current device is per thread), as the cuda runtime makes
// its primary context current.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_ROCM_DEVICE_H
#define GPUMEM_RUNTIME_ROCM_DEVICE_H

#include "CUDALaunchLimits.h"
#include "HIPTypes.h"

namespace gpumem::rocm {

/// What the runtime knows of its device.
struct Device {
  int ordinal;
  /// hipDeviceGetName, for messages.
  char name[256];
  /// hipDeviceAttributeMaxSharedMemoryPerBlock: the most LDS, static and
  /// dynamic, one workgroup can have (64 KiB on every AMD GPU so far).
  int maxSharedBytesPerBlock;
  /// The chip with its features, gcnArchName: "gfx90a:sramecc+:xnack-";
  /// empty when HIP cannot say.
  char archName[256];
  /// hipDeviceAttributeWarpSize: 64 or 32.
  int wavefrontSize;
  /// hipDeviceAttributeMaxThreadsPerBlock, _MaxBlockDimX/Y/Z and
  /// _MaxGridDimX/Y/Z, checked before each launch.
  gpumem::runtime::CUDALaunchLimits launchLimits;
};

/// The device, chosen and set up on first use (any thread; exits on error),
/// current on the calling thread.
const Device &enterDevice();

/// enterDevice for calls that release something: false, doing nothing, when
/// HIP is already shutting down.
bool enterDeviceForRelease();

} // namespace gpumem::rocm

#endif // GPUMEM_RUNTIME_ROCM_DEVICE_H
