//===----------------------------------------------------------------------===//
// The gpumem dialect and its attributes.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_DIALECT_GPUMEM_IR_GPUMEM_H
#define GPUMEM_DIALECT_GPUMEM_IR_GPUMEM_H

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "gpumem/Dialect/GPUMem/IR/GPUMemDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "gpumem/Dialect/GPUMem/IR/GPUMemAttrs.h.inc"

#endif // GPUMEM_DIALECT_GPUMEM_IR_GPUMEM_H
