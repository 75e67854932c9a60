//===----------------------------------------------------------------------===//
// Device printf formatting shared by the runtimes: a format string and an
// argument buffer laid out as CUDA's vprintf takes it.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_COMMON_DEVICEPRINTF_H
#define GPUMEM_RUNTIME_COMMON_DEVICEPRINTF_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpumem::runtime {

/// Appends `format` formatted with the arguments at `arguments` (`size`
/// bytes) to `out`, reading them as CUDA's host side reads a vprintf
/// buffer: each at its natural alignment; 8 bytes for l/ll/z/j/t/L
/// integers, doubles (f, e, g, a; floats arrive widened), strings and
/// pointers; 4 bytes for other integers and characters and for a `*` width
/// or precision. Conversions printf does not know are printed as written.
/// A %s argument is a host pointer only when `hostStrings`; otherwise it is
/// not read through.
/// Returns the number of arguments read, or -1 when the format reads past
/// `size` bytes (what was formatted until then is in `out`).
int32_t formatDevicePrintf(const char *format, const void *arguments,
                           size_t size, bool hostStrings, std::string &out);

} // namespace gpumem::runtime

#endif // GPUMEM_RUNTIME_COMMON_DEVICEPRINTF_H
