//===----------------------------------------------------------------------===//
// The C ABI of libgpumem_rocm_runtime.so: the mgpu* functions of
// gpumem/Runtime/MGPU.h, implemented on HIP (libamdhip64), which is loaded
// with dlopen on first use (see docs/rocm-runtime.md).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_ROCM_ROCMRUNTIME_H
#define GPUMEM_RUNTIME_ROCM_ROCMRUNTIME_H

#include "gpumem/Runtime/MGPU.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How this runtime implements the mgpu* ABI of gpumem/Runtime/MGPU.h:
 *  - mgpuModuleLoad: an HSA code object (or a clang offload bundle) for the
 *    device's gfx chip (hipModuleLoadData); mgpuModuleLoadJIT is an error:
 *    HIP has no JIT for the runtime to call. mgpuModuleUnload is safe from
 *    global destructors, also after HIP has shut down;
 *    mgpuModuleGetFunction gives a handle cached per module and name that
 *    also carries the name and static LDS size for mgpuLaunchKernel.
 *  - mgpuLaunchKernel: hipModuleLaunchKernel with `smem` bytes of dynamic
 *    LDS, after checking the block, grid and LDS against the device's
 *    limits; `paramsCount` is not used.
 *  - Streams are non-blocking (hipStreamNonBlocking), events have no
 *    timing (hipEventDisableTiming).
 *  - mgpuMemAlloc: managed memory (hipMallocManaged) when `isHostShared`,
 *    else hipMalloc, on a stream too; zero bytes give null. mgpuMemFree
 *    waits for its stream, then hipFree; mgpuMemcpy is asynchronous on a
 *    stream, else synchronous. mgpuMemHostRegister page-locks and maps host
 *    memory for the device (hipHostRegister), which must then reach it at
 *    the host's addresses.
 *  - mgpuSetDefaultDevice: only before the runtime's first use of one.
 *  - gpumemMemPrefetch: hipMemPrefetchAsync of the managed pages on
 *    `stream`, or on the null stream and waited for when `stream` is null;
 *    gpumemMemAdvise: hipMemAdvise. Both do nothing on a device without
 *    concurrent managed access (hipDeviceAttributeConcurrentManagedAccess,
 *    which needs XNACK on). */

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_RUNTIME_ROCM_ROCMRUNTIME_H
