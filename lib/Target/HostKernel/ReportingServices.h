//===----------------------------------------------------------------------===//
// --sanitize's runtime services that only report: they look at the context
// and the addresses they are given and keep none of their pointers, so
// that compiled code may treat those pointers as not escaping
// (ContextAccess::call marks them captures(none), and the cpu target's
// arena alias scopes let them see the arena's address).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_REPORTINGSERVICES_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_REPORTINGSERVICES_H

#include "gpumem/Runtime/CPUKernelABI.h"

#include <cstddef>
#include <cstdint>

namespace gpumem::hostkernel {

/// The offsets in GPUMemRuntimeServices of accessError, sharedAccess,
/// deviceAccess, addressAccess, argumentCheck and divisionError.
inline constexpr size_t kReportingServiceOffsets[] = {
    offsetof(GPUMemRuntimeServices, accessError),
    offsetof(GPUMemRuntimeServices, sharedAccess),
    offsetof(GPUMemRuntimeServices, deviceAccess),
    offsetof(GPUMemRuntimeServices, addressAccess),
    offsetof(GPUMemRuntimeServices, argumentCheck),
    offsetof(GPUMemRuntimeServices, divisionError)};

/// Whether the service at `offset` of GPUMemRuntimeServices only reports.
inline bool isReportingServiceOffset(int64_t offset) {
  for (size_t reporting : kReportingServiceOffsets)
    if (offset == int64_t(reporting))
      return true;
  return false;
}

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_REPORTINGSERVICES_H
