//===----------------------------------------------------------------------===//
// mgpuModuleLoad and friends. A cubin or fatbin goes to cuModuleLoadData;
// PTX goes to cuModuleLoadDataEx with an error log buffer, whose contents
// follow the error message when the JIT fails. Data that is an ELF object
// for another machine (a gpu.module compiled for gpumem's cpu target) is
// rejected before the driver sees it, with a better message than
// CUDA_ERROR_INVALID_IMAGE; a fatbin the driver cannot load is described
// (the chips it holds) next to the device's chip. A kernel is looked up in the
// driver once per module and name, when its static shared memory size and
// dynamic shared memory limit are read too. Unloading tolerates a driver that
// is already shutting down, as at exit.
//===----------------------------------------------------------------------===//

#include "CUDARuntime.h"
#include "Device.h"
#include "Driver.h"
#include "Fatbin.h"
#include "Module.h"
#include "Support.h"

#include <cstdint>
#include <cstring>
#include <elf.h>
#include <string>
#include <vector>

using namespace gpumem::cuda;

namespace {

/// Bytes of JIT error log kept.
constexpr size_t jitLogBytes = 64 << 10;

/// Rejects ELF objects that are not for CUDA (e_machine EM_CUDA).
void checkNotHostObject(const unsigned char *data, size_t size) {
  if (size < sizeof(Elf64_Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0)
    return;
  Elf64_Half machine;
  std::memcpy(&machine, data + offsetof(Elf64_Ehdr, e_machine),
              sizeof(machine));
  if (machine == EM_CUDA)
    return;
  fatal("mgpuModuleLoad: the module is an ELF object for machine %u, not a "
        "CUDA binary (machine %u)%s",
        unsigned(machine), unsigned(EM_CUDA),
        machine == EM_X86_64 || machine == EM_AARCH64
            ? "; it is a gpu.module compiled for gpumem's cpu target: run "
              "it with libgpumem_cpu_runtime.so"
            : "");
}

std::string deviceText(const Device &device) {
  return "device " + std::to_string(device.ordinal) + " (sm_" +
         std::to_string(device.computeMajor) +
         std::to_string(device.computeMinor) + ")";
}

/// A function attribute of `kernel`; exits on error.
int functionAttribute(CUfunction function, CUfunction_attribute attribute,
                      const char *attributeName, const char *kernel) {
  int value = 0;
  CUresult result = driver().cuFuncGetAttribute(&value, attribute, function);
  if (result != CUDA_SUCCESS)
    fatal("cuFuncGetAttribute(%s) failed for kernel '%s': %s", attributeName,
          kernel, describe(result).c_str());
  return value;
}

} // namespace

extern "C" void *mgpuModuleLoad(void *data, size_t size) {
  if (!data)
    fatal("mgpuModuleLoad: null module data");
  checkNotHostObject(static_cast<const unsigned char *>(data), size);
  const Device &device = enterContext();
  CUmodule module = nullptr;
  CUresult result = driver().cuModuleLoadData(&module, data);
  if (result != CUDA_SUCCESS) {
    std::vector<FatbinEntry> entries;
    std::string fatbin =
        readFatbin(static_cast<const unsigned char *>(data), size, entries)
            ? describeFatbin(entries)
            : "";
    fatal("cuModuleLoadData failed for a module of %zu bytes on %s: %s%s%s",
          size, deviceText(device).c_str(), describe(result).c_str(),
          fatbin.empty() ? "" : "; the module is a fatbin of ", fatbin.c_str());
  }
  auto *loaded = new Module;
  loaded->module = module;
  loaded->sanitizerLog = findSanitizerLog(module, data, size);
  return loaded;
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!data)
    fatal("mgpuModuleLoadJIT: null PTX");
  const Device &device = enterContext();
  std::string log(jitLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {&log[0], reinterpret_cast<void *>(uintptr_t(log.size())),
                    reinterpret_cast<void *>(intptr_t(optLevel))};
  CUmodule module = nullptr;
  CUresult result =
      driver().cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS) {
    log.resize(strnlen(log.data(), log.size()));
    while (!log.empty() && (log.back() == '\n' || log.back() == ' '))
      log.pop_back();
    fatal("cuModuleLoadDataEx failed to JIT-compile PTX at optimization "
          "level %d for %s: %s%s%s",
          optLevel, deviceText(device).c_str(), describe(result).c_str(),
          log.empty() ? "; the JIT log is empty" : "; JIT log:\n", log.c_str());
  }
  auto *loaded = new Module;
  loaded->module = module;
  loaded->sanitizerLog = findSanitizerLog(
      module, data, std::strlen(static_cast<const char *>(data)));
  return loaded;
}

extern "C" void mgpuModuleUnload(void *module) {
  auto *loaded = static_cast<Module *>(module);
  if (!loaded)
    return;
  if (enterContextForRelease())
    checkRelease(driver().cuModuleUnload(loaded->module), "cuModuleUnload");
  delete loaded;
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  auto *loaded = static_cast<Module *>(module);
  if (!loaded)
    fatal("mgpuModuleGetFunction: null module (looking for kernel '%s')",
          name ? name : "");
  if (!name)
    fatal("mgpuModuleGetFunction: null kernel name");
  std::lock_guard<std::mutex> lock(loaded->mutex);
  auto found = loaded->kernels.find(std::string_view(name));
  if (found != loaded->kernels.end())
    return found->second.get();
  enterContext();
  CUfunction function = nullptr;
  CUresult result =
      driver().cuModuleGetFunction(&function, loaded->module, name);
  if (result != CUDA_SUCCESS)
    fatal("cuModuleGetFunction failed for kernel '%s': %s", name,
          describe(result).c_str());
  auto kernel = std::make_unique<Kernel>();
  kernel->function = function;
  kernel->name = name;
  kernel->sanitizerLog = loaded->sanitizerLog;
  kernel->staticSharedBytes =
      functionAttribute(function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                        "CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES", name);
  kernel->dynamicSharedLimit = functionAttribute(
      function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
      "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES", name);
  Kernel *handle = kernel.get();
  loaded->kernels.emplace(std::string_view(handle->name), std::move(kernel));
  return handle;
}
