//===----------------------------------------------------------------------===//
// The bytes a ranked memref descriptor addresses (MemRefRegion.h).
//===----------------------------------------------------------------------===//

#include "MemRefRegion.h"
#include "Fatal.h"

namespace gpumem::runtime {

MemRefRegion memrefRegion(const char *call, int64_t rank, void *descriptor,
                          int64_t elementSizeBytes) {
  if (!descriptor)
    fatal("%s: null memref descriptor", call);
  if (rank < 0 || elementSizeBytes <= 0)
    fatal("%s: invalid memref (rank %lld, %lld-byte elements)", call,
          (long long)rank, (long long)elementSizeBytes);
  auto *pointers = static_cast<char **>(descriptor);
  char *aligned = pointers[1];
  auto *fields = reinterpret_cast<const int64_t *>(pointers + 2);
  int64_t offset = fields[0];
  const int64_t *sizes = fields + 1, *strides = fields + 1 + rank;
  // Lowest and highest element index reachable from the offset.
  int64_t low = 0, high = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] < 0)
      fatal("%s: negative size %lld in dimension %lld", call,
            (long long)sizes[i], (long long)i);
    if (sizes[i] == 0)
      return {aligned, 0};
    int64_t reach = 0;
    bool overflow = __builtin_mul_overflow(sizes[i] - 1, strides[i], &reach);
    int64_t &bound = reach < 0 ? low : high;
    if (overflow || __builtin_add_overflow(bound, reach, &bound))
      fatal("%s: the memref's extent overflows 64 bits", call);
  }
  int64_t first, elements, bytes, startByte;
  if (__builtin_add_overflow(offset, low, &first) ||
      __builtin_sub_overflow(high, low, &elements) ||
      __builtin_add_overflow(elements, 1, &elements) ||
      __builtin_mul_overflow(elements, elementSizeBytes, &bytes) ||
      __builtin_mul_overflow(first, elementSizeBytes, &startByte))
    fatal("%s: the memref's extent overflows 64 bits", call);
  return {aligned + startByte, uint64_t(bytes)};
}

} // namespace gpumem::runtime
