//===----------------------------------------------------------------------===//
// Clang offload bundles: the "fat binary" of AMD code objects, one per chip,
// that HIP's hipModuleLoadData takes. Written by the rocm target
// (gpumem-pack-amdgpu-bundle) and read by the rocm runtime, which loads the
// entry of its device's chip; header-only and free of LLVM so both can use
// it.
//
// Layout (uncompressed, little-endian, as clang-offload-bundler writes it):
//   "__CLANG_OFFLOAD_BUNDLE__"               24 bytes
//   uint64 entries
//   per entry: uint64 offset, uint64 size, uint64 id length, id bytes
//   each entry's bytes at its offset (4096-byte aligned for code objects)
// An entry's id is <kind>-<triple>-<target id>: "hipv4-amdgcn-amd-amdhsa--
// gfx90a" for an AMD code object (the triple's environment is empty),
// "host-x86_64-unknown-linux-gnu-" for the (empty) host entry. A target id
// is a chip with optional features, "gfx90a:xnack+".
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_OFFLOADBUNDLE_H
#define GPUMEM_RUNTIME_OFFLOADBUNDLE_H

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::bundle {

inline constexpr std::string_view kMagic = "__CLANG_OFFLOAD_BUNDLE__";
inline constexpr std::string_view kAMDGPUPrefix = "hipv4-amdgcn-amd-amdhsa--";
inline constexpr std::string_view kHostId = "host-x86_64-unknown-linux-gnu-";
inline constexpr uint64_t kAlignment = 4096;

/// One entry of a bundle.
struct Entry {
  std::string_view id;
  std::string_view bytes;
};

/// Whether `data` starts like a bundle.
inline bool isBundle(const void *data, size_t size) {
  return data && size >= kMagic.size() &&
         std::memcmp(data, kMagic.data(), kMagic.size()) == 0;
}

/// The bundle of `entries`, in their order.
inline std::string write(const std::vector<Entry> &entries) {
  auto put = [](std::string &out, uint64_t value) {
    for (int byte = 0; byte < 8; ++byte)
      out.push_back(char((value >> (8 * byte)) & 0xff));
  };
  uint64_t headerSize = kMagic.size() + 8;
  for (const Entry &entry : entries)
    headerSize += 24 + entry.id.size();
  std::vector<uint64_t> offsets;
  uint64_t end = headerSize;
  for (const Entry &entry : entries) {
    end = (end + kAlignment - 1) / kAlignment * kAlignment;
    offsets.push_back(end);
    end += entry.bytes.size();
  }
  std::string out(kMagic);
  put(out, entries.size());
  for (size_t index = 0; index < entries.size(); ++index) {
    put(out, offsets[index]);
    put(out, entries[index].bytes.size());
    put(out, entries[index].id.size());
    out += entries[index].id;
  }
  for (size_t index = 0; index < entries.size(); ++index)
    if (!entries[index].bytes.empty()) {
      out.resize(offsets[index], '\0');
      out += entries[index].bytes;
    }
  return out;
}

/// The entries of the bundle `data` of `size` bytes, or an empty list with
/// `error` saying what is wrong.
inline std::vector<Entry> read(const void *data, size_t size,
                               std::string &error) {
  const char *bytes = static_cast<const char *>(data);
  size_t at = kMagic.size();
  auto get = [&](uint64_t &value) {
    if (size - at < 8)
      return false;
    value = 0;
    for (int byte = 0; byte < 8; ++byte)
      value |= uint64_t(uint8_t(bytes[at + byte])) << (8 * byte);
    at += 8;
    return true;
  };
  std::vector<Entry> entries;
  uint64_t count = 0;
  if (!isBundle(data, size) || !get(count)) {
    error = "not an offload bundle";
    return {};
  }
  for (uint64_t index = 0; index < count; ++index) {
    uint64_t offset, length, idLength;
    if (!get(offset) || !get(length) || !get(idLength) ||
        idLength > size - at ||
        (length && (offset > size || length > size - offset))) {
      entries.clear();
      error = "offload bundle entry " + std::to_string(index) +
              " lies outside its " + std::to_string(size) + " bytes";
      return {};
    }
    entries.push_back({std::string_view(bytes + at, idLength),
                       length ? std::string_view(bytes + offset, length)
                              : std::string_view()});
    at += idLength;
  }
  return entries;
}

/// The target id of an AMD code object entry ("gfx90a:xnack+"), or empty
/// for any other entry.
inline std::string_view amdgpuTargetId(std::string_view id) {
  for (std::string_view prefix :
       {kAMDGPUPrefix, std::string_view("hip-amdgcn-amd-amdhsa--")})
    if (id.substr(0, prefix.size()) == prefix)
      return id.substr(prefix.size());
  return {};
}

/// Whether code for target id `code` ("gfx90a", "gfx90a:xnack-") runs on a
/// device whose gcnArchName is `device` ("gfx90a:sramecc+:xnack-"): the
/// same chip, and every feature the code names set the same way on the
/// device (a feature the code leaves out runs either way).
inline bool runsOn(std::string_view code, std::string_view device) {
  auto chipOf = [](std::string_view id) { return id.substr(0, id.find(':')); };
  if (chipOf(code) != chipOf(device))
    return false;
  size_t at = code.find(':');
  while (at != std::string_view::npos) {
    size_t next = code.find(':', at + 1);
    std::string_view feature = code.substr(at + 1, next - at - 1);
    std::string_view name = feature.substr(0, feature.size() - 1);
    // The device's setting of the same feature, when it states one.
    size_t found = device.find(std::string(":") + std::string(name));
    if (found != std::string_view::npos) {
      std::string_view setting =
          device.substr(found + 1, device.find(':', found + 1) - found - 1);
      if (setting != feature)
        return false;
    }
    at = next;
  }
  return true;
}

} // namespace gpumem::bundle

#endif // GPUMEM_RUNTIME_OFFLOADBUNDLE_H
