//===----------------------------------------------------------------------===//
// parseImage: one pass over the image with a bounds-checked reader (every
// read first checks that its bytes lie inside the image, in 64-bit
// arithmetic, so no count in a malformed image can overflow or read past
// it), then a pass over the SPIR-V instructions up to the first function
// to collect the GLCompute entry point names, then the per-kernel checks of
// the parameter records against the push constant block (a byte map of
// which bytes are taken) and the bindings, then the site table, if any.
//===----------------------------------------------------------------------===//

#include "Image.h"
#include "Fatal.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <elf.h>
#include <set>
#include <string>

using gpumem::runtime::fatal;

namespace gpumem::vulkan {

namespace {

constexpr uint32_t spirvMagic = 0x07230203;
constexpr uint32_t opEntryPoint = 15, opFunction = 54;
constexpr uint32_t executionModelGLCompute = 5;
/// Bigger push constant blocks than any device allows are not read.
constexpr uint32_t maxPushConstantBytes = 1u << 16;

[[noreturn]] __attribute__((format(printf, 2, 3))) void
malformed(size_t size, const char *format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  fatal("mgpuModuleLoad: malformed Vulkan kernel image (%zu bytes): %s", size,
        text);
}

/// Reads the image front to back.
struct Reader {
  const unsigned char *data;
  size_t size;
  size_t offset = 0;

  bool has(uint64_t bytes) const { return bytes <= size - offset; }
  void read(void *out, uint64_t bytes, const char *what) {
    if (!has(bytes))
      malformed(size, "%s at byte %zu needs %llu bytes, %zu are left", what,
                offset, (unsigned long long)bytes, size - offset);
    if (bytes) // `out` may be null when there is nothing to read
      std::memcpy(out, data + offset, bytes);
    offset += bytes;
  }
};

/// The names of the SPIR-V module's GLCompute entry points.
std::set<std::string> entryPoints(const std::vector<uint32_t> &spirv,
                                  size_t size) {
  std::set<std::string> names;
  if (spirv.size() < 5 || spirv[0] != spirvMagic)
    malformed(size,
              "the SPIR-V module has no SPIR-V header (word 0 is 0x%08x, "
              "not 0x%08x)",
              spirv.empty() ? 0u : spirv[0], spirvMagic);
  for (size_t at = 5; at < spirv.size();) {
    uint32_t words = spirv[at] >> 16, opcode = spirv[at] & 0xffff;
    if (words == 0 || words > spirv.size() - at)
      malformed(size, "SPIR-V instruction at word %zu has a bad length %u", at,
                words);
    if (opcode == opFunction)
      break;
    if (opcode == opEntryPoint && words >= 4 &&
        spirv[at + 1] == executionModelGLCompute) {
      const char *name = reinterpret_cast<const char *>(&spirv[at + 3]);
      size_t bytes = (words - 3) * 4;
      size_t length = strnlen(name, bytes);
      if (length == bytes)
        malformed(size,
                  "SPIR-V OpEntryPoint at word %zu has an unterminated "
                  "name",
                  at);
      names.insert(std::string(name, length));
    }
    at += words;
  }
  return names;
}

void checkParams(const KernelRecord &kernel, size_t size) {
  const GPUMemVulkanKernel &header = kernel.header;
  const char *name = kernel.name.c_str();
  if (header.pushConstantBytes < GPUMEM_VULKAN_PUSH_PARAMS ||
      header.pushConstantBytes % 4 ||
      header.pushConstantBytes > maxPushConstantBytes)
    malformed(size,
              "kernel '%s' has %u bytes of push constants: the block size "
              "and the dynamic shared bytes need %u, and the size must be a "
              "multiple of 4 up to %u",
              name, header.pushConstantBytes, GPUMEM_VULKAN_PUSH_PARAMS,
              maxPushConstantBytes);
  if (header.flags &
      ~uint32_t(GPUMEM_VULKAN_DYNAMIC_SHARED | GPUMEM_VULKAN_DIAGNOSTICS |
                GPUMEM_VULKAN_SUBGROUP_SIZE_MASK))
    malformed(size, "kernel '%s' has unknown flags 0x%x", name, header.flags);
  std::vector<bool> taken(header.pushConstantBytes, false);
  std::fill(taken.begin(), taken.begin() + GPUMEM_VULKAN_PUSH_PARAMS, true);
  std::vector<int> buffers(header.bindingCount, -1),
      offsets(header.bindingCount, -1);
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const GPUMemVulkanParam &param = kernel.params[i];
    uint32_t pushBytes = 0;
    switch (param.kind) {
    case GPUMEM_VULKAN_PARAM_IGNORED:
      continue;
    case GPUMEM_VULKAN_PARAM_BUFFER:
      if (param.binding >= header.bindingCount || buffers[param.binding] >= 0)
        malformed(size,
                  "kernel '%s' parameter %zu: buffer binding %u is out "
                  "of range (%u bindings) or taken by another parameter",
                  name, i, param.binding, header.bindingCount);
      if (param.elementBytes == 0)
        malformed(size, "kernel '%s' parameter %zu: zero-byte elements", name,
                  i);
      buffers[param.binding] = int(i);
      continue;
    case GPUMEM_VULKAN_PARAM_BUFFER_OFFSET:
      if (param.binding >= header.bindingCount || buffers[param.binding] < 0 ||
          offsets[param.binding] >= 0)
        malformed(size,
                  "kernel '%s' parameter %zu: the offset of binding %u "
                  "must follow that binding's buffer parameter, once",
                  name, i, param.binding);
      offsets[param.binding] = int(i);
      pushBytes = 4;
      break;
    case GPUMEM_VULKAN_PARAM_INDEX:
      pushBytes = 4;
      break;
    case GPUMEM_VULKAN_PARAM_SCALAR:
      if (param.hostBytes == 0 || param.hostBytes > param.pushBytes ||
          param.pushBytes % 4)
        malformed(size,
                  "kernel '%s' parameter %zu: a scalar of %u host bytes "
                  "cannot take %u push constant bytes",
                  name, i, param.hostBytes, param.pushBytes);
      pushBytes = param.pushBytes;
      break;
    default:
      malformed(size, "kernel '%s' parameter %zu has unknown kind %u", name, i,
                param.kind);
    }
    if (param.pushOffset % 4 ||
        uint64_t(param.pushOffset) + pushBytes > header.pushConstantBytes)
      malformed(size,
                "kernel '%s' parameter %zu: %u bytes at push constant "
                "offset %u do not fit the kernel's %u bytes, 4-byte aligned",
                name, i, pushBytes, param.pushOffset, header.pushConstantBytes);
    for (uint32_t b = param.pushOffset; b < param.pushOffset + pushBytes; ++b) {
      if (taken[b])
        malformed(size,
                  "kernel '%s' parameter %zu: push constant byte %u is "
                  "already taken",
                  name, i, b);
      taken[b] = true;
    }
  }
  for (uint32_t b = 0; b < header.bindingCount; ++b)
    if (buffers[b] < 0)
      malformed(size, "kernel '%s': no parameter is the buffer of binding %u",
                name, b);
}

/// Reads a string of `bytes` bytes, zero-padded to 4; `what` names it.
std::string readText(Reader &reader, uint32_t bytes, const char *what,
                     uint32_t site) {
  uint64_t padded = (uint64_t(bytes) + 3) & ~uint64_t(3);
  if (!reader.has(padded))
    malformed(reader.size, "site %u's %s of %u bytes does not fit", site, what,
              bytes);
  std::string text(reinterpret_cast<const char *>(reader.data + reader.offset),
                   bytes);
  if (text.find('\0') != std::string::npos)
    malformed(reader.size, "site %u's %s has a NUL byte", site, what);
  reader.offset += padded;
  return text;
}

/// The site table after the kernel records.
std::vector<Site> readSites(Reader &reader) {
  uint32_t count;
  reader.read(&count, sizeof(count), "the site count");
  if (count > (reader.size - reader.offset) / sizeof(GPUMemVulkanSite))
    malformed(reader.size, "%u sites do not fit", count);
  std::vector<Site> sites(count);
  for (uint32_t i = 0; i < count; ++i) {
    GPUMemVulkanSite header;
    reader.read(&header, sizeof(header), "a site");
    Site &site = sites[i];
    site.kind = header.kind;
    if (header.kind != GPUMEM_VULKAN_SITE_PRINTF &&
        header.kind != GPUMEM_VULKAN_SITE_ASSERT)
      malformed(reader.size, "site %u has unknown kind %u", i, header.kind);
    if (header.kind == GPUMEM_VULKAN_SITE_ASSERT && header.argCount)
      malformed(reader.size, "assert site %u has %u arguments", i,
                header.argCount);
    if (!reader.has(uint64_t(header.argCount) * 4))
      malformed(reader.size, "site %u's %u argument kinds do not fit", i,
                header.argCount);
    site.argKinds.resize(header.argCount);
    reader.read(site.argKinds.data(), uint64_t(header.argCount) * 4,
                "argument kinds");
    for (uint32_t kind : site.argKinds)
      if (kind < GPUMEM_VULKAN_ARG_INT32 || kind > GPUMEM_VULKAN_ARG_FLOAT64)
        malformed(reader.size, "site %u has an argument of unknown kind %u", i,
                  kind);
    site.text = readText(reader, header.textBytes, "text", i);
    site.location = readText(reader, header.locationBytes, "location", i);
  }
  return sites;
}

} // namespace

Image parseImage(const void *data, size_t size) {
  if (!data)
    fatal("mgpuModuleLoad: null module data");
  Reader reader{static_cast<const unsigned char *>(data), size};
  GPUMemVulkanImage header;
  if (size >= 4 && std::memcmp(data, ELFMAG, SELFMAG) == 0)
    fatal("mgpuModuleLoad: the module is an ELF object, not a gpumem Vulkan "
          "kernel image; it is a gpu.module compiled for gpumem's cpu or cuda "
          "target: run it with libgpumem_cpu_runtime.so or "
          "libgpumem_cuda_runtime.so");
  reader.read(&header, sizeof(header), "the image header");
  if (header.magic != GPUMEM_VULKAN_IMAGE_MAGIC)
    fatal("mgpuModuleLoad: not a gpumem Vulkan kernel image (magic 0x%08x, "
          "expected 0x%08x \"GMVK\"); was the gpu.module compiled for the "
          "vulkan target?",
          header.magic, GPUMEM_VULKAN_IMAGE_MAGIC);
  if (header.version != GPUMEM_VULKAN_ABI_VERSION)
    fatal("mgpuModuleLoad: the Vulkan kernel image has ABI version %u; this "
          "runtime reads version %d",
          header.version, GPUMEM_VULKAN_ABI_VERSION);
  Image image;
  uint64_t spirvBytes = uint64_t(header.spirvWords) * 4;
  if (!reader.has(spirvBytes))
    malformed(size, "%u SPIR-V words do not fit", header.spirvWords);
  image.spirv.resize(header.spirvWords);
  reader.read(image.spirv.data(), spirvBytes, "the SPIR-V module");
  std::set<std::string> entries = entryPoints(image.spirv, size);
  std::set<std::string> names;
  // Each record takes at least its header: a bound before reserving.
  if (header.kernelCount > (size - reader.offset) / sizeof(GPUMemVulkanKernel))
    malformed(size, "%u kernel records do not fit", header.kernelCount);
  image.kernels.resize(header.kernelCount);
  for (uint32_t k = 0; k < header.kernelCount; ++k) {
    KernelRecord &kernel = image.kernels[k];
    reader.read(&kernel.header, sizeof(kernel.header), "a kernel record");
    uint32_t nameBytes = kernel.header.nameBytes;
    uint64_t padded = (uint64_t(nameBytes) + 3) & ~uint64_t(3);
    if (nameBytes == 0 || !reader.has(padded))
      malformed(size,
                "kernel %u has a name of %u bytes, which must be at "
                "least 1 and fit the image",
                k, nameBytes);
    const char *name =
        reinterpret_cast<const char *>(reader.data + reader.offset);
    if (strnlen(name, nameBytes) != nameBytes)
      malformed(size, "kernel %u's name has a NUL byte", k);
    kernel.name.assign(name, nameBytes);
    reader.offset += padded;
    if (!names.insert(kernel.name).second)
      malformed(size, "two kernels are named '%s'", kernel.name.c_str());
    if (!entries.count(kernel.name))
      malformed(size,
                "kernel '%s' is not a GLCompute entry point of the "
                "SPIR-V module",
                kernel.name.c_str());
    uint64_t paramBytes =
        uint64_t(kernel.header.paramCount) * sizeof(GPUMemVulkanParam);
    if (!reader.has(paramBytes))
      malformed(size, "kernel '%s' has %u parameter records, which do not fit",
                kernel.name.c_str(), kernel.header.paramCount);
    kernel.params.resize(kernel.header.paramCount);
    reader.read(kernel.params.data(), paramBytes, "parameter records");
    checkParams(kernel, size);
  }
  if (reader.offset != size)
    image.sites = readSites(reader);
  if (reader.offset != size)
    malformed(size, "%zu bytes follow the site table", size - reader.offset);
  return image;
}

} // namespace gpumem::vulkan
