//===----------------------------------------------------------------------===//
// The C ABI of libgpumem_vulkan_runtime.so: the mgpu* functions that LLVM
// 22's gpu-to-llvm lowering and offloading translation call, with the exact
// signatures of libgpumem_cuda_runtime.so's CUDARuntime.h, implemented on
// Vulkan compute (libvulkan.so.1 loaded with dlopen on first use), the
// managed memory hints of gpumem/Runtime/MemoryHints.h (checked and
// ignored: Vulkan has no page migration), and the device
// probes gpumemVulkanDeviceKind and gpumemVulkanSubgroupSize. Modules are images in the format of
// gpumem/Runtime/VulkanKernelABI.h. Every error ends the process with a
// message; nothing returns an error code.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_VULKANRUNTIME_H
#define GPUMEM_RUNTIME_VULKAN_VULKANRUNTIME_H

#include "gpumem/Runtime/MemoryHints.h"

#include <stddef.h>
#include <stdint.h>

#define GPUMEM_VULKAN_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/// What Vulkan this process would run on, without ever exiting: 0 when
/// there is no Vulkan driver or no usable device, 1 when the device the
/// runtime chooses (or chose) is a CPU implementation (lavapipe), 2 when it
/// is a GPU.
GPUMEM_VULKAN_EXPORT int gpumemVulkanDeviceKind(void);
/// The lanes per subgroup of that device, without ever exiting; 0 when
/// there is none. What the pipeline option subgroup-size must be for
/// kernels with subgroup operations to run there.
GPUMEM_VULKAN_EXPORT int gpumemVulkanSubgroupSize(void);

/// Loads a gpumem Vulkan kernel image, validated in full first.
GPUMEM_VULKAN_EXPORT void *mgpuModuleLoad(void *data, size_t size);
/// Not supported (there is no PTX on Vulkan): an error.
GPUMEM_VULKAN_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
/// Waits for submitted work, then destroys the module's pipelines; null is
/// ignored, and so is everything once the process is exiting.
GPUMEM_VULKAN_EXPORT void mgpuModuleUnload(void *module);
/// The kernel `name` of `module`: its record in the image.
GPUMEM_VULKAN_EXPORT void *mgpuModuleGetFunction(void *module,
                                                 const char *name);
/// Records and submits one dispatch; returns without waiting for it.
/// `paramsCount` must be the kernel's parameter count; `extra` is unused.
GPUMEM_VULKAN_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                           intptr_t gridY, intptr_t gridZ,
                                           intptr_t blockX, intptr_t blockY,
                                           intptr_t blockZ, int32_t smem,
                                           void *stream, void **params,
                                           void **extra, size_t paramsCount);

/// Streams (timeline semaphores) and events order work as CUDA's do; the
/// null stream is the legacy default stream (Queue.h).
GPUMEM_VULKAN_EXPORT void *mgpuStreamCreate(void);
GPUMEM_VULKAN_EXPORT void mgpuStreamDestroy(void *stream);
GPUMEM_VULKAN_EXPORT void mgpuStreamSynchronize(void *stream);
GPUMEM_VULKAN_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
GPUMEM_VULKAN_EXPORT void *mgpuEventCreate(void);
GPUMEM_VULKAN_EXPORT void mgpuEventDestroy(void *event);
GPUMEM_VULKAN_EXPORT void mgpuEventSynchronize(void *event);
GPUMEM_VULKAN_EXPORT void mgpuEventRecord(void *event, void *stream);

/// Device memory. Mapped host-visible memory, usable on the host too,
/// unless the device's memory is staged (discrete GPUs without a mappable
/// device-local heap, or $GPUMEM_VULKAN_MEMORY=staged): then a device-local
/// buffer whose addresses the host cannot touch, as on a GPU, except for
/// `isHostShared` allocations, which stay mapped. Zero bytes give null.
GPUMEM_VULKAN_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                        bool isHostShared);
/// Waits for submitted work, then frees; null is ignored.
GPUMEM_VULKAN_EXPORT void mgpuMemFree(void *ptr, void *stream);
/// Copies and fills: on the device, in stream order, when a side is staged
/// device memory (through a staging buffer where the other side is plain
/// host memory; a copy out waits for the data); else after all submitted
/// work, on the host.
GPUMEM_VULKAN_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                     void *stream);
GPUMEM_VULKAN_EXPORT void mgpuMemset32(void *dst, unsigned int value,
                                       size_t count, void *stream);
GPUMEM_VULKAN_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                       size_t count, void *stream);
/// Imports host memory for kernels (VK_EXT_external_memory_host).
GPUMEM_VULKAN_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
GPUMEM_VULKAN_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                                    void *descriptor,
                                                    int64_t elementSizeBytes);
GPUMEM_VULKAN_EXPORT void mgpuMemHostUnregister(void *ptr);
GPUMEM_VULKAN_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                      void *descriptor,
                                                      int64_t elementSizeBytes);
/// Chooses the device (an index in vkEnumeratePhysicalDevices' order);
/// only before the runtime's first use of one.
GPUMEM_VULKAN_EXPORT void mgpuSetDefaultDevice(int32_t device);

/// Checked like the CUDA runtime's, then nothing: Vulkan has no page
/// migration to ask for.
GPUMEM_VULKAN_EXPORT void gpumemMemPrefetch(void *ptr, uint64_t sizeBytes,
                                            int32_t destination, void *stream);
GPUMEM_VULKAN_EXPORT void gpumemMemAdvise(void *ptr, uint64_t sizeBytes,
                                          int32_t advice);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_RUNTIME_VULKAN_VULKANRUNTIME_H
