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

gpumem::AssertSite gpumem::assertSite(Location loc) {
  while (auto call = dyn_cast<CallSiteLoc>(loc))
    loc = call.getCallee();
  AssertSite site;
  auto setFile = [&](Location at) {
    if (auto file = dyn_cast<FileLineColLoc>(at)) {
      site.file = file.getFilename().str();
      site.line = file.getLine();
    }
  };
  if (auto name = dyn_cast<NameLoc>(loc)) {
    site.function = name.getName().str();
    setFile(name.getChildLoc());
  } else {
    setFile(loc);
  }
  return site;
}
