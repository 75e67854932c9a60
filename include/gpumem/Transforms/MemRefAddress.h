//===----------------------------------------------------------------------===//
// Where an access of a strided memref lands, built as index arithmetic: the
// element its indices reach, counted from the memref's aligned pointer
// (offset + sum of index_d * stride_d, from memref.extract_strided_metadata),
// and that element's byte address. The sanitizer's checks and the tracking
// of the host's writes share it.
//===----------------------------------------------------------------------===//

#ifndef GPUMEM_TRANSFORMS_MEMREFADDRESS_H
#define GPUMEM_TRANSFORMS_MEMREFADDRESS_H

#include "mlir/IR/Builders.h"

namespace gpumem {

/// The element `indices` reach in the strided `memref`, counted from its
/// aligned pointer; with `lastStride`, also the last dimension's stride.
mlir::Value getLinearElement(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Value memref, mlir::ValueRange indices,
                             mlir::Value *lastStride = nullptr);

/// The byte address (an index) of element `linear` of `memref`, whose
/// elements have `elementBytes` bytes: aligned pointer + linear *
/// elementBytes.
mlir::Value getElementAddress(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::Value memref, mlir::Value linear,
                              int64_t elementBytes);

} // namespace gpumem

#endif // GPUMEM_TRANSFORMS_MEMREFADDRESS_H
