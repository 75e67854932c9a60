//===----------------------------------------------------------------------===//
// The bytes a ranked memref descriptor addresses, for the runtimes' host
// registration calls (mgpuMemHostRegisterMemRef and its unregister): the
// lowest and highest element reachable from the offset through sizes and
// strides (negative strides included), every step checked for overflow.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_MEMREFREGION_H
#define GPUMEM_RUNTIME_COMMON_MEMREFREGION_H

#include <cstdint>

namespace gpumem::runtime {

struct MemRefRegion {
  char *start;
  uint64_t bytes; ///< 0 when the memref has no elements
};

/// `descriptor` is {T *allocated, T *aligned, int64_t offset,
/// int64_t sizes[rank], int64_t strides[rank]}. A null descriptor, a
/// negative rank, size or element size, or an extent that overflows 64 bits
/// is a fatal error naming `call`.
MemRefRegion memrefRegion(const char *call, int64_t rank, void *descriptor,
                          int64_t elementSizeBytes);

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_MEMREFREGION_H
