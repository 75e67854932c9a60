//===----------------------------------------------------------------------===//
// The C ABI of libgpumem_cpu_runtime.so: the mgpu* functions that LLVM 22's
// gpu-to-llvm lowering and offloading translation call, with the exact
// signatures of upstream's CudaRuntimeWrappers.cpp, the managed memory
// hints (gpumem/Runtime/MemoryHints.h), plus one configuration hook for
// tests and benchmarks. Kernels run synchronously inside
// mgpuLaunchKernel; streams and events are tokens (see docs/cpu-runtime.md).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_CPURUNTIME_H
#define GPUMEM_RUNTIME_CPU_CPURUNTIME_H

#include "gpumem/Runtime/MemoryHints.h"

#include <stddef.h>
#include <stdint.h>

#define GPUMEM_CPU_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/// Loads a gpu.module compiled for gpumem's cpu target: `data` holds the
/// bytes of a host ELF shared object exporting GPUMEM_CPU_MODULE_SYMBOL.
GPUMEM_CPU_EXPORT void *mgpuModuleLoad(void *data, size_t size);
/// PTX cannot run on the CPU: reports an error and exits.
GPUMEM_CPU_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
/// Unloads a module; null is ignored. Safe from global destructors.
GPUMEM_CPU_EXPORT void mgpuModuleUnload(void *module);
/// The kernel `name` of `module` (a `const GPUMemCPUKernel *`).
GPUMEM_CPU_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);
/// Runs a grid to completion before returning.
GPUMEM_CPU_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                        intptr_t gridY, intptr_t gridZ,
                                        intptr_t blockX, intptr_t blockY,
                                        intptr_t blockZ, int32_t smem,
                                        void *stream, void **params,
                                        void **extra, size_t paramsCount);

GPUMEM_CPU_EXPORT void *mgpuStreamCreate(void);
GPUMEM_CPU_EXPORT void mgpuStreamDestroy(void *stream);
GPUMEM_CPU_EXPORT void mgpuStreamSynchronize(void *stream);
GPUMEM_CPU_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
GPUMEM_CPU_EXPORT void *mgpuEventCreate(void);
GPUMEM_CPU_EXPORT void mgpuEventDestroy(void *event);
GPUMEM_CPU_EXPORT void mgpuEventSynchronize(void *event);
GPUMEM_CPU_EXPORT void mgpuEventRecord(void *event, void *stream);

/// Host memory aligned to 64 bytes; `isHostShared` changes nothing.
GPUMEM_CPU_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                     bool isHostShared);
GPUMEM_CPU_EXPORT void mgpuMemFree(void *ptr, void *stream);
GPUMEM_CPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                  void *stream);
/// Writes `count` 32-bit elements.
GPUMEM_CPU_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                    void *stream);
/// Writes `count` 16-bit elements.
GPUMEM_CPU_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                    size_t count, void *stream);
/// Host registration is a no-op: kernels address host memory directly.
GPUMEM_CPU_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
GPUMEM_CPU_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                                 int64_t elementSizeBytes);
GPUMEM_CPU_EXPORT void mgpuMemHostUnregister(void *ptr);
GPUMEM_CPU_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                   void *descriptor,
                                                   int64_t elementSizeBytes);
/// There is one device, the host: the value is ignored.
GPUMEM_CPU_EXPORT void mgpuSetDefaultDevice(int32_t device);

/// Managed memory hints (MemoryHints.h): "device" memory is host memory, so
/// there is nothing to move or advise. Both check their enum argument.
GPUMEM_CPU_EXPORT void gpumemMemPrefetch(void *ptr, uint64_t sizeBytes,
                                         int32_t destination, void *stream);
GPUMEM_CPU_EXPORT void gpumemMemAdvise(void *ptr, uint64_t sizeBytes,
                                       int32_t advice);

/// Test and benchmark hook, not part of the mgpu* ABI: stops the worker
/// threads and drops every worker's state, so that the next launch uses
/// `workers` workers (the launching thread counts as one) and fiber stacks of
/// `stackBytes` bytes. A value <= 0 means "as the environment says"
/// (GPUMEM_CPU_THREADS, GPUMEM_CPU_STACK_SIZE), read again now.
GPUMEM_CPU_EXPORT void gpumemCPURuntimeConfigure(int32_t workers,
                                                 int64_t stackBytes);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_RUNTIME_CPU_CPURUNTIME_H
