//===----------------------------------------------------------------------===//
// Source locations as the text gpumem's messages and runtimes print.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_SOURCELOCATION_H
#define GPUMEM_TRANSFORMS_SOURCELOCATION_H

#include "mlir/IR/Location.h"

#include <optional>
#include <string>

namespace gpumem {

/// "file:line:col" of the first file location in `loc`, or nothing when it
/// has none.
std::optional<std::string> fileLineColumn(mlir::Location loc);

/// The place CUDA's __assertfail names for an assert at `loc`, found as
/// upstream's NVVM lowering of cf.assert finds it: through call sites to
/// the callee, then a file location (the function is unknown) or a name
/// location around one (the name is the function).
struct AssertSite {
  std::string file = "(unknown)";
  unsigned line = 0;
  std::string function = "(unknown)";
};
AssertSite assertSite(mlir::Location loc);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_SOURCELOCATION_H
