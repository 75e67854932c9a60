/*===----------------------------------------------------------------------===*
 * The sanitizer's log in device memory: how `--sanitize=memcheck` reports
 * from code that runs on the GPU (the cuda target), where no runtime service
 * can be called. Plain C, no dependencies: the compiler
 * (gpumem-define-nvvm-sanitizer-log) mirrors the layout as LLVM types, the
 * runtimes include this header.
 *
 * An instrumented gpu.module defines one global, GPUMEM_DEVICE_SANITIZER_LOG
 * (a GPUMemDeviceSanitizerLog, zero-initialized, in global memory). The
 * memref checks call the functions __gpumem_sanitizer_accessError,
 * __gpumem_sanitizer_accessErrorShared and __gpumem_sanitizer_divisionError
 * as they call runtime services on the CPU-executed targets; here the
 * module defines them, and each call records the error:
 *   - a record of the same site (same `what` and `location` strings, the
 *     same kind) among those already written gets its `hits` incremented
 *     and keeps the smallest (block, thread) that erred there;
 *   - otherwise a slot is taken with an atomic add on `count` and filled
 *     (when `count` had reached GPUMEM_DEVICE_SANITIZER_RECORDS, only
 *     `dropped` counts the error).
 * Two threads erring first at one site at once may both take a slot; the
 * runtime merges records by their strings. After each launch of a kernel of
 * such a module the runtime waits for the kernel, reads the log, reports
 * each record with the words of the CPU-executed targets, and clears it.
 *===----------------------------------------------------------------------===*/

#ifndef GPUMEM_RUNTIME_DEVICESANITIZERLOG_H
#define GPUMEM_RUNTIME_DEVICESANITIZERLOG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The global's name in the gpu.module (cuModuleGetGlobal's). */
#define GPUMEM_DEVICE_SANITIZER_LOG "__gpumem_sanitizer_log"

/* Records one launch keeps; errors at further sites are only counted. */
#define GPUMEM_DEVICE_SANITIZER_RECORDS 64
/* Bytes of a record's copy of its strings, the terminating 0 included
 * (longer ones are cut). */
#define GPUMEM_DEVICE_SANITIZER_WHAT_BYTES 128
#define GPUMEM_DEVICE_SANITIZER_LOCATION_BYTES 256
/* Bits of `first` that hold the linear thread id in its block. */
#define GPUMEM_DEVICE_SANITIZER_THREAD_BITS 16

/* GPUMemDeviceSanitizerRecord::kind. */
enum GPUMemDeviceSanitizerKind {
  /* services->accessError: `detail` the dimension (-1: a reinterpreted view
   * outside its buffer), `index`, `size`, `base` as there. */
  GPUMEM_DEVICE_REPORT_ACCESS = 1,
  /* As GPUMEM_DEVICE_REPORT_ACCESS, with `base` an offset in the block's
   * shared memory (accessErrorShared). */
  GPUMEM_DEVICE_REPORT_SHARED_ACCESS = 2,
  /* services->divisionError: `detail` its `overflow`. */
  GPUMEM_DEVICE_REPORT_DIVISION = 3
};

typedef struct GPUMemDeviceSanitizerRecord {
  /* The device addresses of the site's strings: its identity. */
  uint64_t whatAddress;
  uint64_t locationAddress;
  /* The smallest (linear block id << THREAD_BITS | linear thread id) of
   * the threads that erred here (x fastest, as CUDA numbers them). */
  uint64_t first;
  int64_t index;
  int64_t size;
  uint64_t base;
  int32_t kind; /* GPUMemDeviceSanitizerKind; 0 while being written */
  int32_t detail;
  uint32_t hits;
  uint32_t reserved;
  char what[GPUMEM_DEVICE_SANITIZER_WHAT_BYTES];
  char location[GPUMEM_DEVICE_SANITIZER_LOCATION_BYTES];
} GPUMemDeviceSanitizerRecord;

typedef struct GPUMemDeviceSanitizerLog {
  uint32_t count;   /* slots taken; may pass RECORDS */
  uint32_t dropped; /* errors at sites no slot was left for */
  GPUMemDeviceSanitizerRecord records[GPUMEM_DEVICE_SANITIZER_RECORDS];
} GPUMemDeviceSanitizerLog;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GPUMEM_RUNTIME_DEVICESANITIZERLOG_H */
