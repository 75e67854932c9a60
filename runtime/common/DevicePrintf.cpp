//===----------------------------------------------------------------------===//
// Device printf formatting (DevicePrintf.h). The format is walked once;
// each conversion's flags, width, precision and length are collected into
// a one-conversion format for snprintf, which gets the argument read from
// the buffer with the type the conversion and its length say.
//===----------------------------------------------------------------------===//

#include "DevicePrintf.h"

#include <cstdio>
#include <cstring>

namespace {

/// Reads the next argument from the buffer of `size` bytes at `offset`;
/// false when it does not fit.
template <typename T>
bool take(const char *buffer, size_t size, size_t &offset, T &value) {
  offset = (offset + sizeof(T) - 1) / sizeof(T) * sizeof(T);
  if (!buffer || offset > size || size - offset < sizeof(T))
    return false;
  std::memcpy(&value, buffer + offset, sizeof(T));
  offset += sizeof(T);
  return true;
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

int32_t gpumem::runtime::formatDevicePrintf(const char *format,
                                            const void *arguments, size_t size,
                                            bool hostStrings,
                                            std::string &out) {
  const char *buffer = static_cast<const char *>(arguments);
  size_t offset = 0;
  int32_t count = 0;
  // Reads the next argument as T into `value`; false past the buffer.
  auto next = [&](auto &value) {
    if (!take(buffer, size, offset, value))
      return false;
    ++count;
    return true;
  };
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
        int32_t value;
        if (!next(value))
          return false;
        spec += std::to_string(value);
        ++p;
        return true;
      }
      while (*p >= '0' && *p <= '9')
        spec.push_back(*p++);
      return true;
    };
    if (!number())
      return -1;
    if (*p == '.') {
      spec.push_back(*p++);
      if (!number())
        return -1;
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
    switch (conversion) {
    case 'd':
    case 'i':
    case 'c': {
      if (wide && conversion != 'c') {
        int64_t value;
        if (!next(value))
          return -1;
        appendFormatted(out, spec + "lld", (long long)value);
      } else {
        int32_t value;
        if (!next(value))
          return -1;
        appendFormatted(out, spec + (conversion == 'c' ? "c" : "d"), value);
      }
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      if (wide) {
        uint64_t value;
        if (!next(value))
          return -1;
        appendFormatted(out, spec + "ll" + conversion,
                        (unsigned long long)value);
      } else {
        uint32_t value;
        if (!next(value))
          return -1;
        appendFormatted(out, spec + conversion, value);
      }
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      double value;
      if (!next(value))
        return -1;
      appendFormatted(out, spec + conversion, value);
      break;
    }
    case 's': {
      uintptr_t value;
      if (!next(value))
        return -1;
      const char *text = reinterpret_cast<const char *>(value);
      if (!hostStrings)
        text = "(a string the device cannot pass)";
      appendFormatted(out, spec + "s", text ? text : "(null)");
      break;
    }
    case 'p': {
      uintptr_t value;
      if (!next(value))
        return -1;
      appendFormatted(out, spec + "p", reinterpret_cast<void *>(value));
      break;
    }
    default:
      // Not a conversion CUDA's printf knows: printed as written.
      out += spec + length + conversion;
      break;
    }
  }
  return count;
}
