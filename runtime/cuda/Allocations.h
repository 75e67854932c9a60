//===----------------------------------------------------------------------===//
// Where each allocation of the cuda runtime was made, for --sanitize's
// reports (Allocations.cpp). Host code compiled with --sanitize names the
// source line of each memory call (gpumemMemoryCallLocation); the
// allocations made with a line are kept until they are freed, so that a
// report of a device-side check names the buffer as the other targets do.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_ALLOCATIONS_H
#define GPUMEM_RUNTIME_CUDA_ALLOCATIONS_H

#include <cstdint>
#include <string>

namespace gpumem::cuda {

/// What an allocation holds, in the reports' words.
enum class AllocationKind { Device, Managed };

/// `bytes` bytes at `start` were allocated by the memory call in progress;
/// kept only when host code named its location.
void recordAllocation(uintptr_t start, uint64_t bytes, AllocationKind kind);
/// The allocation at `start` is freed.
void forgetAllocation(uintptr_t start);
/// "device memory of 64 bytes from byte 8, allocated at LOCATION: source",
/// for the recorded allocation holding `address`; empty when none does.
std::string describeAllocation(uintptr_t address);

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_ALLOCATIONS_H
