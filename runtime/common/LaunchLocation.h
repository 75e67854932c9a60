//===----------------------------------------------------------------------===//
// The source location of the launch a runtime is performing, so that its
// errors name it. Host code compiled by gpumem calls gpumemLaunchLocation
// right before each mgpuLaunchKernel (gpumem-record-launch-locations);
// mgpuLaunchKernel clears it when it returns. The cpu pipeline also calls
// gpumemMemoryCallLocation before each gpu.alloc, gpu.dealloc, gpu.memcpy
// and gpu.memset; the cpu runtime clears that when the call returns.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_LAUNCHLOCATION_H
#define GPUMEM_RUNTIME_COMMON_LAUNCHLOCATION_H

extern "C" {
/// Records "file:line:col" of the calling thread's next launch (a string
/// that outlives it).
__attribute__((visibility("default"))) void
gpumemLaunchLocation(const char *location);
/// Records "file:line:col" of the calling thread's next memory call.
__attribute__((visibility("default"))) void
gpumemMemoryCallLocation(const char *location);
}

namespace gpumem::runtime {

/// The launch the calling thread performs or runs blocks of, or null.
const char *currentLaunchLocation();
/// The calling thread runs blocks of the launch at `where` (or null).
void setLaunchLocation(const char *where);
/// Forgets it: the launch is over.
void clearLaunchLocation();
/// The calling thread's memory call in progress, or null.
const char *currentMemoryCallLocation();
/// Forgets it: the call is over.
void clearMemoryCallLocation();
/// Forgets the location host code gave for the memory call when the call
/// returns (gpumemMemoryCallLocation).
struct MemoryCallScope {
  ~MemoryCallScope() { clearMemoryCallLocation(); }
};

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_LAUNCHLOCATION_H
