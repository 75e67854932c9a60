//===----------------------------------------------------------------------===//
// Choosing the device and entering its primary context.
//
// The chosen Device is published through an atomic pointer: after the first
// call, entering costs one load and a compare with the calling thread's
// thread_local context. Until then a mutex serialises the choice with
// mgpuSetDefaultDevice. Every object here is constant-initialized and
// trivially destructible (std::mutex is, in libstdc++), so nothing depends
// on the order of global constructors or destructors.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "CUDARuntime.h"
#include "Driver.h"
#include "Support.h"

#include "gpumem/Runtime/TargetSelection.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>

using namespace gpumem::cuda;

namespace {

std::mutex choosing;
std::atomic<Device *> chosen{nullptr};
/// mgpuSetDefaultDevice's ordinal, given before the device was chosen; -1
/// when none was.
int requested = -1;
/// The context this runtime last made current on this thread.
thread_local CUcontext threadContext = nullptr;

/// $GPUMEM_CUDA_DEVICE, or 0 when it is not set.
int ordinalFromEnvironment(int deviceCount) {
  const char *text = std::getenv("GPUMEM_CUDA_DEVICE");
  if (!text || !*text)
    return 0;
  errno = 0;
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || errno != 0 ||
      value >= deviceCount)
    fatal("GPUMEM_CUDA_DEVICE must be a device ordinal in 0..%d, not '%s'",
          deviceCount - 1, text);
  return int(value);
}

Device *open(const Driver &api, int ordinal) {
  auto *device = new Device{};
  device->ordinal = ordinal;
  check(api.cuDeviceGet(&device->device, ordinal), "cuDeviceGet");
  check(api.cuDevicePrimaryCtxRetain(&device->context, device->device),
        "cuDevicePrimaryCtxRetain");
  check(api.cuDeviceGetAttribute(&device->computeMajor,
                                 CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                 device->device),
        "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)");
  check(api.cuDeviceGetAttribute(&device->computeMinor,
                                 CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                 device->device),
        "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)");
  check(api.cuDeviceGetAttribute(
            &device->maxSharedBytesPerBlock,
            CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            device->device),
        "cuDeviceGetAttribute("
        "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)");
  // The launch limits; the block and grid attributes are consecutive.
  gpumem::runtime::CUDALaunchLimits &limits = device->launchLimits;
  int value;
  check(api.cuDeviceGetAttribute(
            &value, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, device->device),
        "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)");
  limits.maxThreadsPerBlock = value;
  for (int d = 0; d < 3; ++d) {
    check(api.cuDeviceGetAttribute(
              &value,
              CUdevice_attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + d),
              device->device),
          "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_*)");
    limits.maxBlock[d] = value;
    check(api.cuDeviceGetAttribute(
              &value,
              CUdevice_attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + d),
              device->device),
          "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_*)");
    limits.maxGrid[d] = value;
  }
  return device;
}

Device &device() {
  if (Device *device = chosen.load(std::memory_order_acquire))
    return *device;
  const Driver &api = driver();
  std::lock_guard<std::mutex> lock(choosing);
  Device *device = chosen.load(std::memory_order_relaxed);
  if (!device) {
    int ordinal =
        requested >= 0 ? requested : ordinalFromEnvironment(api.deviceCount);
    device = open(api, ordinal);
    chosen.store(device, std::memory_order_release);
  }
  return *device;
}

} // namespace

namespace gpumem::cuda {

const Device &enterContext() {
  Device &current = device();
  if (threadContext != current.context) {
    check(driver().cuCtxSetCurrent(current.context), "cuCtxSetCurrent");
    threadContext = current.context;
  }
  return current;
}

bool enterContextForRelease() {
  Device &current = device();
  if (threadContext == current.context)
    return true;
  CUresult result = driver().cuCtxSetCurrent(current.context);
  if (result == CUDA_ERROR_DEINITIALIZED)
    return false;
  check(result, "cuCtxSetCurrent");
  threadContext = current.context;
  return true;
}

} // namespace gpumem::cuda

extern "C" void mgpuSetDefaultDevice(int32_t ordinal) {
  const Driver &api = driver();
  if (ordinal < 0 || ordinal >= api.deviceCount)
    fatal("mgpuSetDefaultDevice(%d): no such device; this machine has %d "
          "CUDA device%s (ordinals 0..%d)",
          ordinal, api.deviceCount, api.deviceCount == 1 ? "" : "s",
          api.deviceCount - 1);
  std::lock_guard<std::mutex> lock(choosing);
  if (Device *current = chosen.load(std::memory_order_relaxed)) {
    if (current->ordinal != ordinal)
      fatal("mgpuSetDefaultDevice(%d): the runtime already uses device %d, "
            "chosen at its first call (modules are loaded before main "
            "runs); set GPUMEM_CUDA_DEVICE=%d to choose the device before "
            "that",
            ordinal, current->ordinal, ordinal);
    return;
  }
  requested = ordinal;
}

extern "C" int gpumemRuntimeProbe(char *detail, size_t size) {
  std::string why;
  const gpumem::cuda::Driver *api = gpumem::cuda::probeDriver(why);
  if (!api) {
    snprintf(detail, size, "%s", why.c_str());
    return GPUMEM_DEVICE_NONE;
  }
  snprintf(detail, size, "%d CUDA device%s", api->deviceCount,
           api->deviceCount == 1 ? "" : "s");
  return GPUMEM_DEVICE_GPU;
}
