//===----------------------------------------------------------------------===//
// The C ABI of libgpumem_cpu_runtime.so: the mgpu* functions of
// gpumem/Runtime/MGPU.h, plus one configuration hook for tests and
// benchmarks. Kernels run synchronously inside
// mgpuLaunchKernel; streams and events are tokens (see docs/cpu-runtime.md).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_CPURUNTIME_H
#define GPUMEM_RUNTIME_CPU_CPURUNTIME_H

#include "gpumem/Runtime/MGPU.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How this runtime implements the mgpu* ABI of gpumem/Runtime/MGPU.h:
 *  - mgpuModuleLoad: `data` holds the bytes of a host ELF shared object
 *    exporting GPUMEM_CPU_MODULE_SYMBOL (CPUKernelABI.h); mgpuModuleLoadJIT
 *    (PTX) cannot run on the CPU and is an error; mgpuModuleUnload is safe
 *    from global destructors; mgpuModuleGetFunction gives a
 *    `const GPUMemCPUKernel *`.
 *  - mgpuLaunchKernel runs the grid on the worker threads, in stream order.
 *  - mgpuMemAlloc gives host memory aligned to 64 bytes (`isHostShared`
 *    changes nothing); host registration is a no-op, as kernels address
 *    host memory directly; mgpuSetDefaultDevice ignores its value (there
 *    is one device, the host).
 *  - gpumemMemPrefetch and gpumemMemAdvise: "device" memory is host
 *    memory, so there is nothing to move or advise. */

/// Test and benchmark hook, not part of the mgpu* ABI: stops the worker
/// threads and drops every worker's state, so that the next launch uses
/// `workers` workers (the launching thread counts as one) and fiber stacks of
/// `stackBytes` bytes. A value <= 0 means "as the environment says"
/// (GPUMEM_CPU_THREADS, GPUMEM_CPU_STACK_SIZE), read again now.
GPUMEM_MGPU_EXPORT void gpumemCPURuntimeConfigure(int32_t workers,
                                                  int64_t stackBytes);

/// --sanitize=initcheck of managed memory (HostWrites.cpp): host code
/// compiled with gpumem-track-host-writes reports each write it makes to
/// the managed memory gpu.alloc host_shared gave at `allocation`, whose
/// bytes then start as never written, and each such write of `bytes` bytes
/// at `address`.
/// (Addresses are integers: host code passes MLIR indices.)
GPUMEM_MGPU_EXPORT void gpumemMemHostWritesTracked(uintptr_t allocation);
GPUMEM_MGPU_EXPORT void gpumemMemHostWrote(uintptr_t address, int64_t bytes);
/// The same for host memory that host code registers (gpu.host_register):
/// the memref.alloc of `bytes` bytes at `buffer` reports its writes from
/// the start, and its registration counts only those as written; the
/// buffer is freed (memref.dealloc).
GPUMEM_MGPU_EXPORT void gpumemMemHostBufferTracked(uintptr_t buffer,
                                                   int64_t bytes);
GPUMEM_MGPU_EXPORT void gpumemMemHostBufferFreed(uintptr_t buffer);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_RUNTIME_CPU_CPURUNTIME_H
