/*===----------------------------------------------------------------------===*
 * The mgpu* ABI every gpumem runtime exports (libgpumem_cpu_runtime.so,
 * libgpumem_cuda_runtime.so, libgpumem_vulkan_runtime.so), declared once:
 * the functions LLVM 22's gpu-to-llvm lowering and offloading translation
 * call, with the exact signatures of upstream's CudaRuntimeWrappers.cpp,
 * and the managed memory hints of MemoryHints.h. A program compiled for any
 * target links against any runtime's symbols by these names; each runtime
 * says how it implements them in its own header (runtime/<target>/).
 *
 * Common behaviour: every error ends the process with a message naming
 * what failed; nothing returns an error code. Null modules, streams and
 * pointers are ignored where freeing or unloading them. The null stream is
 * CUDA's legacy default stream.
 *===----------------------------------------------------------------------===*/

#ifndef GPUMEM_RUNTIME_MGPU_H
#define GPUMEM_RUNTIME_MGPU_H

#include "gpumem/Runtime/MemoryHints.h"

#include <stddef.h>
#include <stdint.h>

#ifndef __cplusplus
#include <stdbool.h>
#endif

#define GPUMEM_MGPU_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* Modules and kernels. */
GPUMEM_MGPU_EXPORT void *mgpuModuleLoad(void *data, size_t size);
GPUMEM_MGPU_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
GPUMEM_MGPU_EXPORT void mgpuModuleUnload(void *module);
GPUMEM_MGPU_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);
GPUMEM_MGPU_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                         intptr_t gridY, intptr_t gridZ,
                                         intptr_t blockX, intptr_t blockY,
                                         intptr_t blockZ, int32_t smem,
                                         void *stream, void **params,
                                         void **extra, size_t paramsCount);

/* Streams and events, ordered as CUDA's. */
GPUMEM_MGPU_EXPORT void *mgpuStreamCreate(void);
GPUMEM_MGPU_EXPORT void mgpuStreamDestroy(void *stream);
GPUMEM_MGPU_EXPORT void mgpuStreamSynchronize(void *stream);
GPUMEM_MGPU_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
GPUMEM_MGPU_EXPORT void *mgpuEventCreate(void);
GPUMEM_MGPU_EXPORT void mgpuEventDestroy(void *event);
GPUMEM_MGPU_EXPORT void mgpuEventSynchronize(void *event);
GPUMEM_MGPU_EXPORT void mgpuEventRecord(void *event, void *stream);

/* Memory: allocation (managed when `isHostShared`), copies and fills of
 * `count` 32- or 16-bit elements, host registration of a pointer or of the
 * bytes a ranked memref descriptor ({allocated, aligned, offset,
 * sizes[rank], strides[rank]}) can address. */
GPUMEM_MGPU_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                      bool isHostShared);
GPUMEM_MGPU_EXPORT void mgpuMemFree(void *ptr, void *stream);
GPUMEM_MGPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                   void *stream);
GPUMEM_MGPU_EXPORT void mgpuMemset32(void *dst, unsigned int value,
                                     size_t count, void *stream);
GPUMEM_MGPU_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                     size_t count, void *stream);
GPUMEM_MGPU_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
GPUMEM_MGPU_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                                  void *descriptor,
                                                  int64_t elementSizeBytes);
GPUMEM_MGPU_EXPORT void mgpuMemHostUnregister(void *ptr);
GPUMEM_MGPU_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                    void *descriptor,
                                                    int64_t elementSizeBytes);
/* Chooses the device; only before the runtime's first use of one. */
GPUMEM_MGPU_EXPORT void mgpuSetDefaultDevice(int32_t device);

/* Managed memory hints (MemoryHints.h): each checks its enum argument. */
GPUMEM_MGPU_EXPORT void gpumemMemPrefetch(void *ptr, uint64_t sizeBytes,
                                          int32_t destination, void *stream);
GPUMEM_MGPU_EXPORT void gpumemMemAdvise(void *ptr, uint64_t sizeBytes,
                                        int32_t advice);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GPUMEM_RUNTIME_MGPU_H */
