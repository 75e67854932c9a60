//===----------------------------------------------------------------------===//
// The messages of a failed device-side assert, shared by the runtimes: CUDA's
// line for each failing thread, and the error a launch with failed asserts
// ends the program with (the cpu and vulkan targets; cuda-emu reports as the
// cuda runtime does).
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_DEVICEASSERT_H
#define GPUMEM_RUNTIME_COMMON_DEVICEASSERT_H

#include <cstdint>

namespace gpumem::runtime {

/// Prints CUDA's line for a thread that failed an assert, "<where>: block:
/// [x,y,z], thread: [x,y,z] Assertion `message` failed.", on stderr in one
/// write (lines of threads failing at once never interleave), after what
/// the program printed so far. `where` is "file:line: function".
void printAssertFailure(const char *where, const int64_t block[3],
                        const int64_t thread[3], const char *message);

/// Ends the program after a launch of `kernel` in which asserts failed.
[[noreturn]] void failAfterAssertions(const char *kernel);

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_DEVICEASSERT_H
