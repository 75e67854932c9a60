// RUN: gpumem-opt %s -gpumem-check-memcpy-sizes | FileCheck %s

// A copy with a dynamic side compares the sizes in bytes before it runs and
// reports a mismatch with the copy's location; static copies are left
// alone (the verifier checks them).

// CHECK: memref.global "private" constant @__gpumem_memcpy_at : memref<{{[0-9]+}}xi8> = dense<
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:    %[[DST:.*]]: memref<?x4xf32>, %[[SRC:.*]]: memref<8x4xf32>
// The source holds 8 x 4 f32 = 128 bytes; the destination 16 bytes a row.
// CHECK:         %[[SRC_BYTES:.*]] = arith.constant 128 : index
// CHECK:         %[[D0:.*]] = memref.dim %[[DST]], %c0
// CHECK:         %[[DST_BYTES:.*]] = arith.muli %c16, %[[D0]] : index
// CHECK:         %[[NE:.*]] = arith.cmpi ne, %[[SRC_BYTES]], %[[DST_BYTES]] : index
// CHECK:         scf.if %[[NE]] {
// CHECK:           %[[AT:.*]] = memref.get_global @__gpumem_memcpy_at
// CHECK:           %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[AT]]
// CHECK:           %[[S64:.*]] = arith.index_cast %[[SRC_BYTES]] : index to i64
// CHECK:           %[[D64:.*]] = arith.index_cast %[[DST_BYTES]] : index to i64
// CHECK:           func.call @gpumemMemcpySizeMismatch(%[[S64]], %[[D64]], %[[P]]) : (i64, i64, index) -> ()
// CHECK:         }
// CHECK:         gpu.memcpy %[[DST]], %[[SRC]]
// CHECK-LABEL: func.func @static(
// CHECK-NOT:     scf.if
// CHECK:         gpu.memcpy
// CHECK: func.func private @gpumemMemcpySizeMismatch(i64, i64, index)
func.func @dynamic(%dst: memref<?x4xf32>, %src: memref<8x4xf32>) {
  gpu.memcpy %dst, %src : memref<?x4xf32>, memref<8x4xf32>
  return
}

func.func @static(%dst: memref<8xf32>, %src: memref<8xf32>) {
  gpu.memcpy %dst, %src : memref<8xf32>, memref<8xf32>
  return
}
