//===----------------------------------------------------------------------===//
// The launch configuration checks HIP's hipModuleLaunchKernel makes, which
// the rocm runtime makes before it calls it and the cpu runtime makes for
// rocm-emu kernels, with one set of messages: HIP's own error name and
// description (hipErrorInvalidValue: invalid argument, ...) followed by
// the limit the launch exceeds, which HIP does not say.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_HIPLAUNCHLIMITS_H
#define GPUMEM_RUNTIME_COMMON_HIPLAUNCHLIMITS_H

#include <cstdint>

namespace gpumem::runtime {

/// An AMD GPU's launch limits as HIP checks them.
struct HIPLaunchLimits {
  /// Work-items of a workgroup (hipDeviceAttributeMaxThreadsPerBlock).
  int64_t maxThreadsPerBlock;
  /// Workgroups of a grid in x, y and z (hipModuleLaunchKernel's own
  /// bounds: 2^31 - 1, 65536, 65536).
  int64_t maxGrid[3];
  /// LDS a workgroup may use, static and dynamic together
  /// (hipDeviceAttributeMaxSharedMemoryPerBlock: 64 KiB, 160 KiB on gfx950).
  int64_t maxSharedBytesPerBlock;
};

/// hipModuleLaunchKernel's grid bounds and the workgroup size of every
/// AMD GPU HIP supports.
constexpr int64_t kHIPMaxThreadsPerBlock = 1024;
constexpr int64_t kHIPMaxGrid[3] = {2147483647, 65536, 65536};

/// One launch, as the checks see it: `device` names what gives the limits
/// in messages ("gfx90a", "device 0 (AMD Instinct MI210)"); `staticLDS` is
/// the kernel's static LDS bytes, or -1 when unknown; `maxThreads` is the
/// kernel's flat workgroup size bound (amdgpu-flat-work-group-size), or 0.
struct HIPLaunch {
  const char *kernel;
  const intptr_t *grid, *block;
  int32_t smem;
  int64_t staticLDS;
  int32_t maxThreads;
  const char *device;
};

/// Exits with an error (Fatal.h) when hipModuleLaunchKernel would refuse
/// `launch` on a device with `limits`: a size outside its unsigned
/// parameters, a grid or workgroup past the limits, a zero dimension or
/// dynamic LDS past the device's LDS (hipErrorInvalidValue), a workgroup
/// larger than the kernel's flat workgroup size (hipErrorLaunchFailure),
/// and static plus dynamic LDS past the device's LDS, which HIP only finds
/// when it dispatches (gpumem's own message, decision 102).
void checkHIPLaunch(const HIPLaunch &launch, const HIPLaunchLimits &limits);

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_HIPLAUNCHLIMITS_H
