//===----------------------------------------------------------------------===//
// A fake HIP runtime for the rocm runtime tests: a shared library exporting
// the HIP functions the runtime resolves, with scripted behaviour. "Device
// memory" is malloc'ed host memory, so copies and fills really happen; a
// module is the NUL-terminated text given to it, and has a kernel for every
// name that text contains; launches run nothing but check the LDS they ask
// for against the device's limit. Calls that act on the device fail with
// hipErrorInvalidDevice unless the calling thread chose a device with
// hipSetDevice (stricter than HIP, whose threads start on device 0, so that
// the runtime's handling of threads is tested, not assumed). Memory hints
// fail with hipErrorInvalidValue outside memory from hipMallocManaged.
// Every call is recorded for the tests (ROCmRuntimeFakeHIP.h).
//===----------------------------------------------------------------------===//

#include "ROCmRuntimeFakeHIP.h"
#include "HIPTypes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace gpumem::rocm;

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct FakeFunction {
  std::string name;
  int staticShared;
};

struct FakeModule {
  std::string image;
  std::map<std::string, FakeFunction *> functions;
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
  std::vector<FakeHipCall> calls;
  std::map<std::string, hipError_t> failures;
  size_t memFree = defaultFree, memTotal = defaultTotal;
  int deviceCount = 1;
  int initResult = -1;
  bool initialized = false;
  bool deinitialized = false;
  int maxSharedPerBlock = 65536;
  std::string archName = "gfx90a:sramecc+:xnack-";
  std::map<std::string, int> staticShared;
  std::map<uintptr_t, size_t> registered; ///< host registrations
  std::map<uintptr_t, size_t> managed;    ///< hipMallocManaged's memory
  int concurrentManagedAccess = 1;
  int64_t registeredOffset = 0;
};

State &state() {
  static State *fake = new State;
  return *fake;
}

thread_local int currentDevice = -1;

uint64_t bits(const void *pointer) { return uint64_t(uintptr_t(pointer)); }
uint64_t signedBits(int value) { return uint64_t(int64_t(value)); }

/// Records a call; returns what it should return instead of running (the
/// fake is shut down, or told to fail it), or hipSuccess to run it.
hipError_t record(const char *symbol, std::initializer_list<uint64_t> args,
                  const char *text = nullptr) {
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  FakeHipCall call{};
  std::strncpy(call.symbol, symbol, sizeof(call.symbol) - 1);
  std::copy_n(args.begin(), std::min<size_t>(args.size(), 12), call.args);
  if (text)
    std::strncpy(call.text, text, sizeof(call.text) - 1);
  fake.calls.push_back(call);
  if (fake.deinitialized)
    return hipErrorDeinitialized;
  auto failure = fake.failures.find(symbol);
  return failure == fake.failures.end() ? hipSuccess : failure->second;
}

/// Sets an out-argument of the last recorded call.
void recordResult(int arg, uint64_t value) {
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  fake.calls.back().args[arg] = value;
}

#define RECORD(...)                                                            \
  if (hipError_t early = record(__VA_ARGS__))                                  \
    return early;

#define NEED_DEVICE()                                                          \
  if (currentDevice < 0)                                                       \
    return hipErrorInvalidDevice;

void markDeinitialized() {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().deinitialized = true;
}

hipError_t allocate(void **ptr, size_t bytes) {
  if (!ptr)
    return hipErrorInvalidValue;
  if (bytes > state().memFree)
    return hipErrorOutOfMemory;
  *ptr = std::malloc(bytes);
  return hipSuccess;
}

struct ErrorText {
  hipError_t result;
  const char *name, *description;
};

const ErrorText errorTexts[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorDeinitialized, "hipErrorDeinitialized", "driver shutting down"},
    {hipErrorNoDevice, "hipErrorNoDevice",
     "no ROCm-capable device is detected"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidImage, "hipErrorInvalidImage",
     "device kernel image is invalid"},
    {hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu",
     "no kernel image is available for execution on the device"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorNotFound, "hipErrorNotFound", "named symbol not found"},
    {hipErrorIllegalAddress, "hipErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {hipErrorLaunchOutOfResources, "hipErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {hipErrorHostMemoryAlreadyRegistered, "hipErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {hipErrorHostMemoryNotRegistered, "hipErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure",
     "unspecified launch failure"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
};

const ErrorText *errorText(hipError_t result) {
  for (const ErrorText &text : errorTexts)
    if (text.result == result)
      return &text;
  return nullptr;
}

} // namespace

//--- Control and queries ---------------------------------------------------//

FAKE_EXPORT void fakeHipReset(void) {
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  fake.calls.clear();
  fake.failures.clear();
  fake.memFree = defaultFree;
  fake.memTotal = defaultTotal;
  fake.registeredOffset = 0;
}

FAKE_EXPORT int fakeHipCallLogSize(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return int(state().calls.size());
}

FAKE_EXPORT int fakeHipCallLogEntry(int index, FakeHipCall *call) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (index < 0 || size_t(index) >= state().calls.size())
    return 0;
  *call = state().calls[index];
  return 1;
}

FAKE_EXPORT void fakeHipSetDeviceCount(int count) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().deviceCount = count;
}

FAKE_EXPORT void fakeHipSetInitResult(int result) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().initResult = result;
}

FAKE_EXPORT void fakeHipFail(const char *symbol, int result) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (result == hipSuccess)
    state().failures.erase(symbol);
  else
    state().failures[symbol] = result;
}

FAKE_EXPORT void fakeHipSetMaxSharedPerBlock(int bytes) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().maxSharedPerBlock = bytes;
}

FAKE_EXPORT void fakeHipSetArchName(const char *name) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().archName = name;
}

FAKE_EXPORT void fakeHipSetStaticSharedBytes(const char *kernel, int bytes) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().staticShared[kernel] = bytes;
}

FAKE_EXPORT void fakeHipSetMemInfo(size_t free, size_t total) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().memFree = free;
  state().memTotal = total;
}

FAKE_EXPORT void fakeHipSetConcurrentManagedAccess(int value) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().concurrentManagedAccess = value;
}

FAKE_EXPORT void fakeHipSetRegisteredOffset(int64_t offset) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().registeredOffset = offset;
}

FAKE_EXPORT void fakeHipSetDeinitialized(int deinitialized) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().deinitialized = deinitialized != 0;
}

FAKE_EXPORT int fakeHipDeinitialized(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().deinitialized;
}

//--- Initialisation, errors, devices ---------------------------------------//

FAKE_EXPORT hipError_t hipInit(unsigned flags) {
  RECORD("hipInit", {flags});
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  if (fake.initResult >= 0)
    return fake.initResult;
  // What HIP 5.2 answers on a machine without a GPU (or /dev/kfd).
  if (fake.deviceCount == 0)
    return hipErrorInvalidDevice;
  if (!fake.initialized) {
    fake.initialized = true;
    // Like HIP, shut down at exit, before the destructors that run from the
    // dynamic loader (those of priority 123 included).
    std::atexit(markDeinitialized);
  }
  return hipSuccess;
}

FAKE_EXPORT const char *hipGetErrorName(hipError_t error) {
  const ErrorText *text = errorText(error);
  return text ? text->name : "hipErrorUnknown";
}

FAKE_EXPORT const char *hipGetErrorString(hipError_t error) {
  const ErrorText *text = errorText(error);
  return text ? text->description : "unknown error";
}

FAKE_EXPORT hipError_t hipGetDeviceCount(int *count) {
  RECORD("hipGetDeviceCount", {});
  *count = state().deviceCount;
  recordResult(0, uint64_t(*count));
  return *count ? hipSuccess : hipErrorNoDevice;
}

FAKE_EXPORT hipError_t hipSetDevice(int ordinal) {
  RECORD("hipSetDevice", {signedBits(ordinal)});
  if (ordinal < 0 || ordinal >= state().deviceCount)
    return hipErrorInvalidDevice;
  currentDevice = ordinal;
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipDeviceGetAttribute(int *value,
                                             hipDeviceAttribute_t attribute,
                                             int ordinal) {
  RECORD("hipDeviceGetAttribute", {0, uint64_t(attribute), uint64_t(ordinal)});
  if (ordinal < 0 || ordinal >= state().deviceCount)
    return hipErrorInvalidDevice;
  // An MI200's limits (gfx90a).
  switch (attribute) {
  case hipDeviceAttributeMaxSharedMemoryPerBlock:
    *value = state().maxSharedPerBlock;
    return hipSuccess;
  case hipDeviceAttributeWarpSize:
    *value = 64;
    return hipSuccess;
  case hipDeviceAttributeConcurrentManagedAccess:
    *value = state().concurrentManagedAccess;
    return hipSuccess;
  case hipDeviceAttributeMaxThreadsPerBlock:
  case hipDeviceAttributeMaxBlockDimX:
  case hipDeviceAttributeMaxBlockDimX + 1:
  case hipDeviceAttributeMaxBlockDimX + 2:
    *value = 1024;
    return hipSuccess;
  case hipDeviceAttributeMaxGridDimX:
  case hipDeviceAttributeMaxGridDimX + 1:
  case hipDeviceAttributeMaxGridDimX + 2:
    *value = 2147483647;
    return hipSuccess;
  default:
    return hipErrorInvalidValue;
  }
}

FAKE_EXPORT hipError_t hipDeviceGetName(char *name, int length,
                                        hipDevice_t device) {
  RECORD("hipDeviceGetName", {bits(name), uint64_t(length), uint64_t(device)});
  if (device < 0 || device >= state().deviceCount || length <= 0)
    return hipErrorInvalidValue;
  std::snprintf(name, size_t(length), "Fake AMD GPU %d", device);
  return hipSuccess;
}

/// HIP 5's hipGetDeviceProperties (its hipDeviceProp_t of 792 bytes): only
/// gcnArchName, at byte 396, is filled; an empty arch name fails the call.
FAKE_EXPORT hipError_t hipGetDeviceProperties(void *properties, int device) {
  RECORD("hipGetDeviceProperties", {bits(properties), uint64_t(device)});
  if (device < 0 || device >= state().deviceCount || !properties)
    return hipErrorInvalidValue;
  std::lock_guard<std::mutex> lock(state().mutex);
  if (state().archName.empty())
    return hipErrorInvalidValue;
  std::memset(properties, 0, 792);
  std::snprintf(static_cast<char *>(properties) + 396, 256, "%s",
                state().archName.c_str());
  return hipSuccess;
}

//--- Modules and kernels ---------------------------------------------------//

FAKE_EXPORT hipError_t hipModuleLoadData(hipModule_t *module,
                                         const void *image) {
  RECORD("hipModuleLoadData", {0, bits(image)},
         static_cast<const char *>(image));
  NEED_DEVICE();
  auto *loaded = new FakeModule{static_cast<const char *>(image), {}};
  *module = reinterpret_cast<hipModule_t>(loaded);
  recordResult(0, bits(loaded));
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipModuleUnload(hipModule_t module) {
  RECORD("hipModuleUnload", {bits(module)});
  auto *loaded = reinterpret_cast<FakeModule *>(module);
  for (auto &entry : loaded->functions)
    delete entry.second;
  delete loaded;
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function,
                                            hipModule_t module,
                                            const char *name) {
  RECORD("hipModuleGetFunction", {0, bits(module)}, name);
  auto *loaded = reinterpret_cast<FakeModule *>(module);
  if (loaded->image.find(name) == std::string::npos)
    return hipErrorNotFound;
  FakeFunction *&found = loaded->functions[name];
  if (!found) {
    std::lock_guard<std::mutex> lock(state().mutex);
    auto configured = state().staticShared.find(name);
    found = new FakeFunction{name, configured == state().staticShared.end()
                                       ? 0
                                       : configured->second};
  }
  *function = reinterpret_cast<hipFunction_t>(found);
  recordResult(0, bits(found));
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipFuncGetAttribute(int *value,
                                           hipFunction_attribute attribute,
                                           hipFunction_t function) {
  RECORD("hipFuncGetAttribute", {0, uint64_t(attribute), bits(function)});
  auto *fn = reinterpret_cast<FakeFunction *>(function);
  if (attribute != HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES || fn->staticShared < 0)
    return hipErrorNotSupported;
  *value = fn->staticShared;
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipModuleLaunchKernel(
    hipFunction_t function, unsigned gridX, unsigned gridY, unsigned gridZ,
    unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedMemBytes,
    hipStream_t stream, void **params, void **extra) {
  auto *fn = reinterpret_cast<FakeFunction *>(function);
  RECORD("hipModuleLaunchKernel",
         {bits(function), gridX, gridY, gridZ, blockX, blockY, blockZ,
          sharedMemBytes, bits(stream), bits(params), bits(extra)},
         fn->name.c_str());
  NEED_DEVICE();
  if (!gridX || !gridY || !gridZ || !blockX || !blockY || !blockZ ||
      uint64_t(blockX) * blockY * blockZ > 1024 ||
      int64_t(sharedMemBytes) + std::max(fn->staticShared, 0) >
          state().maxSharedPerBlock)
    return hipErrorInvalidValue;
  return hipSuccess;
}

//--- Streams and events ----------------------------------------------------//

FAKE_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *stream,
                                                unsigned flags) {
  RECORD("hipStreamCreateWithFlags", {0, flags});
  NEED_DEVICE();
  auto *created = new FakeStream{flags};
  *stream = reinterpret_cast<hipStream_t>(created);
  recordResult(0, bits(created));
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipStreamDestroy(hipStream_t stream) {
  RECORD("hipStreamDestroy", {bits(stream)});
  delete reinterpret_cast<FakeStream *>(stream);
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) {
  RECORD("hipStreamSynchronize", {bits(stream)});
  NEED_DEVICE();
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                                          unsigned flags) {
  RECORD("hipStreamWaitEvent", {bits(stream), bits(event), flags});
  NEED_DEVICE();
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *event,
                                               unsigned flags) {
  RECORD("hipEventCreateWithFlags", {0, flags});
  NEED_DEVICE();
  auto *created = new FakeEvent{flags};
  *event = reinterpret_cast<hipEvent_t>(created);
  recordResult(0, bits(created));
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipEventDestroy(hipEvent_t event) {
  RECORD("hipEventDestroy", {bits(event)});
  delete reinterpret_cast<FakeEvent *>(event);
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  RECORD("hipEventRecord", {bits(event), bits(stream)});
  NEED_DEVICE();
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipEventSynchronize(hipEvent_t event) {
  RECORD("hipEventSynchronize", {bits(event)});
  return hipSuccess;
}

//--- Memory ----------------------------------------------------------------//

FAKE_EXPORT hipError_t hipMalloc(void **ptr, size_t bytes) {
  RECORD("hipMalloc", {0, bytes});
  NEED_DEVICE();
  hipError_t result = allocate(ptr, bytes);
  if (result == hipSuccess)
    recordResult(0, bits(*ptr));
  return result;
}

FAKE_EXPORT hipError_t hipMallocManaged(void **ptr, size_t bytes,
                                        unsigned flags) {
  RECORD("hipMallocManaged", {0, bytes, flags});
  NEED_DEVICE();
  hipError_t result = allocate(ptr, bytes);
  if (result == hipSuccess) {
    recordResult(0, bits(*ptr));
    std::lock_guard<std::mutex> lock(state().mutex);
    state().managed[uintptr_t(*ptr)] = bytes;
  }
  return result;
}

FAKE_EXPORT hipError_t hipFree(void *ptr) {
  RECORD("hipFree", {bits(ptr)});
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().managed.erase(uintptr_t(ptr));
  }
  std::free(ptr);
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemGetInfo(size_t *free, size_t *total) {
  RECORD("hipMemGetInfo", {});
  std::lock_guard<std::mutex> lock(state().mutex);
  *free = state().memFree;
  *total = state().memTotal;
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t bytes,
                                 hipMemcpyKind kind) {
  RECORD("hipMemcpy", {bits(dst), bits(src), bytes, uint64_t(kind)});
  NEED_DEVICE();
  std::memmove(dst, src, bytes);
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes,
                                      hipMemcpyKind kind, hipStream_t stream) {
  RECORD("hipMemcpyAsync",
         {bits(dst), bits(src), bytes, uint64_t(kind), bits(stream)});
  NEED_DEVICE();
  std::memmove(dst, src, bytes);
  return hipSuccess;
}

namespace {
template <typename T> void fill(void *dst, T value, size_t count) {
  std::fill_n(static_cast<T *>(dst), count, value);
}
} // namespace

FAKE_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value,
                                    size_t count) {
  RECORD("hipMemsetD16", {bits(dst), value, count});
  NEED_DEVICE();
  fill(dst, value, count);
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dst, int value,
                                    size_t count) {
  RECORD("hipMemsetD32", {bits(dst), uint32_t(value), count});
  NEED_DEVICE();
  fill(dst, value, count);
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dst,
                                         unsigned short value, size_t count,
                                         hipStream_t stream) {
  RECORD("hipMemsetD16Async", {bits(dst), value, count, bits(stream)});
  NEED_DEVICE();
  fill(dst, value, count);
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value,
                                         size_t count, hipStream_t stream) {
  RECORD("hipMemsetD32Async",
         {bits(dst), uint32_t(value), count, bits(stream)});
  NEED_DEVICE();
  fill(dst, value, count);
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipHostRegister(void *ptr, size_t bytes,
                                       unsigned flags) {
  RECORD("hipHostRegister", {bits(ptr), bytes, flags});
  NEED_DEVICE();
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  uintptr_t start = uintptr_t(ptr);
  if (!ptr || bytes == 0)
    return hipErrorInvalidValue;
  for (auto &range : fake.registered)
    if (start < range.first + range.second && range.first < start + bytes)
      return hipErrorHostMemoryAlreadyRegistered;
  fake.registered[start] = bytes;
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipHostUnregister(void *ptr) {
  RECORD("hipHostUnregister", {bits(ptr)});
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  if (!fake.registered.erase(uintptr_t(ptr)))
    return hipErrorHostMemoryNotRegistered;
  return hipSuccess;
}

FAKE_EXPORT hipError_t hipHostGetDevicePointer(void **devicePtr, void *hostPtr,
                                               unsigned flags) {
  RECORD("hipHostGetDevicePointer", {0, bits(hostPtr), flags});
  NEED_DEVICE();
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  auto next = fake.registered.upper_bound(uintptr_t(hostPtr));
  if (next == fake.registered.begin())
    return hipErrorInvalidValue;
  auto range = std::prev(next);
  if (uintptr_t(hostPtr) >= range->first + range->second)
    return hipErrorInvalidValue;
  *devicePtr = static_cast<char *>(hostPtr) + fake.registeredOffset;
  fake.calls.back().args[0] = bits(*devicePtr);
  return hipSuccess;
}

//--- Managed memory hints --------------------------------------------------//

namespace {

/// Whether [ptr, ptr + bytes) lies in one managed allocation.
hipError_t checkManaged(const void *ptr, size_t bytes) {
  State &fake = state();
  std::lock_guard<std::mutex> lock(fake.mutex);
  auto next = fake.managed.upper_bound(uintptr_t(ptr));
  if (next == fake.managed.begin())
    return hipErrorInvalidValue;
  auto range = std::prev(next);
  if (uintptr_t(ptr) + bytes > range->first + range->second)
    return hipErrorInvalidValue;
  return hipSuccess;
}

} // namespace

FAKE_EXPORT hipError_t hipMemPrefetchAsync(const void *ptr, size_t bytes,
                                           int device, hipStream_t stream) {
  RECORD("hipMemPrefetchAsync",
         {bits(ptr), bytes, signedBits(device), bits(stream)});
  NEED_DEVICE();
  return checkManaged(ptr, bytes);
}

FAKE_EXPORT hipError_t hipMemAdvise(const void *ptr, size_t bytes,
                                    hipMemoryAdvise advice, int device) {
  RECORD("hipMemAdvise",
         {bits(ptr), bytes, signedBits(advice), signedBits(device)});
  NEED_DEVICE();
  return checkManaged(ptr, bytes);
}
