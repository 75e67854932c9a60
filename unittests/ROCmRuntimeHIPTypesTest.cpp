//===----------------------------------------------------------------------===//
// The rocm runtime's own HIP declarations (runtime/rocm/HIPTypes.h and
// HIPSymbols.def) checked against HIP's headers at compile time: every
// constant has hip_runtime_api.h's value, and every entry point's type is
// the one HIP declares. Built only where CMake finds hip/hip_runtime_api.h
// (Debian: libamdhip64-dev); the test that runs only says it was built.
//===----------------------------------------------------------------------===//

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

// HIP's flags are macros, which would rename the runtime's constants: keep
// their values and take the names back.
#define KEEP_FLAG(name) constexpr long long hip_##name = (long long)(name);
KEEP_FLAG(hipCpuDeviceId)
KEEP_FLAG(hipMemAttachGlobal)
KEEP_FLAG(hipStreamNonBlocking)
KEEP_FLAG(hipEventDisableTiming)
KEEP_FLAG(hipHostRegisterPortable)
KEEP_FLAG(hipHostRegisterMapped)
#undef KEEP_FLAG
#undef hipCpuDeviceId
#undef hipMemAttachGlobal
#undef hipStreamNonBlocking
#undef hipEventDisableTiming
#undef hipHostRegisterPortable
#undef hipHostRegisterMapped

#include "HIPTypes.h"

#include <gtest/gtest.h>

#include <type_traits>

namespace rocm = gpumem::rocm;

namespace {

#define SAME_VALUE(name)                                                       \
  static_assert(int(rocm::name) == int(::name), #name " differs from HIP's");
SAME_VALUE(hipSuccess)
SAME_VALUE(hipErrorInvalidValue)
SAME_VALUE(hipErrorOutOfMemory)
SAME_VALUE(hipErrorNotInitialized)
SAME_VALUE(hipErrorDeinitialized)
SAME_VALUE(hipErrorInvalidConfiguration)
SAME_VALUE(hipErrorInsufficientDriver)
SAME_VALUE(hipErrorInvalidDeviceFunction)
SAME_VALUE(hipErrorNoDevice)
SAME_VALUE(hipErrorInvalidDevice)
SAME_VALUE(hipErrorInvalidImage)
SAME_VALUE(hipErrorInvalidContext)
SAME_VALUE(hipErrorNoBinaryForGpu)
SAME_VALUE(hipErrorInvalidKernelFile)
SAME_VALUE(hipErrorSharedObjectInitFailed)
SAME_VALUE(hipErrorInvalidHandle)
SAME_VALUE(hipErrorNotFound)
SAME_VALUE(hipErrorIllegalAddress)
SAME_VALUE(hipErrorLaunchOutOfResources)
SAME_VALUE(hipErrorContextIsDestroyed)
SAME_VALUE(hipErrorHostMemoryAlreadyRegistered)
SAME_VALUE(hipErrorHostMemoryNotRegistered)
SAME_VALUE(hipErrorLaunchFailure)
SAME_VALUE(hipErrorNotSupported)
SAME_VALUE(hipErrorUnknown)
SAME_VALUE(hipDeviceAttributeConcurrentManagedAccess)
SAME_VALUE(hipDeviceAttributeManagedMemory)
SAME_VALUE(hipDeviceAttributeMaxBlockDimX)
SAME_VALUE(hipDeviceAttributeMaxGridDimX)
SAME_VALUE(hipDeviceAttributeMaxThreadsPerBlock)
SAME_VALUE(hipDeviceAttributeMaxSharedMemoryPerBlock)
SAME_VALUE(hipDeviceAttributeWarpSize)
SAME_VALUE(HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
SAME_VALUE(hipMemcpyDefault)
SAME_VALUE(hipMemAdviseSetReadMostly)
SAME_VALUE(hipMemAdviseUnsetReadMostly)
SAME_VALUE(hipMemAdviseSetPreferredLocation)
SAME_VALUE(hipMemAdviseUnsetPreferredLocation)
SAME_VALUE(hipMemAdviseSetAccessedBy)
SAME_VALUE(hipMemAdviseUnsetAccessedBy)
#undef SAME_VALUE
#define SAME_FLAG(name)                                                        \
  static_assert(rocm::name == ::hip_##name, #name " differs from HIP's");
SAME_FLAG(hipCpuDeviceId)
SAME_FLAG(hipMemAttachGlobal)
SAME_FLAG(hipStreamNonBlocking)
SAME_FLAG(hipEventDisableTiming)
SAME_FLAG(hipHostRegisterPortable)
SAME_FLAG(hipHostRegisterMapped)
#undef SAME_FLAG
// The block and grid attributes the runtime reads as X + 1 and X + 2.
static_assert(rocm::hipDeviceAttributeMaxBlockDimX + 2 ==
                  ::hipDeviceAttributeMaxBlockDimZ,
              "block dimensions are consecutive");
static_assert(rocm::hipDeviceAttributeMaxGridDimX + 2 ==
                  ::hipDeviceAttributeMaxGridDimZ,
              "grid dimensions are consecutive");

// The handles, and each entry point: the runtime's pointer type, with HIP's
// enums for its ints and its handles for the runtime's, is HIP's.
static_assert(sizeof(::hipError_t) == sizeof(rocm::hipError_t), "enum size");
template <typename T> struct Translate {
  using type = T;
};
template <> struct Translate<rocm::hipModule_t> {
  using type = ::hipModule_t;
};
template <> struct Translate<rocm::hipFunction_t> {
  using type = ::hipFunction_t;
};
template <> struct Translate<rocm::hipStream_t> {
  using type = ::hipStream_t;
};
template <> struct Translate<rocm::hipEvent_t> {
  using type = ::hipEvent_t;
};
template <> struct Translate<rocm::hipModule_t *> {
  using type = ::hipModule_t *;
};
template <> struct Translate<rocm::hipFunction_t *> {
  using type = ::hipFunction_t *;
};
template <> struct Translate<rocm::hipStream_t *> {
  using type = ::hipStream_t *;
};
template <> struct Translate<rocm::hipEvent_t *> {
  using type = ::hipEvent_t *;
};
/// The runtime's parameter type `Ours` fits HIP's `Theirs`: the same type
/// after translating handles, or an int where HIP has an int-sized enum.
template <typename Ours, typename Theirs>
constexpr bool fits = std::is_same_v<typename Translate<Ours>::type, Theirs> ||
                      (std::is_same_v<Ours, int> && std::is_enum_v<Theirs> &&
                       sizeof(Theirs) == sizeof(int));
template <typename Ours, typename Theirs> struct Matches;
template <typename R1, typename... A1, typename R2, typename... A2>
struct Matches<R1 (*)(A1...), R2 (*)(A2...)> {
  static constexpr bool value = sizeof...(A1) == sizeof...(A2) &&
                                (fits<A1, A2> && ...) &&
                                (std::is_same_v<R1, R2> || fits<R1, R2>);
};

} // namespace

// Inside a namespace of the runtime's, its declarations hide HIP's global
// ones, as they do in the runtime, and unqualified lookup still finds HIP's
// functions. hipMalloc and hipMallocManaged also have C++ template
// overloads in HIP's header: their C functions are named here first.
namespace gpumem::rocm::theirs {
inline constexpr ::hipError_t (&hipMalloc)(void **, size_t) = ::hipMalloc;
inline constexpr ::hipError_t (&hipMallocManaged)(void **, size_t, unsigned) =
    ::hipMallocManaged;
#define GPUMEM_HIP_SYMBOL(name, parameters)                                    \
  static_assert(Matches<hipError_t(*) parameters, decltype(&name)>::value,     \
                #name "'s type differs from HIP's");
#define GPUMEM_HIP_TEXT_SYMBOL(name, parameters)                               \
  static_assert(Matches<const char *(*)parameters, decltype(&name)>::value,    \
                #name "'s type differs from HIP's");
#include "HIPSymbols.def"
} // namespace gpumem::rocm::theirs

namespace {

TEST(ROCmRuntimeHIPTypes, CheckedAgainstHIPsHeaders) {
  SUCCEED() << "HIPTypes.h and HIPSymbols.def agree with HIP "
            << HIP_VERSION_MAJOR << "." << HIP_VERSION_MINOR;
}

} // namespace
