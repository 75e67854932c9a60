// The few CUDA driver API declarations the CUDA benchmarks use, declared
// here (not from cuda.h) so that the harnesses build without the toolkit.
// libcuda.so.1 is opened with dlopen and every symbol looked up with dlsym,
// under the versioned name cuda.h maps it to (cuMemAlloc -> cuMemAlloc_v2).
// Types and enum values are those of cuda.h (CUDA 12/13, 64-bit).

#ifndef GPUMEM_BENCH_CUDA_DRIVER_H
#define GPUMEM_BENCH_CUDA_DRIVER_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

namespace cudrv {

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUjit_option;

enum : int {
  CUDA_SUCCESS = 0,
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DEFAULT = 0,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
  CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM = 91,
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_MEMHOSTREGISTER_PORTABLE = 1,
  CU_MEM_LOCATION_TYPE_DEVICE = 1,
};

// X(name, symbol, return, parameters): every driver entry point used.
#define GPUMEM_BENCH_DRIVER_FUNCTIONS(X)                                       \
  X(cuInit, "cuInit", CUresult, (unsigned))                                    \
  X(cuDriverGetVersion, "cuDriverGetVersion", CUresult, (int *))               \
  X(cuGetErrorString, "cuGetErrorString", CUresult, (CUresult, const char **)) \
  X(cuDeviceGet, "cuDeviceGet", CUresult, (CUdevice *, int))                   \
  X(cuDeviceGetName, "cuDeviceGetName", CUresult, (char *, int, CUdevice))     \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult,                    \
    (int *, int, CUdevice))                                                    \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult,            \
    (CUcontext *, CUdevice))                                                   \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult, (CUcontext))                 \
  X(cuCtxSynchronize, "cuCtxSynchronize", CUresult, (void))                    \
  X(cuModuleLoadData, "cuModuleLoadData", CUresult,                            \
    (CUmodule *, const void *))                                                \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", CUresult,                        \
    (CUmodule *, const void *, unsigned, CUjit_option *, void **))             \
  X(cuModuleGetFunction, "cuModuleGetFunction", CUresult,                      \
    (CUfunction *, CUmodule, const char *))                                    \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", CUresult,                        \
    (int *, int, CUfunction))                                                  \
  X(cuLaunchKernel, "cuLaunchKernel", CUresult,                                \
    (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
     unsigned, CUstream, void **, void **))                                    \
  X(cuStreamCreate, "cuStreamCreate", CUresult, (CUstream *, unsigned))        \
  X(cuStreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream))          \
  X(cuStreamDestroy, "cuStreamDestroy_v2", CUresult, (CUstream))               \
  X(cuEventCreate, "cuEventCreate", CUresult, (CUevent *, unsigned))           \
  X(cuEventRecord, "cuEventRecord", CUresult, (CUevent, CUstream))             \
  X(cuEventSynchronize, "cuEventSynchronize", CUresult, (CUevent))             \
  X(cuEventDestroy, "cuEventDestroy_v2", CUresult, (CUevent))                  \
  X(cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr *, size_t))            \
  X(cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr))                        \
  X(cuMemAllocAsync, "cuMemAllocAsync", CUresult,                              \
    (CUdeviceptr *, size_t, CUstream))                                         \
  X(cuMemFreeAsync, "cuMemFreeAsync", CUresult, (CUdeviceptr, CUstream))       \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", CUresult,                                 \
    (CUdeviceptr, const void *, size_t))                                       \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", CUresult, (void *, CUdeviceptr, size_t))  \
  X(cuMemsetD32, "cuMemsetD32_v2", CUresult, (CUdeviceptr, unsigned, size_t))  \
  X(cuMemcpyAsync, "cuMemcpyAsync", CUresult,                                  \
    (CUdeviceptr, CUdeviceptr, size_t, CUstream))                              \
  X(cuMemAllocManaged, "cuMemAllocManaged", CUresult,                          \
    (CUdeviceptr *, size_t, unsigned))                                         \
  X(cuMemHostRegister, "cuMemHostRegister_v2", CUresult,                       \
    (void *, size_t, unsigned))                                                \
  X(cuMemHostUnregister, "cuMemHostUnregister", CUresult, (void *))

#define GPUMEM_BENCH_DECLARE(name, symbol, ret, params)                        \
  inline ret(*name) params = nullptr;
GPUMEM_BENCH_DRIVER_FUNCTIONS(GPUMEM_BENCH_DECLARE)
#undef GPUMEM_BENCH_DECLARE
/// cuEventElapsedTime_v2 (CUDA 12.8+ drivers), else the original entry.
inline CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;

/// Opens libcuda.so.1 and resolves every entry point; false (with a message
/// on stderr) when the driver or a symbol is missing.
inline bool load() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    fprintf(stderr, "error: cannot load libcuda.so.1: %s\n", dlerror());
    return false;
  }
  bool ok = true;
#define GPUMEM_BENCH_RESOLVE(name, symbol, ret, params)                        \
  name = reinterpret_cast<ret(*) params>(dlsym(lib, symbol));                  \
  if (!name) {                                                                 \
    fprintf(stderr, "error: libcuda.so.1 lacks %s\n", symbol);                 \
    ok = false;                                                                \
  }
  GPUMEM_BENCH_DRIVER_FUNCTIONS(GPUMEM_BENCH_RESOLVE)
#undef GPUMEM_BENCH_RESOLVE
  void *elapsed = dlsym(lib, "cuEventElapsedTime_v2");
  if (!elapsed)
    elapsed = dlsym(lib, "cuEventElapsedTime");
  cuEventElapsedTime =
      reinterpret_cast<CUresult (*)(float *, CUevent, CUevent)>(elapsed);
  if (!cuEventElapsedTime) {
    fprintf(stderr, "error: libcuda.so.1 lacks cuEventElapsedTime\n");
    ok = false;
  }
  return ok;
}

/// Exits with the driver's message when `result` is an error.
inline void check(CUresult result, const char *what, const char *file,
                  int line) {
  if (result == CUDA_SUCCESS)
    return;
  const char *message = nullptr;
  if (cuGetErrorString)
    cuGetErrorString(result, &message);
  fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", file, line, what,
          message ? message : "unknown error", result);
  exit(1);
}

/// Loads the driver, initialises it and makes device 0's primary context
/// current; exits on failure. Returns the device.
inline CUdevice init() {
  if (!load())
    exit(1);
  check(cuInit(0), "cuInit", __FILE__, __LINE__);
  CUdevice device;
  check(cuDeviceGet(&device, 0), "cuDeviceGet", __FILE__, __LINE__);
  CUcontext context;
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain",
        __FILE__, __LINE__);
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent", __FILE__, __LINE__);
  return device;
}

} // namespace cudrv

#define CU_CHECK(call) ::cudrv::check((call), #call, __FILE__, __LINE__)

#endif // GPUMEM_BENCH_CUDA_DRIVER_H
