//===----------------------------------------------------------------------===//
// Huge pages for the large buffers kernels of the cpu target walk.
//
// A GPU maps device memory with large pages. With 4 KiB pages, a kernel
// that walks a large buffer across rows (a transpose of 1024x1024 floats:
// every row one page) misses the TLB on most accesses, and where its pages
// land physically decides its cache conflicts: its time with two workers
// varied from one process to the next by up to 2x, and was steady in every
// process once the buffers had huge pages. Linux's transparent huge pages
// need asking for under the common "madvise" setting:
//  - device allocations of at least 2 MiB are 2 MiB-aligned (Memory.cpp)
//    and advised with MADV_HUGEPAGE before anything touches them;
//  - host memory registered for the device (gpu.host_register) has mostly
//    been written already, so each 2 MiB-aligned region that overlaps it is
//    advised and collapsed into a huge page at once (MADV_COLLAPSE, Linux
//    6.1). A malloc'd buffer is not aligned: its first and last regions
//    reach past its ends into the rest of its mapping, whose contents stay
//    as they are (a region that is not wholly mapped is skipped).
// Each request is advice: where the kernel refuses (huge pages off, a
// kernel before 6.1, no free huge page), memory stays as it was.
//===----------------------------------------------------------------------===//

#include "HugePages.h"

#include <sys/mman.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

void gpumem::cpu::adviseHugePages(void *start, uint64_t bytes) {
#ifdef MADV_HUGEPAGE
  (void)madvise(start, bytes, MADV_HUGEPAGE);
#endif
}

void gpumem::cpu::collapseIntoHugePages(const void *start, uint64_t bytes) {
#ifdef MADV_HUGEPAGE
  if (bytes < hugePageBytes)
    return;
  uintptr_t first = reinterpret_cast<uintptr_t>(start) & ~(hugePageBytes - 1);
  uintptr_t end = reinterpret_cast<uintptr_t>(start) + bytes;
  if (end < first)
    return;
  // One region at a time, so that a region partly outside the mapping
  // (ENOMEM) does not stop the others.
  for (uintptr_t region = first; region < end; region += hugePageBytes) {
    void *at = reinterpret_cast<void *>(region);
    if (madvise(at, hugePageBytes, MADV_HUGEPAGE) == 0)
      (void)madvise(at, hugePageBytes, MADV_COLLAPSE);
    if (region > UINTPTR_MAX - hugePageBytes)
      break;
  }
#endif
}
