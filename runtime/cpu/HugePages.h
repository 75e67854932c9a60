//===----------------------------------------------------------------------===//
// Huge pages for the large buffers kernels of the cpu target walk
// (HugePages.cpp says why and how).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CPU_HUGEPAGES_H
#define GPUMEM_RUNTIME_CPU_HUGEPAGES_H

#include <cstdint>

namespace gpumem::cpu {

/// The size and alignment of a transparent huge page on x86-64 and AArch64
/// with 4 KiB base pages.
constexpr uint64_t hugePageBytes = 2ull << 20;

/// Asks that `bytes` of fresh (untouched) memory at `start`, both multiples
/// of hugePageBytes, be backed by huge pages when first touched.
void adviseHugePages(void *start, uint64_t bytes);

/// Backs every huge-page-aligned region that overlaps [start, start+bytes)
/// and lies wholly in mapped memory with a huge page now, its contents
/// kept; for buffers of at least hugePageBytes, others are left alone.
void collapseIntoHugePages(const void *start, uint64_t bytes);

} // namespace gpumem::cpu

#endif // GPUMEM_RUNTIME_CPU_HUGEPAGES_H
