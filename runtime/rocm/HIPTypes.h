//===----------------------------------------------------------------------===//
// The few HIP runtime API types and constants the rocm runtime uses,
// declared here so that it builds without HIP installed (no
// hip_runtime_api.h). Handles are opaque pointers, as in HIP's headers; every
// number is HIP 5.2's (hip_runtime_api.h and driver_types.h of rocm-5.2.0,
// the HIP of Debian's libamdhip64-5). hipDeviceAttribute_t was renumbered in
// HIP 5.0 (CUDA-compatible attributes from 0 in alphabetical order, AMD's
// own from 10000); these are the 5.x numbers, which later releases keep
// (decision 99).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_ROCM_HIPTYPES_H
#define GPUMEM_RUNTIME_ROCM_HIPTYPES_H

#include <cstddef>
#include <cstdint>

namespace gpumem::rocm {

/// hipError_t, hipDeviceAttribute_t, hipFunction_attribute, hipMemcpyKind and
/// hipMemoryAdvise are C enums: int-sized in HIP's calling convention.
using hipError_t = int;
using hipDeviceAttribute_t = int;
using hipFunction_attribute = int;
using hipMemcpyKind = int;
using hipMemoryAdvise = int;
using hipDevice_t = int;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipStream_t = struct ihipStream_t *;
using hipEvent_t = struct ihipEvent_t *;
using hipDeviceptr_t = void *;

// hipError_t values.
constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorInvalidValue = 1;
constexpr hipError_t hipErrorOutOfMemory = 2;
constexpr hipError_t hipErrorNotInitialized = 3;
constexpr hipError_t hipErrorDeinitialized = 4;
constexpr hipError_t hipErrorInvalidConfiguration = 9;
constexpr hipError_t hipErrorInsufficientDriver = 35;
constexpr hipError_t hipErrorInvalidDeviceFunction = 98;
constexpr hipError_t hipErrorNoDevice = 100;
constexpr hipError_t hipErrorInvalidDevice = 101;
constexpr hipError_t hipErrorInvalidImage = 200;
constexpr hipError_t hipErrorInvalidContext = 201;
constexpr hipError_t hipErrorNoBinaryForGpu = 209;
constexpr hipError_t hipErrorInvalidKernelFile = 218;
constexpr hipError_t hipErrorSharedObjectInitFailed = 303;
constexpr hipError_t hipErrorInvalidHandle = 400;
constexpr hipError_t hipErrorNotFound = 500;
constexpr hipError_t hipErrorIllegalAddress = 700;
constexpr hipError_t hipErrorLaunchOutOfResources = 701;
constexpr hipError_t hipErrorContextIsDestroyed = 709;
constexpr hipError_t hipErrorHostMemoryAlreadyRegistered = 712;
constexpr hipError_t hipErrorHostMemoryNotRegistered = 713;
constexpr hipError_t hipErrorLaunchFailure = 719;
constexpr hipError_t hipErrorNotSupported = 801;
constexpr hipError_t hipErrorUnknown = 999;

// hipDeviceAttribute_t values (HIP 5.x numbering).
constexpr hipDeviceAttribute_t hipDeviceAttributeConcurrentManagedAccess = 9;
constexpr hipDeviceAttribute_t hipDeviceAttributeManagedMemory = 24;
/// X, then Y and Z at the next two values.
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxBlockDimX = 26;
/// X, then Y and Z at the next two values.
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxGridDimX = 29;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxThreadsPerBlock = 56;
constexpr hipDeviceAttribute_t hipDeviceAttributeMaxSharedMemoryPerBlock = 74;
constexpr hipDeviceAttribute_t hipDeviceAttributeWarpSize = 87;

// hipFunction_attribute values.
constexpr hipFunction_attribute HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;

// hipMemcpyKind values.
constexpr hipMemcpyKind hipMemcpyDefault = 4; ///< direction from the pointers

// hipMemoryAdvise values.
constexpr hipMemoryAdvise hipMemAdviseSetReadMostly = 1;
constexpr hipMemoryAdvise hipMemAdviseUnsetReadMostly = 2;
constexpr hipMemoryAdvise hipMemAdviseSetPreferredLocation = 3;
constexpr hipMemoryAdvise hipMemAdviseUnsetPreferredLocation = 4;
constexpr hipMemoryAdvise hipMemAdviseSetAccessedBy = 5;
constexpr hipMemoryAdvise hipMemAdviseUnsetAccessedBy = 6;

/// The host, as a device ordinal, for hipMemPrefetchAsync and hipMemAdvise.
constexpr int hipCpuDeviceId = -1;

// Flags.
constexpr unsigned hipMemAttachGlobal = 0x1;      // hipMallocManaged
constexpr unsigned hipStreamNonBlocking = 0x1;    // hipStreamCreateWithFlags
constexpr unsigned hipEventDisableTiming = 0x2;   // hipEventCreateWithFlags
constexpr unsigned hipHostRegisterPortable = 0x1; // hipHostRegister
constexpr unsigned hipHostRegisterMapped = 0x2;   // hipHostRegister

} // namespace gpumem::rocm

#endif // GPUMEM_RUNTIME_ROCM_HIPTYPES_H
