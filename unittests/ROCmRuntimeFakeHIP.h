//===----------------------------------------------------------------------===//
// The control and query interface of the fake HIP runtime
// (ROCmRuntimeFakeHIP.cpp, built as libgpumem-fake-hip.so), which the rocm
// runtime tests load through GPUMEM_HIP_LIBRARY. Tests reach these functions
// with dlopen of the same file and dlsym, so that the fake's hip* symbols
// never enter the global scope of the test process.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_UNITTESTS_ROCMRUNTIMEFAKEHIP_H
#define GPUMEM_UNITTESTS_ROCMRUNTIMEFAKEHIP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One HIP call, as the fake recorded it.
typedef struct FakeHipCall {
  /// The function called, e.g. "hipMalloc".
  char symbol[40];
  /// The arguments as integers (pointers and handles by address), in the
  /// order of HIP's prototype; out-parameters hold what the fake wrote
  /// through them. hipModuleLaunchKernel: function, gridX..Z, blockX..Z,
  /// sharedMemBytes, stream, params, extra. Negative ints (hipCpuDeviceId)
  /// are sign-extended.
  uint64_t args[12];
  /// A string argument: a kernel name, or the start of a module image.
  char text[64];
} FakeHipCall;

/// Forgets the recorded calls and undoes fakeHipFail, fakeHipSetMemInfo and
/// fakeHipSetRegisteredOffset. Devices, modules and functions stay.
void fakeHipReset(void);
/// Number of calls recorded since the last reset.
int fakeHipCallLogSize(void);
/// Copies call `index` into `call`; 0 when there is no such call.
int fakeHipCallLogEntry(int index, FakeHipCall *call);

/// From hipInit on: the number of devices (default 1). With 0 devices,
/// hipInit returns hipErrorInvalidDevice and hipGetDeviceCount
/// hipErrorNoDevice, as HIP 5.2 does on a machine without a GPU.
void fakeHipSetDeviceCount(int count);
/// What hipInit returns, whatever the device count; -1 (the default) for
/// the behaviour above.
void fakeHipSetInitResult(int result);
/// Every later call of `symbol` returns `result` (after being recorded);
/// result 0 stops that.
void fakeHipFail(const char *symbol, int result);
/// hipDeviceAttributeMaxSharedMemoryPerBlock (default 65536); launches over
/// it fail with hipErrorInvalidValue.
void fakeHipSetMaxSharedPerBlock(int bytes);
/// The device's gcnArchName, as hipGetDeviceProperties (HIP 5's layout)
/// reports it (default "gfx90a:sramecc+:xnack-"); "" makes that call fail.
/// Read when the runtime opens the device.
void fakeHipSetArchName(const char *name);
/// HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES of kernels named `kernel` looked up
/// from now on (default 0); -1 makes hipFuncGetAttribute fail for them.
void fakeHipSetStaticSharedBytes(const char *kernel, int bytes);
/// What hipMemGetInfo reports (default 8 GiB free of 16 GiB); allocations
/// bigger than `free` fail with hipErrorOutOfMemory.
void fakeHipSetMemInfo(size_t free, size_t total);
/// hipDeviceAttributeConcurrentManagedAccess (default 1).
void fakeHipSetConcurrentManagedAccess(int value);
/// hipHostGetDevicePointer answers the host pointer plus `offset` (default
/// 0), as a device that maps registered memory elsewhere would.
void fakeHipSetRegisteredOffset(int64_t offset);
/// Makes every call but hipGetErrorName/String return
/// hipErrorDeinitialized, as during process exit (hipInit arranges that at
/// exit too).
void fakeHipSetDeinitialized(int deinitialized);
/// Whether the fake is shut down.
int fakeHipDeinitialized(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // GPUMEM_UNITTESTS_ROCMRUNTIMEFAKEHIP_H
