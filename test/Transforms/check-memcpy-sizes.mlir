// RUN: gpumem-opt %s -gpumem-check-memcpy-sizes | FileCheck %s

// A copy with a dynamic side compares element counts before it runs and
// reports a mismatch with the copy's location; static copies are left
// alone (the verifier checks them).

// CHECK: memref.global "private" constant @__gpumem_memcpy_at : memref<{{[0-9]+}}xi8> = dense<
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:    %[[DST:.*]]: memref<?x4xf32>, %[[SRC:.*]]: memref<8x4xf32>
// CHECK:         %[[D0:.*]] = memref.dim %[[DST]], %c0
// CHECK:         %[[DN0:.*]] = arith.muli %c1{{.*}}, %[[D0]]
// CHECK:         %[[DN:.*]] = arith.muli %[[DN0]], %c4
// CHECK:         %[[NE:.*]] = arith.cmpi ne, %{{.*}}, %[[DN]] : index
// CHECK:         scf.if %[[NE]] {
// CHECK:           %[[AT:.*]] = memref.get_global @__gpumem_memcpy_at
// CHECK:           %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[AT]]
// CHECK:           func.call @gpumemMemcpySizeMismatch(%{{.*}}, %{{.*}}, %[[P]]) : (i64, i64, index) -> ()
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
