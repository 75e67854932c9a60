//===----------------------------------------------------------------------===//
// libdevice on the host. convert-gpu-to-nvvm turns math ops into calls of
// libdevice's __nv_* functions; the NVPTX backend links libdevice. On the
// host, a __nv_F whose libm counterpart F computes the same function (to
// within the two libraries' documented ulp bounds) is renamed to F, and the
// object links libm; __nv_fast_F (approximations on a GPU) becomes the
// accurate F. __nv_rsqrt(f) and __nv_powi(f), which libm lacks, get bodies
// here. docs/cuda-emu.md lists where results may differ from a GPU. The
// mapping itself is the host-kernel layer's (../HostKernel/DeviceLibraries.h).
//
// The only other functions a cuda-emu module may call without defining them
// are the host's malloc and free (CUDA's device heap) and the two CUDA
// runtime entry points NVVM code uses, vprintf and __assertfail, which
// NVVMOps.cpp turns into runtime services.
//===----------------------------------------------------------------------===//

#include "NVVMToCPU.h"

#include "../HostKernel/DeviceLibraries.h"

using namespace mlir;
using namespace gpumem::cudaemu;
using gpumem::hostkernel::MathHelper;

namespace {

/// libdevice functions defined here (see defineLibdeviceHelpers).
constexpr gpumem::hostkernel::DeviceLibraryHelper kHelpers[] = {
    {"__nv_rsqrt", MathHelper::ReciprocalSqrt},
    {"__nv_rsqrtf", MathHelper::ReciprocalSqrt},
    {"__nv_powi", MathHelper::PowerOfInteger},
    {"__nv_powif", MathHelper::PowerOfInteger}};

/// Functions the host provides that NVVM code may call.
constexpr llvm::StringLiteral kHostFunctions[] = {"malloc", "free", "vprintf",
                                                  "__assertfail"};

/// The libm function `libdevice` (a __nv_ name) maps to, or "".
std::string libmCounterpart(StringRef libdevice) {
  StringRef base = libdevice;
  if (!base.consume_front("__nv_"))
    return "";
  base.consume_front("fast_");
  return gpumem::hostkernel::isLibmFunction(base) ? base.str() : "";
}

/// libdevice on the host (DeviceLibraries.h).
gpumem::hostkernel::DeviceLibrary libdevice() {
  gpumem::hostkernel::DeviceLibrary library;
  library.targetName = "cuda-emu";
  library.libmCounterpart = libmCounterpart;
  library.helpers = kHelpers;
  library.hostFunctions = kHostFunctions;
  library.provides =
      "libdevice's math functions, malloc, free, vprintf and __assertfail";
  return library;
}

} // namespace

LogicalResult gpumem::cudaemu::mapLibdeviceCalls(gpu::GPUModuleOp module) {
  return gpumem::hostkernel::mapDeviceLibraryCalls(module, libdevice());
}

LogicalResult gpumem::cudaemu::defineLibdeviceHelpers(gpu::GPUModuleOp module) {
  return gpumem::hostkernel::defineDeviceLibraryHelpers(module, libdevice());
}
