//===----------------------------------------------------------------------===//
// The gpumem dialect: its attributes, enums and ops.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_DIALECT_GPUMEM_IR_GPUMEM_H
#define GPUMEM_DIALECT_GPUMEM_IR_GPUMEM_H

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "gpumem/Dialect/GPUMem/IR/GPUMemDialect.h.inc"

#include "gpumem/Dialect/GPUMem/IR/GPUMemEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "gpumem/Dialect/GPUMem/IR/GPUMemAttrs.h.inc"

#define GET_OP_CLASSES
#include "gpumem/Dialect/GPUMem/IR/GPUMemOps.h.inc"

#endif // GPUMEM_DIALECT_GPUMEM_IR_GPUMEM_H
