//===----------------------------------------------------------------------===//
// The C ABI of libgpumem_cuda_runtime.so: the mgpu* functions of
// gpumem/Runtime/MGPU.h, implemented on the CUDA driver API, which is
// loaded with dlopen on first use (see docs/cuda-runtime.md).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_CUDARUNTIME_H
#define GPUMEM_RUNTIME_CUDA_CUDARUNTIME_H

#include "gpumem/Runtime/MGPU.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How this runtime implements the mgpu* ABI of gpumem/Runtime/MGPU.h:
 *  - mgpuModuleLoad: a cubin or fatbin (cuModuleLoadData; PTX text works
 *    too); mgpuModuleLoadJIT JIT-compiles NUL-terminated PTX text
 *    (cuModuleLoadDataEx at CU_JIT_OPTIMIZATION_LEVEL `optLevel`) and
 *    prints the JIT log on failure; mgpuModuleUnload is safe from global
 *    destructors, also after the driver has shut down;
 *    mgpuModuleGetFunction gives a handle cached per module and name that
 *    also carries the name and shared-memory sizes for mgpuLaunchKernel.
 *  - mgpuLaunchKernel: cuLaunchKernel, after raising the kernel's dynamic
 *    shared memory limit when `smem` needs it; `paramsCount` is not used.
 *  - Streams are non-blocking (CU_STREAM_NON_BLOCKING), events have no
 *    timing (CU_EVENT_DISABLE_TIMING).
 *  - mgpuMemAlloc: managed memory when `isHostShared`, else stream-ordered
 *    memory on a stream, else device memory; zero bytes give null.
 *    mgpuMemFree is stream-ordered on a stream, else synchronous;
 *    mgpuMemcpy asynchronous on a stream, else synchronous.
 *    mgpuMemHostRegister page-locks and maps host memory for the device
 *    (CU_MEMHOSTREGISTER_PORTABLE).
 *  - mgpuSetDefaultDevice: only before the runtime's first use of one
 *    (docs/cuda-runtime.md).
 *  - gpumemMemPrefetch: cuMemPrefetchAsync of the managed pages on
 *    `stream`, or on the null stream and waited for when `stream` is null;
 *    gpumemMemAdvise: cuMemAdvise. Both do nothing on a device without
 *    concurrent managed access. */

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_RUNTIME_CUDA_CUDARUNTIME_H
