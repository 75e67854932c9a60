//===----------------------------------------------------------------------===//
// Streams and events of the mgpu* ABI on HIP: non-blocking streams (they do
// not synchronize with the null stream) and events without timing.
// Destroying either does nothing once HIP is gone at exit
// (enterDeviceForRelease, checkRelease).
//===----------------------------------------------------------------------===//

#include "Device.h"
#include "Driver.h"
#include "ROCmRuntime.h"
#include "Support.h"

using namespace gpumem::rocm;

extern "C" void *mgpuStreamCreate(void) {
  enterDevice();
  hipStream_t stream = nullptr;
  check(hip().hipStreamCreateWithFlags(&stream, hipStreamNonBlocking),
        "hipStreamCreateWithFlags");
  return stream;
}

extern "C" void mgpuStreamDestroy(void *stream) {
  if (stream && enterDeviceForRelease())
    checkRelease(hip().hipStreamDestroy(static_cast<hipStream_t>(stream)),
                 "hipStreamDestroy");
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  enterDevice();
  check(hip().hipStreamSynchronize(static_cast<hipStream_t>(stream)),
        "hipStreamSynchronize");
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  enterDevice();
  check(hip().hipStreamWaitEvent(static_cast<hipStream_t>(stream),
                                 static_cast<hipEvent_t>(event), 0),
        "hipStreamWaitEvent");
}

extern "C" void *mgpuEventCreate(void) {
  enterDevice();
  hipEvent_t event = nullptr;
  check(hip().hipEventCreateWithFlags(&event, hipEventDisableTiming),
        "hipEventCreateWithFlags");
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  if (event && enterDeviceForRelease())
    checkRelease(hip().hipEventDestroy(static_cast<hipEvent_t>(event)),
                 "hipEventDestroy");
}

extern "C" void mgpuEventSynchronize(void *event) {
  enterDevice();
  check(hip().hipEventSynchronize(static_cast<hipEvent_t>(event)),
        "hipEventSynchronize");
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  enterDevice();
  check(hip().hipEventRecord(static_cast<hipEvent_t>(event),
                             static_cast<hipStream_t>(stream)),
        "hipEventRecord");
}
