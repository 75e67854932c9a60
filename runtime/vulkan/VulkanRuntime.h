//===----------------------------------------------------------------------===//
// The C ABI of libgpumem_vulkan_runtime.so: the mgpu* functions of
// gpumem/Runtime/MGPU.h, implemented on Vulkan compute (libvulkan.so.1
// loaded with dlopen on first use), and the device probes the tools use
// (gpumemVulkanDevice*, gpumemVulkanSubgroupSize,
// gpumemVulkanMaxSharedMemory). Modules are images
// in the format of gpumem/Runtime/VulkanKernelABI.h.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_VULKAN_VULKANRUNTIME_H
#define GPUMEM_RUNTIME_VULKAN_VULKANRUNTIME_H

#include "gpumem/Runtime/MGPU.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What Vulkan this process would run on, without ever exiting: 0 when
/// there is no Vulkan driver or no usable device, 1 when the device the
/// runtime chooses (or chose) is a CPU implementation (lavapipe), 2 when it
/// is a GPU.
GPUMEM_MGPU_EXPORT int gpumemVulkanDeviceKind(void);
/// The lanes per subgroup of that device, without ever exiting; 0 when
/// there is none. What the pipeline option subgroup-size must be for
/// kernels with subgroup operations to run there.
GPUMEM_MGPU_EXPORT int gpumemVulkanSubgroupSize(void);
/// That device's name (VkPhysicalDeviceProperties::deviceName, e.g.
/// "llvmpipe (LLVM 15.0.6, 256 bits)") copied into `buffer` of `size`
/// bytes, cut short and always NUL-terminated when size > 0, without ever
/// exiting; returns the name's full length, 0 when there is no device.
GPUMEM_MGPU_EXPORT size_t gpumemVulkanDeviceName(char *buffer, size_t size);
/// The workgroup memory a workgroup of that device may have
/// (maxComputeSharedMemorySize), without ever exiting; 0 when there is
/// none. The tools compile for it when the program runs here.
GPUMEM_MGPU_EXPORT int64_t gpumemVulkanMaxSharedMemory(void);

/* How this runtime implements the mgpu* ABI of gpumem/Runtime/MGPU.h:
 *  - mgpuModuleLoad: a gpumem Vulkan kernel image, validated in full
 *    first; mgpuModuleLoadJIT is an error (there is no PTX on Vulkan);
 *    mgpuModuleUnload waits for submitted work, then destroys the module's
 *    pipelines, and ignores everything once the process is exiting;
 *    mgpuModuleGetFunction gives the kernel's record in the image.
 *  - mgpuLaunchKernel records and submits one dispatch and returns without
 *    waiting for it; `paramsCount` must be the kernel's parameter count,
 *    `extra` is unused.
 *  - Streams are timeline semaphores (Queue.h).
 *  - mgpuMemAlloc: device memory; mapped host-visible memory, usable on the
 *    host too, unless the device's memory is staged (discrete GPUs without
 *    a mappable device-local heap, or $GPUMEM_VULKAN_MEMORY=staged): then a
 *    device-local buffer whose addresses the host cannot touch, as on a
 *    GPU, except for `isHostShared` allocations, which stay mapped. Zero
 *    bytes give null. mgpuMemFree waits for submitted work first.
 *  - Copies and fills run on the device, in stream order, when a side is
 *    staged device memory (through a staging buffer where the other side is
 *    plain host memory; a copy out waits for the data); else after all
 *    submitted work, on the host.
 *  - mgpuMemHostRegister imports host memory for kernels
 *    (VK_EXT_external_memory_host).
 *  - mgpuSetDefaultDevice takes an index in vkEnumeratePhysicalDevices'
 *    order.
 *  - gpumemMemPrefetch and gpumemMemAdvise are checked like the CUDA
 *    runtime's, then do nothing: Vulkan has no page migration. */

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_RUNTIME_VULKAN_VULKANRUNTIME_H
