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
constexpr llvm::StringLiteral kHelpers[] = {
    "__ocml_rsqrt_f32", "__ocml_rsqrt_f64", "__ocml_pown_f32",
    "__ocml_pown_f64"};

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

} // namespace

LogicalResult gpumem::rocmemu::mapOCMLCalls(gpu::GPUModuleOp module) {
  gpumem::hostkernel::DeviceLibrary ocml;
  ocml.targetName = "rocm-emu";
  ocml.libmCounterpart = libmCounterpart;
  ocml.helpers = kHelpers;
  ocml.hostFunctions = kHostFunctions;
  ocml.provides = "ocml's math functions on 32- and 64-bit floats, malloc, "
                  "free and printf";
  return gpumem::hostkernel::mapDeviceLibraryCalls(module, ocml);
}

LogicalResult gpumem::rocmemu::defineOCMLHelpers(gpu::GPUModuleOp module) {
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    StringRef name = func.getName();
    if (!func.isExternal() || !llvm::is_contained(kHelpers, name))
      continue;
    MathHelper helper = name.starts_with("__ocml_pown")
                            ? MathHelper::PowerOfInteger
                            : MathHelper::ReciprocalSqrt;
    if (failed(gpumem::hostkernel::defineMathHelper(func, helper)))
      return failure();
  }
  return success();
}
