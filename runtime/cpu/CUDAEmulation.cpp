//===----------------------------------------------------------------------===//
// CUDA's device-side printf and assert for the cuda-emu target.
//
// vprintf(format, buffer): the NVVM lowering of gpu.printf packs the
// arguments into a buffer, each at its natural alignment, floats widened to
// double. As CUDA's host side does, the format string says how to read it:
// each conversion takes 8 bytes for l/ll/z/j/t integers, doubles (f, e, g,
// a), strings and pointers, and 4 bytes for other integers and characters;
// `*` width or precision takes a 4-byte int. The formatted text is written
// to stdout with one call, so lines of different threads never interleave.
//
// __assertfail: CUDA prints "file:line: function: block: [x,y,z], thread:
// [x,y,z] Assertion `message` failed." and the kernel traps; the host sees
// CUDA_ERROR_ASSERT at its next synchronizing call, which the cuda runtime
// reports and exits on. Both are reproduced here.
//===----------------------------------------------------------------------===//

#include "CUDAEmulation.h"
#include "Support.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace gpumem::cpu;

namespace {

/// Reads the next argument of `size` bytes from the buffer at `offset`.
template <typename T> T take(const char *buffer, size_t &offset) {
  offset = alignTo(offset, sizeof(T));
  T value;
  std::memcpy(&value, buffer + offset, sizeof(T));
  offset += sizeof(T);
  return value;
}

/// Appends `spec` formatted with `value` to `out`.
template <typename T>
void appendFormatted(std::string &out, const std::string &spec, T value) {
  char small[128];
  int length = std::snprintf(small, sizeof(small), spec.c_str(), value);
  if (length < 0)
    return;
  if (size_t(length) < sizeof(small)) {
    out.append(small, size_t(length));
    return;
  }
  std::string large(size_t(length) + 1, '\0');
  std::snprintf(large.data(), large.size(), spec.c_str(), value);
  out.append(large.data(), size_t(length));
}

} // namespace

int32_t gpumem::cpu::cudaVprintf(GPUMemThreadContext *ctx, const char *format,
                                 const void *arguments) {
  if (!format)
    return -1;
  const char *buffer = static_cast<const char *>(arguments);
  size_t offset = 0;
  int32_t count = 0;
  std::string out;
  for (const char *p = format; *p;) {
    if (*p != '%') {
      out.push_back(*p++);
      continue;
    }
    if (p[1] == '%') {
      out.push_back('%');
      p += 2;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    std::string spec = "%";
    ++p;
    while (*p && std::strchr("-+ #0", *p))
      spec.push_back(*p++);
    auto number = [&]() {
      if (*p == '*') {
        if (!buffer)
          fatal("kernel '%s': printf format \"%s\" needs arguments the "
                "kernel did not pass",
                ctx->kernelName, format);
        spec += std::to_string(take<int32_t>(buffer, offset));
        ++count;
        ++p;
        return;
      }
      while (*p >= '0' && *p <= '9')
        spec.push_back(*p++);
    };
    number();
    if (*p == '.') {
      spec.push_back(*p++);
      number();
    }
    bool wide = false;
    std::string length;
    while (*p && std::strchr("hlzjtL", *p)) {
      if (std::strchr("lzjtL", *p))
        wide = true;
      length.push_back(*p++);
    }
    char conversion = *p;
    if (!conversion)
      break;
    ++p;
    if (!buffer)
      fatal("kernel '%s': printf format \"%s\" needs arguments the kernel "
            "did not pass",
            ctx->kernelName, format);
    ++count;
    switch (conversion) {
    case 'd':
    case 'i':
      if (wide)
        appendFormatted(out, spec + "lld", (long long)take<int64_t>(buffer, offset));
      else
        appendFormatted(out, spec + "d", take<int32_t>(buffer, offset));
      break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      if (wide)
        appendFormatted(out, spec + "ll" + conversion,
                        (unsigned long long)take<uint64_t>(buffer, offset));
      else
        appendFormatted(out, spec + conversion, take<uint32_t>(buffer, offset));
      break;
    case 'c':
      appendFormatted(out, spec + "c", take<int32_t>(buffer, offset));
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      appendFormatted(out, spec + conversion, take<double>(buffer, offset));
      break;
    case 's': {
      const char *text = reinterpret_cast<const char *>(
          take<uintptr_t>(buffer, offset));
      appendFormatted(out, spec + "s", text ? text : "(null)");
      break;
    }
    case 'p':
      appendFormatted(out, spec + "p",
                      reinterpret_cast<void *>(take<uintptr_t>(buffer, offset)));
      break;
    default:
      // Not a conversion CUDA's printf knows: printed as written.
      out += spec + length + conversion;
      --count;
      break;
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return count;
}

void gpumem::cpu::cudaAssertFail(GPUMemThreadContext *ctx, const char *message,
                                 const char *file, uint32_t line,
                                 const char *function) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "%s:%u: %s: block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] "
               "Assertion `%s` failed.\n",
               file ? file : "", line, function ? function : "",
               (long long)ctx->blockId[0], (long long)ctx->blockId[1],
               (long long)ctx->blockId[2], (long long)ctx->threadId[0],
               (long long)ctx->threadId[1], (long long)ctx->threadId[2],
               message ? message : "");
  fatal("cuStreamSynchronize failed: CUDA_ERROR_ASSERT: device-side assert "
        "triggered");
}
