//===----------------------------------------------------------------------===//
// The entries of an NVIDIA fatbin, the container the toolkit's fatbinary
// makes (and gpumem-pack-nvidia-fatbin with it): a 16-byte header (u32
// magic 0xBA55ED50, u16 version, u16 header size, u64 size of the entries),
// then entries, each a header and its payload. An entry's header: u16 kind
// (1 PTX, 2 ELF cubin), u16 version, u32 header size, u64 payload size
// (padded to 8 bytes), u32 compressed size at byte 16, u32 sm at byte 28
// (90 for sm_90), u64 flags at byte 40, u64 uncompressed size at byte 56.
// Flags seen from fatbinary: 0x2000 and 0x8000 (zstd; CUDA 13 compresses
// PTX this way by default) for a compressed payload, 0x100000 for an
// architecture-specific image (sm_90a), which only its own chip runs. The
// runtime describes a fatbin the driver rejects; the fake driver of the
// tests picks an entry from it as drivers do.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_RUNTIME_CUDA_FATBIN_H
#define GPUMEM_RUNTIME_CUDA_FATBIN_H

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gpumem::cuda {

struct FatbinEntry {
  enum Kind : unsigned { PTX = 1, Cubin = 2 };
  unsigned kind;
  /// 90 for sm_90 and sm_90a.
  unsigned sm;
  /// sm_90a, not sm_90: only that chip runs it.
  bool archSpecific;
  /// The payload is compressed; `payloadSize` counts the compressed bytes.
  bool compressed;
  const unsigned char *payload;
  uint64_t payloadSize;
};

constexpr uint32_t fatbinMagic = 0xBA55ED50;

/// The entries of the fatbin `data` of `size` bytes; false when it is not
/// one. Entries running past `size` are left out.
inline bool readFatbin(const unsigned char *data, size_t size,
                       std::vector<FatbinEntry> &entries) {
  auto read = [&](size_t offset, size_t bytes) {
    uint64_t value = 0;
    std::memcpy(&value, data + offset, bytes);
    return value;
  };
  entries.clear();
  if (size < 16 || read(0, 4) != fatbinMagic)
    return false;
  uint64_t end = std::min<uint64_t>(size, read(6, 2) + read(8, 8));
  for (uint64_t offset = read(6, 2); offset + 64 <= end;) {
    uint64_t header = read(offset + 4, 4), padded = read(offset + 8, 8);
    uint64_t flags = read(offset + 40, 8);
    if (header < 64 || header > end - offset || padded > end - offset - header)
      break;
    bool compressed = flags & 0xA000;
    entries.push_back(
        {unsigned(read(offset, 2)), unsigned(read(offset + 28, 4)),
         (flags & 0x100000) != 0, compressed, data + offset + header,
         compressed ? std::min(padded, read(offset + 16, 4)) : padded});
    offset += header + padded;
  }
  return true;
}

/// "sm_80 cubin, sm_90 cubin, sm_90 PTX".
inline std::string describeFatbin(const std::vector<FatbinEntry> &entries) {
  std::string text;
  for (const FatbinEntry &entry : entries)
    text += (text.empty() ? "sm_" : ", sm_") + std::to_string(entry.sm) +
            (entry.archSpecific ? "a" : "") +
            (entry.kind == FatbinEntry::PTX     ? " PTX"
             : entry.kind == FatbinEntry::Cubin ? " cubin"
                                                : " image");
  return text;
}

} // namespace gpumem::cuda

#endif // GPUMEM_RUNTIME_CUDA_FATBIN_H
