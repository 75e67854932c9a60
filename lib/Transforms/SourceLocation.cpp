//===----------------------------------------------------------------------===//
// Source locations as text (gpumem/Transforms/SourceLocation.h).
//===----------------------------------------------------------------------===//

#include "gpumem/Transforms/SourceLocation.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

std::optional<std::string> gpumem::fileLineColumn(Location loc) {
  auto file = loc->findInstanceOf<FileLineColLoc>();
  if (!file)
    return std::nullopt;
  return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
          Twine(file.getColumn()))
      .str();
}
