//===----------------------------------------------------------------------===//
// The gpumem dialect: registration and generated attribute definitions.
//===----------------------------------------------------------------------===//

#include "gpumem/Dialect/GPUMem/IR/GPUMem.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace gpumem;

#include "gpumem/Dialect/GPUMem/IR/GPUMemDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "gpumem/Dialect/GPUMem/IR/GPUMemAttrs.cpp.inc"

void GPUMemDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gpumem/Dialect/GPUMem/IR/GPUMemAttrs.cpp.inc"
      >();
}
