/*===----------------------------------------------------------------------===//
// The managed memory hints every gpumem runtime exports besides the mgpu*
// ABI, and the values of their arguments:
//
//   void gpumemMemPrefetch(void *ptr, uint64_t bytes, int32_t destination,
//                          void *stream);
//   void gpumemMemAdvise(void *ptr, uint64_t bytes, int32_t advice);
//
// gpumem.prefetch and gpumem.advise lower to these calls
// (lib/Conversion/GPUMemToLLVM); the values are those of GPUMem.td's enums,
// which GPUMemToLLVM.cpp checks against this header. Plain C, no
// dependencies, like CPUKernelABI.h.
//===----------------------------------------------------------------------===*/

#ifndef GPUMEM_RUNTIME_MEMORYHINTS_H
#define GPUMEM_RUNTIME_MEMORYHINTS_H

/* gpumemMemPrefetch's destination. */
enum GPUMemPrefetchDestination {
  GPUMEM_PREFETCH_TO_DEVICE = 0, /* the device the runtime uses */
  GPUMEM_PREFETCH_TO_HOST = 1,
};

/* gpumemMemAdvise's advice. */
enum GPUMemMemoryAdvice {
  GPUMEM_ADVISE_READ_MOSTLY = 0,
  GPUMEM_ADVISE_UNSET_READ_MOSTLY = 1,
  GPUMEM_ADVISE_PREFERRED_LOCATION_DEVICE = 2,
  GPUMEM_ADVISE_PREFERRED_LOCATION_HOST = 3,
  GPUMEM_ADVISE_UNSET_PREFERRED_LOCATION = 4,
  GPUMEM_ADVISE_ACCESSED_BY_DEVICE = 5,
  GPUMEM_ADVISE_UNSET_ACCESSED_BY_DEVICE = 6,
  GPUMEM_ADVISE_COUNT = 7, /* not an advice: how many there are */
};

#endif /* GPUMEM_RUNTIME_MEMORYHINTS_H */
