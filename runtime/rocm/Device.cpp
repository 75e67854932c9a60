//===----------------------------------------------------------------------===//
// Choosing the device and making it current.
//
// The chosen Device is published through an atomic pointer: after the first
// call, entering costs one load and a compare with the calling thread's
// thread_local ordinal. Until then a mutex serialises the choice with
// mgpuSetDefaultDevice. Every object here is constant-initialized and
// trivially destructible, so nothing depends on the order of global
// constructors or destructors.
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Driver.h"
#include "ROCmRuntime.h"
#include "Support.h"

#include "gpumem/Runtime/TargetSelection.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>

using namespace gpumem::rocm;

namespace {

std::mutex choosing;
std::atomic<Device *> chosen{nullptr};
/// mgpuSetDefaultDevice's ordinal, given before the device was chosen; -1
/// when none was.
int requested = -1;
/// The device this runtime last made current on this thread; -1 for none.
thread_local int threadDevice = -1;

/// $GPUMEM_ROCM_DEVICE, or 0 when it is not set.
int ordinalFromEnvironment(int deviceCount) {
  const char *text = std::getenv("GPUMEM_ROCM_DEVICE");
  if (!text || !*text)
    return 0;
  errno = 0;
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || errno != 0 ||
      value >= deviceCount)
    fatal("GPUMEM_ROCM_DEVICE must be a device ordinal in 0..%d, not '%s'",
          deviceCount - 1, text);
  return int(value);
}

int attribute(const HIP &api, hipDeviceAttribute_t attribute,
              const char *attributeName, int ordinal) {
  int value = 0;
  hipError_t result = api.hipDeviceGetAttribute(&value, attribute, ordinal);
  if (result != hipSuccess)
    fatal("hipDeviceGetAttribute(%s) failed for device %d: %s", attributeName,
          ordinal, describe(result).c_str());
  return value;
}

Device *open(const HIP &api, int ordinal) {
  auto *device = new Device{};
  device->ordinal = ordinal;
  check(api.hipSetDevice(ordinal), "hipSetDevice");
  if (api.hipDeviceGetName(device->name, sizeof(device->name), ordinal) !=
          hipSuccess ||
      !device->name[0])
    std::snprintf(device->name, sizeof(device->name), "AMD GPU");
  device->name[sizeof(device->name) - 1] = '\0';
  if (api.getDeviceProperties) {
    // Larger than either layout of hipDeviceProp_t (HIP 5: 792 bytes,
    // HIP 6: 1472), which HIP fills.
    alignas(8) char properties[4096] = {};
    if (api.getDeviceProperties(properties, ordinal) == hipSuccess)
      std::snprintf(device->archName, sizeof(device->archName), "%s",
                    properties + api.archNameOffset);
  }
#define ATTRIBUTE(name, ordinal) attribute(api, name, #name, ordinal)
  device->maxSharedBytesPerBlock =
      ATTRIBUTE(hipDeviceAttributeMaxSharedMemoryPerBlock, ordinal);
  device->wavefrontSize = ATTRIBUTE(hipDeviceAttributeWarpSize, ordinal);
  gpumem::runtime::CUDALaunchLimits &limits = device->launchLimits;
  limits.maxThreadsPerBlock =
      ATTRIBUTE(hipDeviceAttributeMaxThreadsPerBlock, ordinal);
  // The block and grid attributes are consecutive, X then Y then Z.
  for (int d = 0; d < 3; ++d) {
    limits.maxBlock[d] = attribute(api, hipDeviceAttributeMaxBlockDimX + d,
                                   "hipDeviceAttributeMaxBlockDim*", ordinal);
    limits.maxGrid[d] = attribute(api, hipDeviceAttributeMaxGridDimX + d,
                                  "hipDeviceAttributeMaxGridDim*", ordinal);
  }
#undef ATTRIBUTE
  threadDevice = ordinal;
  return device;
}

Device &device() {
  if (Device *device = chosen.load(std::memory_order_acquire))
    return *device;
  const HIP &api = hip();
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

namespace gpumem::rocm {

const Device &enterDevice() {
  Device &current = device();
  if (threadDevice != current.ordinal) {
    check(hip().hipSetDevice(current.ordinal), "hipSetDevice");
    threadDevice = current.ordinal;
  }
  return current;
}

bool enterDeviceForRelease() {
  Device &current = device();
  if (threadDevice == current.ordinal)
    return true;
  hipError_t result = hip().hipSetDevice(current.ordinal);
  if (shutDown(result))
    return false;
  check(result, "hipSetDevice");
  threadDevice = current.ordinal;
  return true;
}

} // namespace gpumem::rocm

extern "C" void mgpuSetDefaultDevice(int32_t ordinal) {
  const HIP &api = hip();
  if (ordinal < 0 || ordinal >= api.deviceCount)
    fatal("mgpuSetDefaultDevice(%d): no such device; this machine has %d "
          "AMD GPU%s (ordinals 0..%d)",
          ordinal, api.deviceCount, api.deviceCount == 1 ? "" : "s",
          api.deviceCount - 1);
  std::lock_guard<std::mutex> lock(choosing);
  if (Device *current = chosen.load(std::memory_order_relaxed)) {
    if (current->ordinal != ordinal)
      fatal("mgpuSetDefaultDevice(%d): the runtime already uses device %d, "
            "chosen at its first call (modules are loaded before main "
            "runs); set GPUMEM_ROCM_DEVICE=%d to choose the device before "
            "that",
            ordinal, current->ordinal, ordinal);
    return;
  }
  requested = ordinal;
}

extern "C" int gpumemRuntimeProbe(char *detail, size_t size) {
  std::string why;
  const gpumem::rocm::HIP *api = gpumem::rocm::probeHIP(why);
  if (!api) {
    snprintf(detail, size, "%s", why.c_str());
    return GPUMEM_DEVICE_NONE;
  }
  snprintf(detail, size, "%d AMD GPU%s", api->deviceCount,
           api->deviceCount == 1 ? "" : "s");
  return GPUMEM_DEVICE_GPU;
}
