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

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_SOURCELOCATION_H
