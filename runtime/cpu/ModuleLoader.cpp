//===----------------------------------------------------------------------===//
// mgpuModuleLoad and friends: a CPU gpu.module arrives as the bytes of a host
// ELF shared object. They are written to an anonymous file (memfd_create;
// an unlinked temporary file where memfd or /proc is missing) and dlopen'ed
// RTLD_NOW | RTLD_LOCAL through /proc/self/fd/N, so nothing is left on disk
// and no two modules share symbols. The dynamic loader returns an object it
// already has when the name matches, and fd numbers are reused, so a name
// the loader knows (RTLD_NOLOAD) is replaced by a higher fd first: loading
// the same bytes twice gives two independent copies. The object's
// GPUMEM_CPU_MODULE_SYMBOL lists its kernels; a function handle is a `const
// GPUMemCPUKernel *` into that table. A module handle owns the dlopen handle
// and nothing global, so unloading from global destructors at exit is safe in
// any order.
//===----------------------------------------------------------------------===//

#include "CPURuntime.h"
#include "DeviceMemoryShadow.h"
#include "Support.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace gpumem::cpu;

namespace {

/// What mgpuModuleLoad returns.
struct LoadedModule {
  void *library;
  const GPUMemCPUModule *module;
};

#if defined(__x86_64__)
constexpr int hostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr int hostMachine = EM_AARCH64;
#else
constexpr int hostMachine = -1; // not checked
#endif

/// Rejects data that cannot be a shared object for this host with a message
/// better than dlopen's.
void checkELFHeader(const unsigned char *data, size_t size) {
  if (size < sizeof(Elf64_Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0)
    fatal("mgpuModuleLoad: the module (%zu bytes) is not an ELF shared "
          "object; the cpu runtime loads gpu.modules compiled for gpumem's "
          "cpu target",
          size);
  Elf64_Half machine;
  std::memcpy(&machine, data + offsetof(Elf64_Ehdr, e_machine),
              sizeof(machine));
  if (hostMachine >= 0 && data[EI_CLASS] == ELFCLASS64 &&
      machine != hostMachine)
    fatal("mgpuModuleLoad: the module is an ELF object for machine %u, not "
          "for this host (%d)%s",
          unsigned(machine), hostMachine,
          machine == EM_CUDA ? "; it is a cubin: run it with "
                               "libgpumem_cuda_runtime.so"
                             : "");
}

bool writeAll(int fd, const unsigned char *data, size_t size) {
  while (size > 0) {
    ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    data += written;
    size -= size_t(written);
  }
  return true;
}

/// An anonymous file holding the module, and a path that opens it.
struct ModuleFile {
  int fd;
  std::string path;
  bool temporary; ///< a real file, to unlink
};

/// A memfd seen through /proc/self/fd, or an unlinked-later temporary file
/// where memfd or /proc is missing.
ModuleFile createModuleFile() {
  int fd = memfd_create("gpumem-cpu-module", MFD_CLOEXEC);
  if (fd >= 0) {
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (::access(path.c_str(), R_OK) == 0)
      return {fd, path, false};
    ::close(fd);
  }
  const char *dir = std::getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  std::string path = std::string(dir) + "/gpumem-cpu-module-XXXXXX";
  fd = mkostemp(&path[0], O_CLOEXEC);
  if (fd < 0)
    fatal("mgpuModuleLoad: cannot create a temporary file in '%s': %s", dir,
          std::strerror(errno));
  return {fd, path, true};
}

/// Whether the dynamic loader already knows an object by `path`'s name:
/// dlopen would then return that object instead of loading ours. File
/// descriptor numbers and temporary names are reused once closed, and an
/// object may stay loaded after dlclose.
bool nameTaken(const std::string &path) {
  void *existing = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!existing)
    return false;
  dlclose(existing);
  return true;
}

/// dlopen's the shared object in `data`; exits with dlerror's text when the
/// dynamic loader rejects it.
void *openFromMemory(const unsigned char *data, size_t size) {
  ModuleFile file = createModuleFile();
  for (int attempt = 0; nameTaken(file.path); ++attempt) {
    if (attempt == 64)
      fatal("mgpuModuleLoad: cannot find a file name the dynamic loader does "
            "not already know (last tried '%s')",
            file.path.c_str());
    if (file.temporary) {
      ::unlink(file.path.c_str());
      ::close(file.fd);
      file = createModuleFile();
      continue;
    }
    int higher = ::fcntl(file.fd, F_DUPFD_CLOEXEC, file.fd + 1);
    if (higher < 0)
      fatal("mgpuModuleLoad: cannot duplicate a file descriptor: %s",
            std::strerror(errno));
    ::close(file.fd);
    file.fd = higher;
    file.path = "/proc/self/fd/" + std::to_string(higher);
  }
  if (!writeAll(file.fd, data, size))
    fatal("mgpuModuleLoad: cannot write the module (%zu bytes) to '%s': %s",
          size, file.path.c_str(), std::strerror(errno));
  dlerror();
  void *library = dlopen(file.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  std::string error = library ? "" : dlerror();
  if (file.temporary)
    ::unlink(file.path.c_str());
  ::close(file.fd);
  if (!library)
    fatal("mgpuModuleLoad: cannot load the module (%zu bytes): %s", size,
          error.c_str());
  return library;
}

/// The kernels of `module`, for messages.
std::string kernelList(const GPUMemCPUModule *module) {
  if (module->numKernels == 0)
    return "it has no kernels";
  std::string list = "its kernels: ";
  for (int32_t i = 0; i < module->numKernels; ++i) {
    if (i)
      list += ", ";
    list += nameOf(&module->kernels[i]);
  }
  return list;
}

} // namespace

extern "C" void *mgpuModuleLoad(void *data, size_t size) {
  if (!data)
    fatal("mgpuModuleLoad: null module data");
  auto *bytes = static_cast<const unsigned char *>(data);
  checkELFHeader(bytes, size);
  void *library = openFromMemory(bytes, size);
  auto *module = static_cast<const GPUMemCPUModule *>(
      dlsym(library, GPUMEM_CPU_MODULE_SYMBOL));
  if (!module)
    fatal("mgpuModuleLoad: the shared object exports no '%s': it is not a "
          "gpu.module compiled for gpumem's cpu target",
          GPUMEM_CPU_MODULE_SYMBOL);
  if (module->abiVersion != GPUMEM_CPU_ABI_VERSION)
    fatal("mgpuModuleLoad: the module was compiled for cpu kernel abi version "
          "%d; this runtime implements version %d",
          module->abiVersion, GPUMEM_CPU_ABI_VERSION);
  if (module->numKernels < 0 || (module->numKernels > 0 && !module->kernels))
    fatal("mgpuModuleLoad: the module's kernel table is malformed (%d "
          "kernels at %p)",
          module->numKernels, static_cast<const void *>(module->kernels));
  for (int32_t i = 0; i < module->numKernels; ++i) {
    if (module->kernels[i].checks &
        (GPUMEM_CHECK_INITCHECK | GPUMEM_CHECK_RACECHECK))
      enableDeviceMemoryShadows();
    // (The device's log names the allocation a memref views, too.)
    if ((module->kernels[i].checks & GPUMEM_CHECK_MEMCHECK) ||
        module->kernels[i].deviceSanitizerLog)
      enableDeviceMemoryMappings();
  }
  return new LoadedModule{library, module};
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  fatal("the cpu runtime cannot JIT-load PTX (mgpuModuleLoadJIT): compile "
        "the gpu.module for gpumem's cpu target, or run PTX with "
        "libgpumem_cuda_runtime.so");
}

extern "C" void mgpuModuleUnload(void *module) {
  auto *loaded = static_cast<LoadedModule *>(module);
  if (!loaded)
    return;
  dlclose(loaded->library);
  delete loaded;
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  auto *loaded = static_cast<LoadedModule *>(module);
  if (!loaded)
    fatal("mgpuModuleGetFunction: null module (looking for kernel '%s')",
          name ? name : "");
  if (!name)
    fatal("mgpuModuleGetFunction: null kernel name");
  const GPUMemCPUModule *table = loaded->module;
  for (int32_t i = 0; i < table->numKernels; ++i) {
    const GPUMemCPUKernel &kernel = table->kernels[i];
    if (!kernel.name || std::strcmp(kernel.name, name) != 0)
      continue;
    bool runnable = kernel.runThread ||
                    (kernel.runBlocks && !kernel.needsFibers) ||
                    (kernel.startCoroutine && kernel.resumeCoroutine);
    if (!runnable)
      fatal("kernel '%s': the module gives no entry point to run it (runThread "
            "is null%s)",
            name,
            kernel.runBlocks ? " and needsFibers is set" : ", runBlocks too");
    if (kernel.staticSharedBytes < 0 || kernel.numParams < 0)
      fatal("kernel '%s': malformed kernel record (staticSharedBytes %lld, "
            "numParams %d)",
            name, (long long)kernel.staticSharedBytes, kernel.numParams);
    if (kernel.warpSize != 0 && kernel.warpSize != GPUMEM_WARP_SIZE &&
        kernel.warpSize != GPUMEM_MAX_WARP_SIZE)
      fatal("kernel '%s': malformed kernel record (warpSize %d; the runtime "
            "runs warps of %d or %d lanes)",
            name, kernel.warpSize, GPUMEM_WARP_SIZE, GPUMEM_MAX_WARP_SIZE);
    return const_cast<GPUMemCPUKernel *>(&kernel);
  }
  fatal("mgpuModuleGetFunction: the module has no kernel '%s'; %s", name,
        kernelList(table).c_str());
}
