//===----------------------------------------------------------------------===//
// Streams and events of the mgpu* ABI on the CUDA driver: non-blocking
// streams (they do not synchronize with the legacy null stream) and events
// without timing. Destroying either does nothing once the driver is gone
// at exit (enterContextForRelease).
//===----------------------------------------------------------------------===//

#include "CUDARuntime.h"
#include "Device.h"
#include "Driver.h"
#include "Support.h"

using namespace gpumem::cuda;

extern "C" void *mgpuStreamCreate(void) {
  enterContext();
  CUstream stream = nullptr;
  check(driver().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
        "cuStreamCreate");
  return stream;
}

extern "C" void mgpuStreamDestroy(void *stream) {
  if (stream && enterContextForRelease())
    checkRelease(driver().cuStreamDestroy(static_cast<CUstream>(stream)),
                 "cuStreamDestroy");
}

extern "C" void mgpuStreamSynchronize(void *stream) {
  enterContext();
  check(driver().cuStreamSynchronize(static_cast<CUstream>(stream)),
        "cuStreamSynchronize");
}

extern "C" void mgpuStreamWaitEvent(void *stream, void *event) {
  enterContext();
  check(driver().cuStreamWaitEvent(static_cast<CUstream>(stream),
                                   static_cast<CUevent>(event), 0),
        "cuStreamWaitEvent");
}

extern "C" void *mgpuEventCreate(void) {
  enterContext();
  CUevent event = nullptr;
  check(driver().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
        "cuEventCreate");
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  if (event && enterContextForRelease())
    checkRelease(driver().cuEventDestroy(static_cast<CUevent>(event)),
                 "cuEventDestroy");
}

extern "C" void mgpuEventSynchronize(void *event) {
  enterContext();
  check(driver().cuEventSynchronize(static_cast<CUevent>(event)),
        "cuEventSynchronize");
}

extern "C" void mgpuEventRecord(void *event, void *stream) {
  enterContext();
  check(driver().cuEventRecord(static_cast<CUevent>(event),
                               static_cast<CUstream>(stream)),
        "cuEventRecord");
}
