//===----------------------------------------------------------------------===//
// A GPU's device math library on the host (the algorithm is in
// DeviceLibraries.cpp). GPU lowerings call a library the GPU's compiler
// links (NVIDIA's libdevice __nv_*, AMD's ocml __ocml_*); an emulator that
// runs the code on host cores maps each such function to libm's that
// computes the same, and defines the few that libm lacks.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICELIBRARIES_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICELIBRARIES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace gpumem::hostkernel {

/// Whether libm has `name` (double forms, and float forms ending in "f").
bool isLibmFunction(llvm::StringRef name);

/// The helpers libm lacks that GPU libraries have.
enum class MathHelper {
  /// 1 / sqrt(x), in the result's float type.
  ReciprocalSqrt,
  /// x to an i32 power (llvm.powi).
  PowerOfInteger,
};

/// A library function the target defines itself, and which helper it is.
struct DeviceLibraryHelper {
  llvm::StringLiteral name;
  MathHelper helper;
};

/// What a GPU's device library is on the host.
struct DeviceLibrary {
  /// The target diagnostics name ("cuda-emu").
  llvm::StringRef targetName;
  /// The libm function a library function computes the same as, or "".
  llvm::function_ref<std::string(llvm::StringRef)> libmCounterpart;
  /// Library functions the target defines itself (defineDeviceLibraryHelpers).
  llvm::ArrayRef<DeviceLibraryHelper> helpers;
  /// Functions the host or the runtime provides that device code may call.
  llvm::ArrayRef<llvm::StringLiteral> hostFunctions;
  /// What the target provides, for the error on anything else ("libdevice's
  /// math functions, malloc, free, vprintf and __assertfail").
  llvm::StringRef provides;
};

/// Renames `module`'s declarations of library functions to their libm
/// counterparts (calls follow), and checks that every other declared
/// function is a helper, a host function or libm's; the error names the
/// first call of one that is not.
mlir::LogicalResult mapDeviceLibraryCalls(mlir::gpu::GPUModuleOp module,
                                          const DeviceLibrary &library);

/// Gives each of `module`'s declarations of one of `library`'s helpers its
/// helper's body and internal linkage; an error when a declaration's
/// signature is not its helper's (one float, or a float and an i32, to the
/// same float). Called once functions take the thread context.
mlir::LogicalResult defineDeviceLibraryHelpers(mlir::gpu::GPUModuleOp module,
                                               const DeviceLibrary &library);

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_DEVICELIBRARIES_H
