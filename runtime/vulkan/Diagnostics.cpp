//===----------------------------------------------------------------------===//
// Diagnostics buffers (Diagnostics.h). Each is 1 MiB from mgpuMemAlloc
// (host-visible, so the host reads the kernel's words directly), kept on a
// free list once reported. A report walks the records from the first
// record word up to min(cursor, capacity): a site number, then the
// argument words its site's kinds say; each record's arguments become a
// buffer in CUDA's vprintf layout for the shared formatter
// (DevicePrintf.h), and all lines of the launch go out with one write.
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"
#include "DeviceAssert.h"
#include "DevicePrintf.h"
#include "LaunchLocation.h"
#include "Memory.h"
#include "Module.h"
#include "VulkanRuntime.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

using namespace gpumem::vulkan;

namespace {

/// Bytes of each buffer: CUDA's default printf FIFO size.
constexpr uint64_t kBufferBytes = 1 << 20;

struct FreeList {
  std::mutex mutex;
  std::vector<uint32_t *> buffers;
};
FreeList &freeList() {
  static FreeList *list = new FreeList;
  return *list;
}

/// Appends `value` to `buffer` at its natural alignment.
template <typename T> void put(std::vector<char> &buffer, T value) {
  buffer.resize((buffer.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T));
  const char *bytes = reinterpret_cast<const char *>(&value);
  buffer.insert(buffer.end(), bytes, bytes + sizeof(T));
}

/// Formats the record at `words[at]` (its site number read already) and
/// returns the words it took, or 0 when it does not fit before `end`.
uint32_t formatRecord(const Kernel &kernel, const Site &site,
                      const uint32_t *words, uint32_t at, uint32_t end,
                      std::string &out) {
  std::vector<char> arguments;
  uint32_t next = at;
  for (uint32_t kind : site.argKinds) {
    bool wide =
        kind == GPUMEM_VULKAN_ARG_INT64 || kind == GPUMEM_VULKAN_ARG_FLOAT64;
    if (next + (wide ? 2 : 1) > end)
      return 0;
    uint32_t low = words[next++];
    uint64_t bits = wide ? (uint64_t(words[next++]) << 32) | low : low;
    switch (kind) {
    case GPUMEM_VULKAN_ARG_INT32:
      put(arguments, int32_t(low));
      break;
    case GPUMEM_VULKAN_ARG_INT32_AS_INT64:
      put(arguments, int64_t(int32_t(low)));
      break;
    case GPUMEM_VULKAN_ARG_INT64:
      put(arguments, int64_t(bits));
      break;
    case GPUMEM_VULKAN_ARG_FLOAT32: {
      float value;
      std::memcpy(&value, &low, sizeof(value));
      put(arguments, double(value));
      break;
    }
    default: {
      double value;
      std::memcpy(&value, &bits, sizeof(value));
      put(arguments, value);
      break;
    }
    }
  }
  if (gpumem::runtime::formatDevicePrintf(site.text.c_str(), arguments.data(),
                                          arguments.size(),
                                          /*hostStrings=*/false, out) < 0)
    fatal("kernel '%s': printf format \"%s\" at %s needs more arguments than "
          "it has",
          kernel.record.name.c_str(), site.text.c_str(), site.location.c_str());
  return next - at;
}

} // namespace

std::unique_ptr<Diagnostics>
gpumem::vulkan::takeDiagnostics(const Kernel &kernel, const char *launch) {
  uint32_t *words = nullptr;
  {
    FreeList &list = freeList();
    std::lock_guard<std::mutex> lock(list.mutex);
    if (!list.buffers.empty()) {
      words = list.buffers.back();
      list.buffers.pop_back();
    }
  }
  if (!words)
    words = static_cast<uint32_t *>(
        mgpuMemAlloc(kBufferBytes, nullptr, /*isHostShared=*/true));
  BufferAt at;
  if (!findBuffer(words, at))
    fatal("the diagnostics buffer of kernel '%s' has no Vulkan buffer",
          kernel.record.name.c_str());
  std::memset(words, 0, GPUMEM_VULKAN_DIAG_RECORDS * sizeof(uint32_t));
  words[GPUMEM_VULKAN_DIAG_CAPACITY] =
      uint32_t(kBufferBytes / sizeof(uint32_t)) - GPUMEM_VULKAN_DIAG_RECORDS;
  return std::unique_ptr<Diagnostics>(
      new Diagnostics{words, {at.buffer, 0, VK_WHOLE_SIZE}, &kernel, launch});
}

void gpumem::vulkan::reportDiagnostics(
    std::unique_ptr<Diagnostics> diagnostics) {
  const Kernel &kernel = *diagnostics->kernel;
  const char *name = kernel.record.name.c_str();
  const std::vector<Site> &sites = kernel.module->sites;
  const uint32_t *words = diagnostics->words;
  uint32_t capacity = words[GPUMEM_VULKAN_DIAG_CAPACITY];
  uint32_t used = std::min(words[GPUMEM_VULKAN_DIAG_CURSOR], capacity);
  const uint32_t *records = words + GPUMEM_VULKAN_DIAG_RECORDS;
  std::string out;
  for (uint32_t at = 0; at < used;) {
    uint32_t number = records[at];
    if (number >= sites.size() ||
        sites[number].kind != GPUMEM_VULKAN_SITE_PRINTF)
      fatal("kernel '%s': its printf buffer holds an unknown site %u at word "
            "%u",
            name, number, at);
    uint32_t taken =
        formatRecord(kernel, sites[number], records, at + 1, used, out);
    if (!taken && !sites[number].argKinds.empty())
      fatal("kernel '%s': its printf buffer ends inside a record of site %u",
            name, number);
    at += 1 + taken;
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (uint32_t dropped = words[GPUMEM_VULKAN_DIAG_DROPPED]) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "gpumem: warning: kernel '%s': %u printf records did not fit "
                 "its %llu-byte printf buffer and were dropped\n",
                 name, dropped, (unsigned long long)kBufferBytes);
  }
  if (uint32_t failed = words[GPUMEM_VULKAN_DIAG_ASSERT]) {
    const uint32_t *block = words + GPUMEM_VULKAN_DIAG_ASSERT_BLOCK;
    const uint32_t *thread = words + GPUMEM_VULKAN_DIAG_ASSERT_THREAD;
    if (failed > sites.size() ||
        sites[failed - 1].kind != GPUMEM_VULKAN_SITE_ASSERT)
      fatal("kernel '%s': an assertion failed at an unknown site %u", name,
            failed - 1);
    // CUDA's line for the first thread that failed (the kernel records no
    // other), then the launch fails as on the cpu target.
    const Site &site = sites[failed - 1];
    int64_t blockId[3] = {block[0], block[1], block[2]};
    int64_t threadId[3] = {thread[0], thread[1], thread[2]};
    gpumem::runtime::printAssertFailure(site.location.c_str(), blockId,
                                        threadId, site.text.c_str());
    gpumemLaunchLocation(diagnostics->launch);
    gpumem::runtime::failAfterAssertions(name);
  }
  FreeList &list = freeList();
  std::lock_guard<std::mutex> lock(list.mutex);
  list.buffers.push_back(diagnostics->words);
}
