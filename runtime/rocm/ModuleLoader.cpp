//===----------------------------------------------------------------------===//
// mgpuModuleLoad and friends. An HSA code object (an ELF object for
// EM_AMDGPU) goes to hipModuleLoadData. Of a clang offload bundle (code
// objects for several chips), the entry for the device's chip goes, or, when
// it has none, an error names the chips it has and the device's; when HIP
// cannot say the device's chip, the whole bundle goes and HIP chooses. Data
// that is an ELF object for another machine (a cubin, or a gpu.module compiled
// for gpumem's cpu target) is rejected before HIP sees it, with a better
// message than hipErrorInvalidImage. A kernel is looked up in HIP once per
// module and name, when its static LDS size is read too. HIP has no JIT the
// runtime could hand PTX or LLVM IR to, so mgpuModuleLoadJIT is an error.
// Unloading tolerates HIP already shutting down, as at exit.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Driver.h"
#include "Module.h"
#include "ROCmRuntime.h"
#include "Support.h"

#include "gpumem/Runtime/OffloadBundle.h"

#include <cstring>
#include <elf.h>
#include <string>

using namespace gpumem::rocm;

namespace {

/// Rejects ELF objects that are not for AMD GPUs (e_machine EM_AMDGPU).
void checkAMDGPUObject(const unsigned char *data, size_t size) {
  if (size < sizeof(Elf64_Ehdr) || std::memcmp(data, ELFMAG, SELFMAG) != 0)
    return;
  Elf64_Half machine;
  std::memcpy(&machine, data + offsetof(Elf64_Ehdr, e_machine),
              sizeof(machine));
  if (machine == EM_AMDGPU)
    return;
  const char *hint = "";
  if (machine == EM_CUDA)
    hint = "; it is a CUDA binary: run it with libgpumem_cuda_runtime.so";
  else if (machine == EM_X86_64 || machine == EM_AARCH64)
    hint = "; it is a gpu.module compiled for gpumem's cpu target: run it "
           "with libgpumem_cpu_runtime.so";
  fatal("mgpuModuleLoad: the module is an ELF object for machine %u, not an "
        "HSA code object (machine %u)%s",
        unsigned(machine), unsigned(EM_AMDGPU), hint);
}

/// The code object of the bundle `data` for `device`'s chip; the bundle
/// itself when HIP does not say the chip. Exits when the bundle is
/// malformed or has no code object for the chip.
const void *chooseBundleEntry(const void *data, size_t size,
                              const Device &device) {
  std::string error;
  std::vector<gpumem::bundle::Entry> entries =
      gpumem::bundle::read(data, size, error);
  if (entries.empty())
    fatal("mgpuModuleLoad: %s", error.c_str());
  if (!device.archName[0])
    return data;
  std::string chips, list;
  for (const gpumem::bundle::Entry &entry : entries) {
    std::string_view target = gpumem::bundle::amdgpuTargetId(entry.id);
    if (target.empty())
      continue;
    if (gpumem::bundle::runsOn(target, device.archName) && !entry.bytes.empty())
      return entry.bytes.data();
    chips += (chips.empty() ? "" : ", ") + std::string(target);
    list += std::string(target.substr(0, target.find(':'))) + ",";
  }
  std::string_view arch = device.archName;
  list += arch.substr(0, arch.find(':'));
  fatal("mgpuModuleLoad: the module holds code objects for %s, none for "
        "device %d (%s), which is %s; compile for it too, for example with "
        "--chip=%s",
        chips.empty() ? "no AMD chip" : chips.c_str(), device.ordinal,
        device.name, device.archName, list.c_str());
}

} // namespace

extern "C" void *mgpuModuleLoad(void *data, size_t size) {
  if (!data)
    fatal("mgpuModuleLoad: null module data");
  checkAMDGPUObject(static_cast<const unsigned char *>(data), size);
  const Device &device = enterDevice();
  const void *image = data;
  if (gpumem::bundle::isBundle(data, size))
    image = chooseBundleEntry(data, size, device);
  hipModule_t module = nullptr;
  hipError_t result = hip().hipModuleLoadData(&module, image);
  if (result != hipSuccess) {
    std::string hint;
    if (result == hipErrorNoBinaryForGpu || result == hipErrorInvalidImage ||
        result == hipErrorInvalidKernelFile)
      hint = std::string("; was the gpu.module compiled for this device's "
                         "chip") +
             (device.archName[0] ? std::string(", ") + device.archName : "") +
             "?";
    fatal("hipModuleLoadData failed for a module of %zu bytes on device %d "
          "(%s): %s%s",
          size, device.ordinal, device.name, describe(result).c_str(),
          hint.c_str());
  }
  auto *loaded = new Module;
  loaded->module = module;
  return loaded;
}

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  (void)data;
  hip(); // without HIP, the error every entry point gives
  fatal("mgpuModuleLoadJIT (optimization level %d): the rocm runtime has no "
        "JIT; HIP loads HSA code objects, so compile the gpu.module to a "
        "binary (gpu-module-to-binary format=bin)",
        optLevel);
}

extern "C" void mgpuModuleUnload(void *module) {
  auto *loaded = static_cast<Module *>(module);
  if (!loaded)
    return;
  if (enterDeviceForRelease())
    checkRelease(hip().hipModuleUnload(loaded->module), "hipModuleUnload");
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
  enterDevice();
  const HIP &api = hip();
  hipFunction_t function = nullptr;
  hipError_t result = api.hipModuleGetFunction(&function, loaded->module, name);
  if (result != hipSuccess)
    fatal("hipModuleGetFunction failed for kernel '%s': %s", name,
          describe(result).c_str());
  auto kernel = std::make_unique<Kernel>();
  kernel->function = function;
  kernel->name = name;
  // Only for the LDS check before a launch: when HIP cannot say, the check
  // counts the dynamic bytes alone and HIP has the last word.
  int staticShared = 0;
  kernel->staticSharedBytes =
      api.hipFuncGetAttribute(&staticShared,
                              HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                              function) == hipSuccess
          ? staticShared
          : -1;
  Kernel *handle = kernel.get();
  loaded->kernels.emplace(std::string_view(handle->name), std::move(kernel));
  return handle;
}
