//===----------------------------------------------------------------------===//
// The C ABI of libgpumem_cuda_runtime.so: the mgpu* functions that LLVM
// 22's gpu-to-llvm lowering and offloading translation call, with the exact
// signatures of upstream's CudaRuntimeWrappers.cpp (and of
// libgpumem_cpu_runtime.so), implemented on the CUDA driver API, which is
// loaded with dlopen on first use (see docs/cuda-runtime.md), and the
// managed memory hints of gpumem/Runtime/MemoryHints.h. Every driver error
// ends the process with a message; nothing returns an error code.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_CUDARUNTIME_H
#define GPUMEM_RUNTIME_CUDA_CUDARUNTIME_H

#include "gpumem/Runtime/MemoryHints.h"

#include <stddef.h>
#include <stdint.h>

#define GPUMEM_CUDA_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/// Loads a cubin or fatbin (cuModuleLoadData; PTX text works too).
GPUMEM_CUDA_EXPORT void *mgpuModuleLoad(void *data, size_t size);
/// JIT-compiles NUL-terminated PTX text (cuModuleLoadDataEx at
/// CU_JIT_OPTIMIZATION_LEVEL `optLevel`); on failure prints the JIT log.
GPUMEM_CUDA_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
/// Unloads a module; null is ignored. Safe from global destructors, also
/// after the driver has shut down.
GPUMEM_CUDA_EXPORT void mgpuModuleUnload(void *module);
/// The kernel `name` of `module`: a handle cached per module and name that
/// also carries the name and shared-memory sizes for mgpuLaunchKernel.
GPUMEM_CUDA_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);
/// cuLaunchKernel, after raising the kernel's dynamic shared memory limit
/// when `smem` needs it. `paramsCount` is not used.
GPUMEM_CUDA_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                         intptr_t gridY, intptr_t gridZ,
                                         intptr_t blockX, intptr_t blockY,
                                         intptr_t blockZ, int32_t smem,
                                         void *stream, void **params,
                                         void **extra, size_t paramsCount);

/// A non-blocking stream (CU_STREAM_NON_BLOCKING).
GPUMEM_CUDA_EXPORT void *mgpuStreamCreate(void);
GPUMEM_CUDA_EXPORT void mgpuStreamDestroy(void *stream);
GPUMEM_CUDA_EXPORT void mgpuStreamSynchronize(void *stream);
GPUMEM_CUDA_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
/// An event without timing (CU_EVENT_DISABLE_TIMING).
GPUMEM_CUDA_EXPORT void *mgpuEventCreate(void);
GPUMEM_CUDA_EXPORT void mgpuEventDestroy(void *event);
GPUMEM_CUDA_EXPORT void mgpuEventSynchronize(void *event);
GPUMEM_CUDA_EXPORT void mgpuEventRecord(void *event, void *stream);

/// Managed memory when `isHostShared`, else stream-ordered memory on a
/// stream, else device memory. Zero bytes give null.
GPUMEM_CUDA_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                      bool isHostShared);
/// Stream-ordered on a stream, else synchronous; null is ignored.
GPUMEM_CUDA_EXPORT void mgpuMemFree(void *ptr, void *stream);
/// Asynchronous on a stream, else synchronous.
GPUMEM_CUDA_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                   void *stream);
/// Writes `count` 32-bit elements.
GPUMEM_CUDA_EXPORT void mgpuMemset32(void *dst, unsigned int value,
                                     size_t count, void *stream);
/// Writes `count` 16-bit elements.
GPUMEM_CUDA_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                     size_t count, void *stream);
/// Page-locks and maps host memory for the device
/// (CU_MEMHOSTREGISTER_PORTABLE).
GPUMEM_CUDA_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
/// Registers the bytes a ranked memref descriptor
/// ({allocated, aligned, offset, sizes[rank], strides[rank]}) can address.
GPUMEM_CUDA_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                                  void *descriptor,
                                                  int64_t elementSizeBytes);
GPUMEM_CUDA_EXPORT void mgpuMemHostUnregister(void *ptr);
GPUMEM_CUDA_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                    void *descriptor,
                                                    int64_t elementSizeBytes);
/// Chooses the device; only before the runtime's first use of one (see
/// docs/cuda-runtime.md).
GPUMEM_CUDA_EXPORT void mgpuSetDefaultDevice(int32_t device);

/// Moves the pages of managed memory in [ptr, ptr + sizeBytes) to the
/// device or the host (GPUMemPrefetchDestination): cuMemPrefetchAsync on
/// `stream`, or on the null stream and waited for when `stream` is null.
/// Nothing on a device without concurrent managed access.
GPUMEM_CUDA_EXPORT void gpumemMemPrefetch(void *ptr, uint64_t sizeBytes,
                                          int32_t destination, void *stream);
/// cuMemAdvise of [ptr, ptr + sizeBytes) (GPUMemMemoryAdvice). Nothing on
/// a device without concurrent managed access.
GPUMEM_CUDA_EXPORT void gpumemMemAdvise(void *ptr, uint64_t sizeBytes,
                                        int32_t advice);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_RUNTIME_CUDA_CUDARUNTIME_H
