//===----------------------------------------------------------------------===//
// CUDA runtime: the driver declarations the runtime makes itself
// (DriverTypes.h, DriverSymbols.def) checked against the CUDA toolkit's
// cuda.h at compile time, where the toolkit is installed: every constant's
// value, and every symbol the runtime resolves, which must be the one
// cuda.h maps the function's name to (cuMemAlloc -> cuMemAlloc_v2, ...),
// but the legacy forms cuda.h no longer names.
//===----------------------------------------------------------------------===//

#include <cuda.h>

// Macros in cuda.h: keep their values, free the names for DriverTypes.h.
constexpr unsigned cudaHostRegisterPortable = CU_MEMHOSTREGISTER_PORTABLE;
#undef CU_MEMHOSTREGISTER_PORTABLE
constexpr CUdevice cudaDeviceCPU = CU_DEVICE_CPU;
#undef CU_DEVICE_CPU

#include "DriverTypes.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>

namespace {

namespace ours = gpumem::cuda;

#define SAME_VALUE(name)                                                       \
  static_assert(ours::name == ::name, #name " differs from cuda.h");
SAME_VALUE(CUDA_SUCCESS)
SAME_VALUE(CUDA_ERROR_INVALID_VALUE)
SAME_VALUE(CUDA_ERROR_OUT_OF_MEMORY)
SAME_VALUE(CUDA_ERROR_NOT_INITIALIZED)
SAME_VALUE(CUDA_ERROR_DEINITIALIZED)
SAME_VALUE(CUDA_ERROR_STUB_LIBRARY)
SAME_VALUE(CUDA_ERROR_NO_DEVICE)
SAME_VALUE(CUDA_ERROR_INVALID_DEVICE)
SAME_VALUE(CUDA_ERROR_INVALID_IMAGE)
SAME_VALUE(CUDA_ERROR_INVALID_CONTEXT)
SAME_VALUE(CUDA_ERROR_NO_BINARY_FOR_GPU)
SAME_VALUE(CUDA_ERROR_INVALID_PTX)
SAME_VALUE(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
SAME_VALUE(CUDA_ERROR_INVALID_HANDLE)
SAME_VALUE(CUDA_ERROR_NOT_FOUND)
SAME_VALUE(CUDA_ERROR_ILLEGAL_ADDRESS)
SAME_VALUE(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
SAME_VALUE(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
SAME_VALUE(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED)
SAME_VALUE(CUDA_ERROR_LAUNCH_FAILED)
SAME_VALUE(CUDA_ERROR_NOT_SUPPORTED)
SAME_VALUE(CUDA_ERROR_UNKNOWN)
SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
SAME_VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
SAME_VALUE(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS)
SAME_VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
SAME_VALUE(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
SAME_VALUE(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER)
SAME_VALUE(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
SAME_VALUE(CU_JIT_OPTIMIZATION_LEVEL)
SAME_VALUE(CU_MEM_ATTACH_GLOBAL)
SAME_VALUE(CU_STREAM_NON_BLOCKING)
SAME_VALUE(CU_EVENT_DISABLE_TIMING)
SAME_VALUE(CU_MEM_ADVISE_SET_READ_MOSTLY)
SAME_VALUE(CU_MEM_ADVISE_UNSET_READ_MOSTLY)
SAME_VALUE(CU_MEM_ADVISE_SET_PREFERRED_LOCATION)
SAME_VALUE(CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION)
SAME_VALUE(CU_MEM_ADVISE_SET_ACCESSED_BY)
SAME_VALUE(CU_MEM_ADVISE_UNSET_ACCESSED_BY)
SAME_VALUE(CU_MEM_LOCATION_TYPE_DEVICE)
SAME_VALUE(CU_MEM_LOCATION_TYPE_HOST)
#undef SAME_VALUE
static_assert(ours::CU_MEMHOSTREGISTER_PORTABLE == cudaHostRegisterPortable);
static_assert(ours::CU_DEVICE_CPU == cudaDeviceCPU);

// Handle and integer types: the same sizes as cuda.h's.
static_assert(sizeof(ours::CUresult) == sizeof(::CUresult));
static_assert(sizeof(ours::CUdevice) == sizeof(::CUdevice));
static_assert(std::is_same_v<ours::CUdeviceptr, ::CUdeviceptr>);
static_assert(sizeof(ours::CUdevice_attribute) == sizeof(::CUdevice_attribute));
static_assert(sizeof(ours::CUfunction_attribute) ==
              sizeof(::CUfunction_attribute));
static_assert(sizeof(ours::CUjit_option) == sizeof(::CUjit_option));
static_assert(sizeof(ours::CUmem_advise) == sizeof(::CUmem_advise));
// Passed by value: the same layout, so the same registers.
static_assert(sizeof(ours::CUmemLocation) == sizeof(::CUmemLocation) &&
              offsetof(ours::CUmemLocation, type) ==
                  offsetof(::CUmemLocation, type) &&
              offsetof(ours::CUmemLocation, id) ==
                  offsetof(::CUmemLocation, id));

constexpr bool sameText(const char *a, const char *b) {
  while (*a && *a == *b)
    ++a, ++b;
  return *a == *b;
}

// cuda.h #defines most names to their current versioned symbol; stringizing
// the name after expansion gives the symbol a program built with cuda.h
// links to.
#define SYMBOL_TEXT(name) #name
#define EXPANDED_SYMBOL(name) SYMBOL_TEXT(name)
#define GPUMEM_CUDA_DRIVER_SYMBOL(name, symbol, parameters)                    \
  static_assert(sameText(EXPANDED_SYMBOL(name), symbol),                       \
                #name " resolves another symbol than cuda.h's");
// cuda.h no longer names the legacy forms; ToolkitStubDriver (a death test)
// checks that a real driver's exports include them.
#define GPUMEM_CUDA_DRIVER_LEGACY_SYMBOL(name, symbol, parameters)
#include "DriverSymbols.def"

TEST(CUDARuntimeDriverTypes, MatchCudaH) {
  // Everything is checked at compile time.
  SUCCEED() << "checked against CUDA " << CUDA_VERSION;
}

} // namespace
