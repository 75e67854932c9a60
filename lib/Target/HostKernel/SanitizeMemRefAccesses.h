//===----------------------------------------------------------------------===//
// --sanitize on memref accesses (the algorithm is in
// SanitizeMemRefAccesses.cpp): the one instrumentation of every target
// whose kernels run on host cores. The cpu target runs it on its kernels
// once they take the thread context; cuda-emu and rocm-emu run it before
// their NVVM or ROCDL lowering, calling functions that
// lowerDeviceModuleToHost binds to the same runtime services, so the three
// find the same bugs with the same words and lines.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_LIB_TARGET_HOSTKERNEL_SANITIZEMEMREFACCESSES_H
#define GPUMEM_LIB_TARGET_HOSTKERNEL_SANITIZEMEMREFACCESSES_H

#include "HostCode.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <cstdint>
#include <optional>

namespace gpumem::hostkernel {

/// How instrumented code reaches the runtime's sanitizer services.
enum class SanitizerCalls {
  /// Functions take the thread context last (after
  /// gpumem-lower-gpu-to-cpu-abi): the services are called through it.
  ThroughContext,
  /// Before a GPU dialect's lowering: calls of the external functions
  /// named by sanitizerFunctionPrefix, which lowerDeviceModuleToHost binds
  /// to the services once functions take the context. Addresses of
  /// workgroup memory are pointers in address space 3 (NVVM's shared and
  /// AMDGPU's LDS space), so that a target whose shared pointers are
  /// offsets turns them into addresses.
  ThroughFunctions,
};

/// Names of the functions SanitizerCalls::ThroughFunctions calls:
/// the prefix followed by the service ("accessError", "sharedAccess",
/// "deviceAccess"), and "accessErrorShared" for accessError with a
/// workgroup view's address.
inline constexpr llvm::StringLiteral kSanitizerFunctionPrefix =
    "__gpumem_sanitizer_";

/// The runtime service a ThroughFunctions call of `name` stands for.
std::optional<RuntimeService> getSanitizerService(llvm::StringRef name);

/// The key of the location metadata (a FusedLoc's dictionary) that marks
/// an access already checked by memref, with the access's words ("load
/// from memref<4xf32>"): the checks by address skip its races and
/// uninitialized reads, check only where its address lies, and report in
/// those words.
inline constexpr llvm::StringLiteral kCheckedByMemRefMark =
    "gpumem.checked_by_memref";

/// The words of an access marked kCheckedByMemRefMark at `loc`, if it is.
std::optional<llvm::StringRef> isCheckedByMemRef(mlir::Location loc);

/// The attribute that marks an access whose indices are known to be inside
/// its memref (VersionBoundsChecks.cpp of the cpu target proves it for a
/// whole block before running a copy of its code): memcheck neither checks
/// its indices nor asks where its address lies; racecheck and initcheck
/// still see it.
inline constexpr llvm::StringLiteral kInBoundsMark =
    "gpumem.sanitizer.in_bounds";

/// A memref access the sanitizer checks: its memref, its indices, the
/// elements it touches along the last dimension, and how a report
/// describes it ("load from").
struct MemRefAccess {
  mlir::Value memref;
  mlir::ValueRange indices;
  int64_t lastExtent = 1;
  const char *verb;
};

/// `op` as an access to check (memref.load, memref.store,
/// memref.atomic_rmw, memref.generic_atomic_rmw, vector.load,
/// vector.store); nullopt for any other op.
std::optional<MemRefAccess> describeMemRefAccess(mlir::Operation *op);

/// Instruments every memref.load, memref.store, memref.atomic_rmw,
/// memref.generic_atomic_rmw, vector.load and vector.store in the
/// functions of `module` for the GPUMemCheck flags `checks`.
void instrumentMemRefAccesses(mlir::gpu::GPUModuleOp module, int32_t checks,
                              SanitizerCalls calls);

} // namespace gpumem::hostkernel

#endif // GPUMEM_LIB_TARGET_HOSTKERNEL_SANITIZEMEMREFACCESSES_H
