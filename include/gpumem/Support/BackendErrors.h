//===----------------------------------------------------------------------===//
// The last net under the located errors: an LLVM fatal error (the
// report_fatal_error of a code generator, "Cannot select", "Do not know how
// to split the result of this operator!") on device code no check of
// gpumem refused becomes one located error line and exit status 1, never
// "LLVM ERROR", a stack dump and SIGABRT. The location is that of the op
// the innermost running pass works on (a gpu.module while its device code
// is lowered, the module while gpu-module-to-binary serializes it), else
// the input file's.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_SUPPORT_BACKENDERRORS_H
#define GPUMEM_SUPPORT_BACKENDERRORS_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class PassManager;
} // namespace mlir

namespace gpumem {

/// Installs the handler (once per process); `input` names the input file
/// for errors outside any pass.
void installBackendErrorHandler(llvm::StringRef input);

/// Makes `pm` record, per thread, the op and pass running, for the handler.
void addBackendErrorLocations(mlir::PassManager &pm);

} // namespace gpumem

#endif // GPUMEM_SUPPORT_BACKENDERRORS_H
