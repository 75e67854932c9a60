//===----------------------------------------------------------------------===//
// The few CUDA driver API types and constants the runtime uses, declared
// here so that it builds without the CUDA toolkit (no cuda.h). Handles are
// opaque pointers, as in cuda.h; every number is the driver API's own (the
// ABI is stable: these values have not changed since they were introduced),
// checked against CUDA 13.0's cuda.h.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_DRIVERTYPES_H
#define GPUMEM_RUNTIME_CUDA_DRIVERTYPES_H

#include <cstddef>
#include <cstdint>

namespace gpumem::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long; // 64-bit hosts only
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
/// CUdevice_attribute, CUfunction_attribute and CUjit_option are C enums:
/// int-sized in the driver's calling convention.
using CUdevice_attribute = int;
using CUfunction_attribute = int;
using CUjit_option = int;
using CUmem_advise = int;
using CUmemLocationType = int;

/// Where managed memory is prefetched to or advised for (cuda.h's
/// CUmemLocation_v1; passed by value to the _v2 memory hint entry points).
struct CUmemLocation {
  CUmemLocationType type;
  int id; ///< the device ordinal for CU_MEM_LOCATION_TYPE_DEVICE
};

// CUresult values.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
constexpr CUresult CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712;
constexpr CUresult CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr CUresult CUDA_ERROR_NOT_SUPPORTED = 801;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

// CUdevice_attribute values.
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89;
constexpr CUdevice_attribute
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute values.
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES =
    8;

// CUjit_option values.
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_OPTIMIZATION_LEVEL = 7;

// CUmem_advise values.
constexpr CUmem_advise CU_MEM_ADVISE_SET_READ_MOSTLY = 1;
constexpr CUmem_advise CU_MEM_ADVISE_UNSET_READ_MOSTLY = 2;
constexpr CUmem_advise CU_MEM_ADVISE_SET_PREFERRED_LOCATION = 3;
constexpr CUmem_advise CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 4;
constexpr CUmem_advise CU_MEM_ADVISE_SET_ACCESSED_BY = 5;
constexpr CUmem_advise CU_MEM_ADVISE_UNSET_ACCESSED_BY = 6;

// CUmemLocationType values.
constexpr CUmemLocationType CU_MEM_LOCATION_TYPE_DEVICE = 1;
constexpr CUmemLocationType CU_MEM_LOCATION_TYPE_HOST = 2;

/// The host, as a CUdevice, for the pre-12.2 memory hint entry points.
constexpr CUdevice CU_DEVICE_CPU = -1;

// Flags.
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;        // CUmemAttach_flags
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;      // CUstream_flags
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;     // CUevent_flags
constexpr unsigned CU_MEMHOSTREGISTER_PORTABLE = 0x1; // cuMemHostRegister

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_DRIVERTYPES_H
