//===----------------------------------------------------------------------===//
// AMD's ocml on the host, for the rocm-emu target. convert-gpu-to-rocdl
// turns math ops into calls of ocml's __ocml_F_f32 and __ocml_F_f64; the
// AMDGPU backend links ocml's bitcode. On the host, __ocml_F_f64 becomes
// libm's F and __ocml_F_f32 libm's Ff where libm has F (to within the two
// libraries' documented ulp bounds); __ocml_rsqrt_* (1 / sqrt) and
// __ocml_pown_* (an i32 power), which libm lacks, get bodies here. Half
// forms (_f16) and other ocml functions are refused at their call. The
// mapping itself is the host-kernel layer's
// (../HostKernel/DeviceLibraries.h).
//
// The only other function a rocm-emu module may call without defining it
// is the host's malloc and free (the device heap); HIP's printf
// (__ockl_printf_*) is ROCDLOps.cpp's.
//===----------------------------------------------------------------------===//

#include "ROCDLToCPU.h"

#include "../HostKernel/DeviceLibraries.h"

using namespace mlir;
using gpumem::hostkernel::MathHelper;

namespace {

/// ocml functions defined here (see defineOCMLHelpers).
constexpr gpumem::hostkernel::DeviceLibraryHelper kHelpers[] = {
    {"__ocml_rsqrt_f32", MathHelper::ReciprocalSqrt},
    {"__ocml_rsqrt_f64", MathHelper::ReciprocalSqrt},
    {"__ocml_pown_f32", MathHelper::PowerOfInteger},
    {"__ocml_pown_f64", MathHelper::PowerOfInteger}};

/// Functions the host or the runtime provides that ROCDL code may call.
constexpr llvm::StringLiteral kHostFunctions[] = {
    "malloc", "free", "__ockl_printf_begin", "__ockl_printf_append_string_n",
    "__ockl_printf_append_args"};

/// The libm function `ocml` (an __ocml_ name) maps to, or "".
std::string libmCounterpart(StringRef ocml) {
  StringRef base = ocml;
  if (!base.consume_front("__ocml_"))
    return "";
  std::string libm;
  if (base.consume_back("_f64"))
    libm = base.str();
  else if (base.consume_back("_f32"))
    libm = (base + "f").str();
  else
    return "";
  return gpumem::hostkernel::isLibmFunction(libm) ? libm : "";
}

/// ocml on the host (DeviceLibraries.h).
gpumem::hostkernel::DeviceLibrary ocml() {
  gpumem::hostkernel::DeviceLibrary library;
  library.targetName = "rocm-emu";
  library.libmCounterpart = libmCounterpart;
  library.helpers = kHelpers;
  library.hostFunctions = kHostFunctions;
  library.provides = "ocml's math functions on 32- and 64-bit floats, "
                     "malloc, free and printf";
  return library;
}

} // namespace

LogicalResult gpumem::rocmemu::mapOCMLCalls(gpu::GPUModuleOp module) {
  return gpumem::hostkernel::mapDeviceLibraryCalls(module, ocml());
}

LogicalResult gpumem::rocmemu::defineOCMLHelpers(gpu::GPUModuleOp module) {
  return gpumem::hostkernel::defineDeviceLibraryHelpers(module, ocml());
}
