//===----------------------------------------------------------------------===//
// A fake CUDA driver for the CUDA runtime tests: a shared library exporting
// the driver symbols the runtime resolves (the real, versioned names such
// as cuMemAlloc_v2, and nothing under the unversioned ones), with scripted
// behaviour. "Device memory" is malloc'ed host memory, so copies and fills
// really happen; a module is the NUL-terminated text given to it, and has a
// kernel for every name that text contains; launches run nothing. A fatbin
// given to cuModuleLoadData is loaded as drivers do: the cubin of the
// device's major revision with the highest minor not above the device's,
// else the newest PTX not newer than the device (which a driver would
// JIT-compile), else CUDA_ERROR_NO_BINARY_FOR_GPU; the chosen entry's
// payload is the module (a compressed one, which the fake does not
// decompress, has every kernel). Calls
// that need a context fail with CUDA_ERROR_INVALID_CONTEXT unless one is
// current on the calling thread, and shared memory limits are enforced as
// drivers do, so the runtime's handling of both is tested, not assumed.
// Every call is recorded for the tests (CUDARuntimeFakeDriver.h).
// Built with GPUMEM_FAKE_CUDA_OLD it lacks cuMemAllocAsync, like a driver
// older than CUDA 11.2; with GPUMEM_FAKE_CUDA_12_1 it lacks the _v2 memory
// hints (cuMemPrefetchAsync_v2, cuMemAdvise_v2), like a driver older than
// CUDA 12.2. Memory hints fail with CUDA_ERROR_INVALID_VALUE outside memory
// from cuMemAllocManaged, as on machines without HMM.
//===----------------------------------------------------------------------===//

#include "CUDARuntimeFakeDriver.h"
#include "DriverTypes.h"
#include "Fatbin.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace gpumem::cuda;

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct FakeContext {
  int device;
};

struct FakeModule;

struct FakeFunction {
  std::string name;
  int staticShared;
  int maxDynamicShared;
  FakeModule *module = nullptr;
};

struct FakeModule {
  std::string image;
  /// From a compressed fatbin entry: every kernel name is found.
  bool everyKernel = false;
  std::map<std::string, FakeFunction *> functions;
  /// Its globals (fakeCudaSetGlobal), by name.
  std::map<std::string, std::vector<unsigned char>> globals;
};

struct FakeStream {
  unsigned flags;
};

struct FakeEvent {
  unsigned flags;
};

constexpr size_t defaultFree = size_t(8) << 30, defaultTotal = size_t(16) << 30;

/// Everything the fake knows. Heap-allocated and never destroyed, so that
/// calls from global destructors at exit still find it.
struct State {
  std::mutex mutex;
  std::vector<FakeCudaCall> calls;
  std::map<std::string, CUresult> failures;
  std::string jitLog;
  size_t memFree = defaultFree, memTotal = defaultTotal;
  int deviceCount = 1;
  int computeMajor = 9, computeMinor = 0;
  int initResult = -1;
  bool initialized = false;
  bool deinitialized = false;
  int maxSharedOptin = 232448;
  std::map<std::string, int> staticShared;
  /// fakeCudaSetGlobal: a global's name, and what each launch writes there.
  std::string globalName;
  std::vector<unsigned char> globalLaunchWrites;
  std::vector<FakeContext *> contexts;
  std::map<uintptr_t, size_t> registered; ///< host registrations
  std::map<uintptr_t, size_t> managed;    ///< cuMemAllocManaged's memory
  int concurrentManagedAccess = 1;
};

State &state() {
  static State *fake = new State;
  return *fake;
}

thread_local FakeContext *currentContext = nullptr;

uint64_t bits(const void *pointer) { return uint64_t(uintptr_t(pointer)); }

/// Records a call; returns what it should return instead of running (the
/// fake is shut down, or told to fail it), or CUDA_SUCCESS to run it.
CUresult record(const char *symbol, std::initializer_list<uint64_t> args,
                const char *text = nullptr) {
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  FakeCudaCall call{};
  std::strncpy(call.symbol, symbol, sizeof(call.symbol) - 1);
  std::copy_n(args.begin(), std::min<size_t>(args.size(), 12), call.args);
  if (text)
    std::strncpy(call.text, text, sizeof(call.text) - 1);
  fake.calls.push_back(call);
  if (fake.deinitialized)
    return CUDA_ERROR_DEINITIALIZED;
  auto failure = fake.failures.find(symbol);
  return failure == fake.failures.end() ? CUDA_SUCCESS : failure->second;
}

/// Sets an out-argument of the last recorded call.
void recordResult(int arg, uint64_t value) {
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  fake.calls.back().args[arg] = value;
}

#define RECORD(...)                                                            \
  if (CUresult early = record(__VA_ARGS__))                                    \
    return early;

#define NEED_CONTEXT()                                                         \
  if (!currentContext)                                                         \
    return CUDA_ERROR_INVALID_CONTEXT;

void markDeinitialized() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().deinitialized = true;
}

CUresult allocate(CUdeviceptr *ptr, size_t bytes) {
  State &fake = state();
  if (!ptr || bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (bytes > fake.memFree)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *ptr = CUdeviceptr(uintptr_t(std::malloc(bytes)));
  return CUDA_SUCCESS;
}

struct ErrorText {
  CUresult result;
  const char *name, *description;
};

const ErrorText errorTexts[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
     "initialization error"},
    {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED",
     "driver shutting down"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
     "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
     "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
     "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT",
     "invalid device context"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX",
     "a PTX JIT compilation failed"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE",
     "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
     "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
    {CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
     "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
     "pointer does not correspond to a registered memory region"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorText *errorText(CUresult result) {
  for (const ErrorText &text : errorTexts)
    if (text.result == result)
      return &text;
  return nullptr;
}

} // namespace

//--- Control and queries ---------------------------------------------------//

FAKE_EXPORT void fakeCudaReset(void) {
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  fake.calls.clear();
  fake.failures.clear();
  fake.jitLog.clear();
  fake.memFree = defaultFree;
  fake.memTotal = defaultTotal;
  fake.computeMajor = 9;
  fake.computeMinor = 0;
  fake.globalName.clear();
  fake.globalLaunchWrites.clear();
}

FAKE_EXPORT int fakeCudaCallLogSize(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return int(state().calls.size());
}

FAKE_EXPORT int fakeCudaCallLogEntry(int index, FakeCudaCall *call) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (index < 0 || size_t(index) >= state().calls.size())
    return 0;
  *call = state().calls[index];
  return 1;
}

FAKE_EXPORT void fakeCudaSetDeviceCount(int count) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().deviceCount = count;
}

FAKE_EXPORT void fakeCudaSetComputeCapability(int major, int minor) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().computeMajor = major;
  state().computeMinor = minor;
}

FAKE_EXPORT void fakeCudaSetInitResult(int result) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().initResult = result;
}

FAKE_EXPORT void fakeCudaFail(const char *symbol, int result) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (result == CUDA_SUCCESS)
    state().failures.erase(symbol);
  else
    state().failures[symbol] = result;
}

FAKE_EXPORT void fakeCudaSetMaxSharedPerBlockOptin(int bytes) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().maxSharedOptin = bytes;
}

FAKE_EXPORT void fakeCudaSetStaticSharedBytes(const char *kernel, int bytes) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().staticShared[kernel] = bytes;
}

FAKE_EXPORT void fakeCudaSetMemInfo(size_t free, size_t total) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().memFree = free;
  state().memTotal = total;
}

FAKE_EXPORT void fakeCudaSetConcurrentManagedAccess(int value) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().concurrentManagedAccess = value;
}

FAKE_EXPORT void fakeCudaSetJitLog(const char *log) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().jitLog = log;
}

FAKE_EXPORT void fakeCudaSetGlobal(const char *name, const void *launchWrites,
                                   size_t bytes) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().globalName = name;
  auto *from = static_cast<const unsigned char *>(launchWrites);
  state().globalLaunchWrites.assign(from, from + bytes);
}

FAKE_EXPORT void fakeCudaSetDeinitialized(int deinitialized) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().deinitialized = deinitialized != 0;
}

FAKE_EXPORT int fakeCudaDeinitialized(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().deinitialized;
}

//--- Initialisation, errors, devices, contexts -----------------------------//

FAKE_EXPORT CUresult cuInit(unsigned flags) {
  RECORD("cuInit", {flags});
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  if (fake.initResult >= 0)
    return fake.initResult;
  if (fake.deviceCount == 0)
    return CUDA_ERROR_NO_DEVICE;
  if (!fake.initialized) {
    fake.initialized = true;
    // Like a real driver, shut down at exit, before the destructors that
    // run from the dynamic loader (those of priority 123 included).
    std::atexit(markDeinitialized);
  }
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  const ErrorText *text = errorText(error);
  *name = text ? text->name : nullptr;
  return text ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error,
                                      const char **description) {
  const ErrorText *text = errorText(error);
  *description = text ? text->description : nullptr;
  return text ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *count) {
  RECORD("cuDeviceGetCount", {});
  *count = state().deviceCount;
  recordResult(0, uint64_t(*count));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  RECORD("cuDeviceGet", {0, uint64_t(ordinal)});
  if (ordinal < 0 || ordinal >= state().deviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *value,
                                          CUdevice_attribute attribute,
                                          CUdevice device) {
  RECORD("cuDeviceGetAttribute", {0, uint64_t(attribute), uint64_t(device)});
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = state().computeMajor;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = state().computeMinor;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = state().maxSharedOptin;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
    *value = state().concurrentManagedAccess;
    return CUDA_SUCCESS;
  // sm_90's launch limits.
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + 1:
    *value = 1024;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + 2:
    *value = 64;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *value = 2147483647;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + 1:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + 2:
    *value = 65535;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *context,
                                              CUdevice device) {
  RECORD("cuDevicePrimaryCtxRetain", {0, uint64_t(device)});
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  if (device < 0 || device >= fake.deviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  auto *created = new FakeContext{device};
  fake.contexts.push_back(created);
  *context = reinterpret_cast<CUcontext>(created);
  fake.calls.back().args[0] = bits(created);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext context) {
  RECORD("cuCtxSetCurrent", {bits(context)});
  currentContext = reinterpret_cast<FakeContext *>(context);
  return CUDA_SUCCESS;
}

//--- Modules and kernels ---------------------------------------------------//

namespace {

/// The entry a driver loads from a fatbin on a device of compute capability
/// major.minor (the CUDA Programming Guide's binary and PTX compatibility):
/// a cubin runs on its own major revision at an equal or higher minor one,
/// and the best fit is the highest such minor; PTX is JIT-compiled for its
/// chip or any newer one, and only without a cubin that fits. An sm_90a
/// image runs only on 9.0. Null when nothing fits.
const FatbinEntry *chooseFatbinEntry(const std::vector<FatbinEntry> &entries,
                                     int major, int minor) {
  unsigned device = unsigned(major * 10 + minor);
  const FatbinEntry *cubin = nullptr, *ptx = nullptr;
  for (const FatbinEntry &entry : entries) {
    if (entry.archSpecific ? entry.sm != device : entry.sm > device)
      continue;
    if (entry.kind == FatbinEntry::Cubin && entry.sm / 10 == unsigned(major) &&
        (!cubin || entry.sm > cubin->sm))
      cubin = &entry;
    if (entry.kind == FatbinEntry::PTX && (!ptx || entry.sm > ptx->sm))
      ptx = &entry;
  }
  return cubin ? cubin : ptx;
}

/// A fatbin's header gives its size; other images end at their NUL.
size_t fatbinSize(const unsigned char *image) {
  uint16_t header;
  uint64_t entries;
  std::memcpy(&header, image + 6, sizeof(header));
  std::memcpy(&entries, image + 8, sizeof(entries));
  return header + entries;
}

} // namespace

FAKE_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  const auto *bytes = static_cast<const unsigned char *>(image);
  // The magic's bytes one at a time, stopping at the first that differs:
  // the images of these tests may be strings shorter than the magic.
  bool fatbin = image != nullptr;
  for (int byte = 0; fatbin && byte < 4; ++byte)
    fatbin = bytes[byte] == ((fatbinMagic >> (8 * byte)) & 0xff);
  std::vector<FatbinEntry> entries;
  if (!fatbin || !readFatbin(bytes, fatbinSize(bytes), entries)) {
    RECORD("cuModuleLoadData", {0, bits(image)},
           static_cast<const char *>(image));
    NEED_CONTEXT();
    auto *loaded = new FakeModule{static_cast<const char *>(image)};
    *module = reinterpret_cast<CUmodule>(loaded);
    recordResult(0, bits(loaded));
    return CUDA_SUCCESS;
  }
  int major, minor;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    major = state().computeMajor;
    minor = state().computeMinor;
  }
  const FatbinEntry *chosen = chooseFatbinEntry(entries, major, minor);
  std::string text = "fatbin: " + describeFatbin(entries);
  RECORD("cuModuleLoadData",
         {0, bits(image), chosen ? chosen->kind : 0, chosen ? chosen->sm : 0,
          chosen && chosen->compressed},
         text.c_str());
  NEED_CONTEXT();
  if (!chosen)
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  auto *loaded = new FakeModule{
      std::string(reinterpret_cast<const char *>(chosen->payload),
                  chosen->payloadSize),
      chosen->compressed};
  *module = reinterpret_cast<CUmodule>(loaded);
  recordResult(0, bits(loaded));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                        unsigned numOptions,
                                        CUjit_option *options,
                                        void **optionValues) {
  uint64_t optLevel = ~uint64_t(0), hasLog = 0, hasLogSize = 0, logSize = 0;
  char *log = nullptr;
  for (unsigned i = 0; i < numOptions; ++i) {
    uint64_t value = bits(optionValues[i]);
    if (options[i] == CU_JIT_OPTIMIZATION_LEVEL)
      optLevel = value;
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER) {
      hasLog = 1;
      log = static_cast<char *>(optionValues[i]);
    }
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) {
      hasLogSize = 1;
      logSize = value;
    }
  }
  CUresult result =
      record("cuModuleLoadDataEx",
             {numOptions, optLevel, hasLog && hasLogSize, logSize, bits(image)},
             static_cast<const char *>(image));
  if (result == CUDA_SUCCESS && !currentContext)
    result = CUDA_ERROR_INVALID_CONTEXT;
  if (result != CUDA_SUCCESS) {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (log && logSize > 0) {
      size_t n = std::min<size_t>(state().jitLog.size(), logSize - 1);
      std::memcpy(log, state().jitLog.data(), n);
      log[n] = '\0';
    }
    return result;
  }
  auto *loaded = new FakeModule{static_cast<const char *>(image)};
  *module = reinterpret_cast<CUmodule>(loaded);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleUnload(CUmodule module) {
  RECORD("cuModuleUnload", {bits(module)});
  auto *loaded = reinterpret_cast<FakeModule *>(module);
  for (auto &entry : loaded->functions)
    delete entry.second;
  delete loaded;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                                         const char *name) {
  RECORD("cuModuleGetFunction", {0, bits(module)}, name);
  auto *loaded = reinterpret_cast<FakeModule *>(module);
  if (!loaded->everyKernel && loaded->image.find(name) == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  FakeFunction *&found = loaded->functions[name];
  if (!found) {
    std::lock_guard<std::mutex> lock(state().mutex);
    auto configured = state().staticShared.find(name);
    int staticShared =
        configured == state().staticShared.end() ? 0 : configured->second;
    found = new FakeFunction{name, staticShared,
                             std::max(0, (48 << 10) - staticShared), loaded};
  }
  *function = reinterpret_cast<CUfunction>(found);
  recordResult(0, bits(found));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *pointer, size_t *bytes,
                                          CUmodule module, const char *name) {
  RECORD("cuModuleGetGlobal_v2", {0, 0, bits(module)}, name);
  NEED_CONTEXT();
  auto *loaded = reinterpret_cast<FakeModule *>(module);
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().globalName != name ||
      loaded->image.find(name) == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  std::vector<unsigned char> &global = loaded->globals[name];
  global.resize(state().globalLaunchWrites.size());
  *pointer = CUdeviceptr(uintptr_t(global.data()));
  *bytes = global.size();
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuFuncGetAttribute(int *value,
                                        CUfunction_attribute attribute,
                                        CUfunction function) {
  RECORD("cuFuncGetAttribute", {0, uint64_t(attribute), bits(function)});
  auto *fn = reinterpret_cast<FakeFunction *>(function);
  if (attribute == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
    *value = fn->staticShared;
  else if (attribute == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    *value = fn->maxDynamicShared;
  else
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuFuncSetAttribute(CUfunction function,
                                        CUfunction_attribute attribute,
                                        int value) {
  RECORD("cuFuncSetAttribute",
         {bits(function), uint64_t(attribute), uint64_t(value)});
  auto *fn = reinterpret_cast<FakeFunction *>(function);
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ||
      value < 0 || int64_t(value) + fn->staticShared > state().maxSharedOptin)
    return CUDA_ERROR_INVALID_VALUE;
  fn->maxDynamicShared = value;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuLaunchKernel(CUfunction function, unsigned gridX,
                                    unsigned gridY, unsigned gridZ,
                                    unsigned blockX, unsigned blockY,
                                    unsigned blockZ, unsigned sharedMemBytes,
                                    CUstream stream, void **params,
                                    void **extra) {
  auto *fn = reinterpret_cast<FakeFunction *>(function);
  RECORD("cuLaunchKernel",
         {bits(function), gridX, gridY, gridZ, blockX, blockY, blockZ,
          sharedMemBytes, bits(stream), bits(params), bits(extra)},
         fn->name.c_str());
  NEED_CONTEXT();
  if (!gridX || !gridY || !gridZ || !blockX || !blockY || !blockZ ||
      uint64_t(blockX) * blockY * blockZ > 1024 ||
      int64_t(sharedMemBytes) > fn->maxDynamicShared)
    return CUDA_ERROR_INVALID_VALUE;
  // The kernel writes its module's global (fakeCudaSetGlobal).
  if (fn->module) {
    std::lock_guard<std::mutex> lock(state().mutex);
    auto global = fn->module->globals.find(state().globalName);
    if (global != fn->module->globals.end())
      global->second = state().globalLaunchWrites;
  }
  return CUDA_SUCCESS;
}

//--- Streams and events ----------------------------------------------------//

FAKE_EXPORT CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  RECORD("cuStreamCreate", {0, flags});
  NEED_CONTEXT();
  auto *created = new FakeStream{flags};
  *stream = reinterpret_cast<CUstream>(created);
  recordResult(0, bits(created));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamDestroy_v2(CUstream stream) {
  RECORD("cuStreamDestroy_v2", {bits(stream)});
  delete reinterpret_cast<FakeStream *>(stream);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamSynchronize(CUstream stream) {
  RECORD("cuStreamSynchronize", {bits(stream)});
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamWaitEvent(CUstream stream, CUevent event,
                                       unsigned flags) {
  RECORD("cuStreamWaitEvent", {bits(stream), bits(event), flags});
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventCreate(CUevent *event, unsigned flags) {
  RECORD("cuEventCreate", {0, flags});
  NEED_CONTEXT();
  auto *created = new FakeEvent{flags};
  *event = reinterpret_cast<CUevent>(created);
  recordResult(0, bits(created));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventDestroy_v2(CUevent event) {
  RECORD("cuEventDestroy_v2", {bits(event)});
  delete reinterpret_cast<FakeEvent *>(event);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventRecord(CUevent event, CUstream stream) {
  RECORD("cuEventRecord", {bits(event), bits(stream)});
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuEventSynchronize(CUevent event) {
  RECORD("cuEventSynchronize", {bits(event)});
  return CUDA_SUCCESS;
}

//--- Memory ----------------------------------------------------------------//

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  RECORD("cuMemAlloc_v2", {0, bytes});
  NEED_CONTEXT();
  CUresult result = allocate(ptr, bytes);
  if (result == CUDA_SUCCESS)
    recordResult(0, *ptr);
  return result;
}

FAKE_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t bytes,
                                       unsigned flags) {
  RECORD("cuMemAllocManaged", {0, bytes, flags});
  NEED_CONTEXT();
  CUresult result = allocate(ptr, bytes);
  if (result == CUDA_SUCCESS) {
    recordResult(0, *ptr);
    std::lock_guard<std::mutex> lock(state().mutex);
    state().managed[uintptr_t(*ptr)] = bytes;
  }
  return result;
}

#ifndef GPUMEM_FAKE_CUDA_OLD
FAKE_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *ptr, size_t bytes,
                                     CUstream stream) {
  RECORD("cuMemAllocAsync", {0, bytes, bits(stream)});
  NEED_CONTEXT();
  CUresult result = allocate(ptr, bytes);
  if (result == CUDA_SUCCESS)
    recordResult(0, *ptr);
  return result;
}
#endif

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr) {
  RECORD("cuMemFree_v2", {ptr});
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().managed.erase(uintptr_t(ptr));
  }
  std::free(reinterpret_cast<void *>(uintptr_t(ptr)));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemFreeAsync(CUdeviceptr ptr, CUstream stream) {
  RECORD("cuMemFreeAsync", {ptr, bits(stream)});
  std::free(reinterpret_cast<void *>(uintptr_t(ptr)));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
  RECORD("cuMemGetInfo_v2", {});
  std::lock_guard<std::mutex> lock(state().mutex);
  *free = state().memFree;
  *total = state().memTotal;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  RECORD("cuMemcpy", {dst, src, bytes});
  NEED_CONTEXT();
  std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
               reinterpret_cast<void *>(uintptr_t(src)), bytes);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                                   size_t bytes, CUstream stream) {
  RECORD("cuMemcpyAsync", {dst, src, bytes, bits(stream)});
  NEED_CONTEXT();
  std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
               reinterpret_cast<void *>(uintptr_t(src)), bytes);
  return CUDA_SUCCESS;
}

namespace {
template <typename T> void fill(CUdeviceptr dst, T value, size_t count) {
  std::fill_n(reinterpret_cast<T *>(uintptr_t(dst)), count, value);
}
} // namespace

FAKE_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short value,
                                    size_t count) {
  RECORD("cuMemsetD16_v2", {dst, value, count});
  NEED_CONTEXT();
  fill(dst, value, count);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value,
                                    size_t count) {
  RECORD("cuMemsetD32_v2", {dst, value, count});
  NEED_CONTEXT();
  fill(dst, value, count);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value,
                                      size_t count, CUstream stream) {
  RECORD("cuMemsetD16Async", {dst, value, count, bits(stream)});
  NEED_CONTEXT();
  fill(dst, value, count);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value,
                                      size_t count, CUstream stream) {
  RECORD("cuMemsetD32Async", {dst, value, count, bits(stream)});
  NEED_CONTEXT();
  fill(dst, value, count);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemHostRegister_v2(void *ptr, size_t bytes,
                                          unsigned flags) {
  RECORD("cuMemHostRegister_v2", {bits(ptr), bytes, flags});
  NEED_CONTEXT();
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  uintptr_t start = uintptr_t(ptr);
  if (!ptr || bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  for (auto &range : fake.registered)
    if (start < range.first + range.second && range.first < start + bytes)
      return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  fake.registered[start] = bytes;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuMemHostUnregister(void *ptr) {
  RECORD("cuMemHostUnregister", {bits(ptr)});
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  if (!fake.registered.erase(uintptr_t(ptr)))
    return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  return CUDA_SUCCESS;
}

//--- Managed memory hints --------------------------------------------------//

namespace {

/// Whether [ptr, ptr + bytes) lies in one managed allocation.
CUresult checkManaged(CUdeviceptr ptr, size_t bytes) {
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  auto next = fake.managed.upper_bound(uintptr_t(ptr));
  if (next == fake.managed.begin())
    return CUDA_ERROR_INVALID_VALUE;
  auto range = std::prev(next);
  if (uintptr_t(ptr) + bytes > range->first + range->second)
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

uint64_t signedBits(int value) { return uint64_t(int64_t(value)); }

} // namespace

#ifndef GPUMEM_FAKE_CUDA_12_1
FAKE_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr ptr, size_t bytes,
                                           CUmemLocation location,
                                           unsigned flags, CUstream stream) {
  RECORD("cuMemPrefetchAsync_v2",
         {ptr, bytes, signedBits(location.type), signedBits(location.id), flags,
          bits(stream)});
  NEED_CONTEXT();
  return checkManaged(ptr, bytes);
}

FAKE_EXPORT CUresult cuMemAdvise_v2(CUdeviceptr ptr, size_t bytes,
                                    CUmem_advise advice,
                                    CUmemLocation location) {
  RECORD("cuMemAdvise_v2",
         {ptr, bytes, signedBits(advice), signedBits(location.type),
          signedBits(location.id)});
  NEED_CONTEXT();
  return checkManaged(ptr, bytes);
}
#endif

FAKE_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr ptr, size_t bytes,
                                        CUdevice device, CUstream stream) {
  RECORD("cuMemPrefetchAsync", {ptr, bytes, signedBits(device), bits(stream)});
  NEED_CONTEXT();
  return checkManaged(ptr, bytes);
}

FAKE_EXPORT CUresult cuMemAdvise(CUdeviceptr ptr, size_t bytes,
                                 CUmem_advise advice, CUdevice device) {
  RECORD("cuMemAdvise", {ptr, bytes, signedBits(advice), signedBits(device)});
  NEED_CONTEXT();
  return checkManaged(ptr, bytes);
}
