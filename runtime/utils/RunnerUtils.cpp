//===----------------------------------------------------------------------===//
// libgpumem_runner_utils.so: the printing and copying helpers that lowered
// programs call (vector.print, printMemref*, memref.copy), without MLIR's
// libraries. Debian's libmlir_(c_)runner_utils.so link libMLIR.so and
// libLLVM.so, which a machine that only runs gpumem-compile executables does
// not have. The formats are upstream's: scalar printing mirrors
// CRunnerUtils.cpp, memref printing instantiates the header-only templates of
// mlir/ExecutionEngine/RunnerUtils.h, so output is identical to mlir-runner's.
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/RunnerUtils.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <sys/time.h>

#define GPUMEM_EXPORT extern "C" __attribute__((visibility("default")))

GPUMEM_EXPORT void printI64(int64_t i) { fprintf(stdout, "%" PRId64, i); }
GPUMEM_EXPORT void printU64(uint64_t u) { fprintf(stdout, "%" PRIu64, u); }
GPUMEM_EXPORT void printF32(float f) { fprintf(stdout, "%g", f); }
GPUMEM_EXPORT void printF64(double d) { fprintf(stdout, "%lg", d); }
GPUMEM_EXPORT void printString(char const *s) { fputs(s, stdout); }
GPUMEM_EXPORT void printOpen() { fputs("( ", stdout); }
GPUMEM_EXPORT void printClose() { fputs(" )", stdout); }
GPUMEM_EXPORT void printComma() { fputs(", ", stdout); }
GPUMEM_EXPORT void printNewline() { fputc('\n', stdout); }

/// Seconds since the epoch, for programs that time themselves (upstream's
/// rtclock).
GPUMEM_EXPORT double rtclock() {
  struct timeval now;
  gettimeofday(&now, nullptr);
  return now.tv_sec + now.tv_usec * 1.0e-6;
}

/// memref.copy between non-contiguous memrefs: an odometer over the indices.
GPUMEM_EXPORT void memrefCopy(int64_t elemSize,
                              UnrankedMemRefType<char> *srcArg,
                              UnrankedMemRefType<char> *dstArg) {
  DynamicMemRefType<char> src(*srcArg);
  DynamicMemRefType<char> dst(*dstArg);
  int64_t rank = src.rank;
  for (int64_t axis = 0; axis < rank; ++axis)
    if (src.sizes[axis] == 0)
      return;
  char *srcPtr = src.data + src.offset * elemSize;
  char *dstPtr = dst.data + dst.offset * elemSize;
  if (rank == 0) {
    memcpy(dstPtr, srcPtr, elemSize);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  int64_t read = 0, write = 0;
  for (;;) {
    memcpy(dstPtr + write, srcPtr + read, elemSize);
    int64_t axis = rank - 1;
    for (; axis >= 0; --axis) {
      read += src.strides[axis] * elemSize;
      write += dst.strides[axis] * elemSize;
      if (++index[axis] != src.sizes[axis])
        break;
      read -= src.sizes[axis] * src.strides[axis] * elemSize;
      write -= dst.sizes[axis] * dst.strides[axis] * elemSize;
      index[axis] = 0;
    }
    if (axis < 0)
      return;
  }
}

// printMemref<T>(rank, descriptor) and its _mlir_ciface_ form.
#define GPUMEM_PRINT_MEMREF(SUFFIX, TYPE)                                      \
  GPUMEM_EXPORT void _mlir_ciface_printMemref##SUFFIX(                         \
      UnrankedMemRefType<TYPE> *m) {                                           \
    impl::printMemRef(*m);                                                     \
  }                                                                            \
  GPUMEM_EXPORT void printMemref##SUFFIX(int64_t rank, void *ptr) {            \
    UnrankedMemRefType<TYPE> descriptor = {rank, ptr};                         \
    _mlir_ciface_printMemref##SUFFIX(&descriptor);                             \
  }
GPUMEM_PRINT_MEMREF(F32, float)
GPUMEM_PRINT_MEMREF(F64, double)
GPUMEM_PRINT_MEMREF(I8, int8_t)
GPUMEM_PRINT_MEMREF(I16, int16_t)
GPUMEM_PRINT_MEMREF(I32, int32_t)
GPUMEM_PRINT_MEMREF(I64, int64_t)
GPUMEM_PRINT_MEMREF(Ind, impl::index_type)
#undef GPUMEM_PRINT_MEMREF
