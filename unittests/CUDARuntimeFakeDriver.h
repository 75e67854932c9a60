//===----------------------------------------------------------------------===//
// The control and query interface of the fake CUDA driver
// (CUDARuntimeFakeDriver.cpp, built as libgpumem-fake-cuda.so), which the
// CUDA runtime tests load through GPUMEM_CUDA_DRIVER. Tests reach these
// functions with dlopen of the same file and dlsym, so that the fake's cu*
// symbols never enter the global scope of the test process.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_UNITTESTS_CUDARUNTIMEFAKEDRIVER_H
#define GPUMEM_UNITTESTS_CUDARUNTIMEFAKEDRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One driver call, as the fake recorded it.
typedef struct FakeCudaCall {
  /// The exported symbol called, e.g. "cuMemAlloc_v2".
  char symbol[40];
  /// The arguments as integers (pointers and handles by address), in the
  /// order of the driver's prototype; out-parameters hold what the fake
  /// wrote through them. cuLaunchKernel: function, gridX..Z, blockX..Z,
  /// sharedMemBytes, stream, params, extra. cuModuleLoadDataEx: the option
  /// count, then the value given for CU_JIT_OPTIMIZATION_LEVEL, whether
  /// CU_JIT_ERROR_LOG_BUFFER and its size were passed (1/0), the size.
  /// cuModuleLoadData of a fatbin: module, image, then the entry loaded
  /// (kind: 1 PTX, 2 cubin, 0 none fits; its sm, 90 for sm_90; 1 when its
  /// payload is compressed).
  /// CUmemLocation arguments are two: type, id. Negative ints (CUdevice
  /// CU_DEVICE_CPU) are sign-extended.
  uint64_t args[12];
  /// A string argument: a kernel name, or the start of a module image; for
  /// a fatbin, "fatbin: " and what it holds ("sm_80 cubin, sm_90 PTX").
  char text[64];
} FakeCudaCall;

/// Forgets the recorded calls and undoes fakeCudaFail, fakeCudaSetJitLog,
/// fakeCudaSetMemInfo and fakeCudaSetComputeCapability. Devices, modules
/// and functions stay.
void fakeCudaReset(void);
/// Number of calls recorded since the last reset.
int fakeCudaCallLogSize(void);
/// Copies call `index` into `call`; 0 when there is no such call.
int fakeCudaCallLogEntry(int index, FakeCudaCall *call);

/// From cuInit on: the number of devices (default 1). With 0 devices,
/// cuInit returns CUDA_ERROR_NO_DEVICE, as drivers do.
void fakeCudaSetDeviceCount(int count);
/// The compute capability of every device (default 9.0), which decides the
/// entry a fatbin loads. The runtime reads it once, at its first call.
void fakeCudaSetComputeCapability(int major, int minor);
/// What cuInit returns, whatever the device count; -1 (the default) for
/// the behaviour above.
void fakeCudaSetInitResult(int result);
/// Every later call of `symbol` returns `result` (after being recorded);
/// result 0 stops that.
void fakeCudaFail(const char *symbol, int result);
/// CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN (default 232448,
/// an H100's). Functions start with a dynamic limit of 48 KiB minus their
/// static size, and cuFuncSetAttribute and cuLaunchKernel enforce the
/// limits as drivers do.
void fakeCudaSetMaxSharedPerBlockOptin(int bytes);
/// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES of kernels named `kernel` looked up
/// from now on (default 0).
void fakeCudaSetStaticSharedBytes(const char *kernel, int bytes);
/// What cuMemGetInfo reports (default 8 GiB free of 16 GiB); allocations
/// bigger than `free` fail with CUDA_ERROR_OUT_OF_MEMORY.
void fakeCudaSetMemInfo(size_t free, size_t total);
/// CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS (default 1).
void fakeCudaSetConcurrentManagedAccess(int value);
/// Modules whose text names `name` have a global of `bytes` bytes by that
/// name (cuModuleGetGlobal); every later launch of one of their kernels
/// writes `launchWrites` there, as a kernel would. Reset forgets it.
void fakeCudaSetGlobal(const char *name, const void *launchWrites,
                       size_t bytes);
/// What a failing cuModuleLoadDataEx writes into the JIT error log.
void fakeCudaSetJitLog(const char *log);
/// Makes every call but cuGetErrorName/String return
/// CUDA_ERROR_DEINITIALIZED, as during process exit (cuInit arranges that
/// at exit too).
void fakeCudaSetDeinitialized(int deinitialized);
/// Whether the fake is shut down.
int fakeCudaDeinitialized(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_UNITTESTS_CUDARUNTIMEFAKEDRIVER_H
