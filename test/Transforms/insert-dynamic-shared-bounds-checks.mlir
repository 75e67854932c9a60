// RUN: gpumem-opt %s -split-input-file --pass-pipeline="builtin.module(gpu.module(gpumem-insert-dynamic-shared-bounds-checks))" | FileCheck %s

// A memref.view with a dynamic size: [offset, offset + 4 * n) against the
// launch's bytes, checked before the view.

// CHECK-LABEL: gpu.func @view(
// CHECK-SAME:    %[[OFF:.*]]: index, %[[N:.*]]: index
// CHECK:         %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:         %[[BYTES:.*]] = arith.muli %c4, %[[N]] : index
// CHECK:         %[[END:.*]] = arith.addi %[[OFF]], %[[BYTES]] : index
// CHECK:         %[[SIZE:.*]] = memref.dim %[[DYN]], %c0
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %[[END]], %[[SIZE]] : index
// CHECK:         %[[ORDERED:.*]] = arith.cmpi ule, %[[OFF]], %[[END]] : index
// CHECK:         %[[OK:.*]] = arith.andi %[[FITS]], %[[ORDERED]] : i1
// CHECK:         %[[BAD:.*]] = arith.xori %[[OK]], %true : i1
// CHECK:         scf.if %[[BAD]] {
// CHECK:           %[[LEN:.*]] = arith.subi %[[END]], %[[OFF]] : index
// CHECK:           gpu.printf "gpumem: error: kernel 'view': view of dynamic shared memory at byte offset %llu, size %llu bytes, is past the %llu bytes the launch passed\0A", %[[OFF]], %[[LEN]], %[[SIZE]] : index, index, index
// CHECK:           cf.assert %false, "view of dynamic shared memory out of bounds"
// CHECK:         }
// CHECK:         memref.view %[[DYN]][%[[OFF]]][%[[N]]]
gpu.module @m {
  gpu.func @view(%off: index, %n: index) kernel {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%off][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A subview and a reinterpret_cast: the last byte they reach is
// offset + sum((size - 1) * stride), nothing when a size is 0. A device
// function is named as a function.

// CHECK-LABEL: func.func @strided(
// CHECK:         %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:         arith.cmpi eq, %{{.*}}, %c0
// CHECK:         arith.select
// CHECK:         scf.if
// CHECK:           gpu.printf "gpumem: error: function 'strided': view
// CHECK:         memref.subview %[[DYN]][%{{.*}}] [%{{.*}}] [2]
// CHECK:         scf.if
// CHECK:         memref.reinterpret_cast %[[DYN]] to offset: [16], sizes: [4, 8], strides: [8, 1]
gpu.module @m {
  func.func @strided(%off: index, %n: index) {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.subview %dyn[%off] [%n] [2] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi8, strided<[2], offset: ?>, #gpu.address_space<workgroup>>
    %r = memref.reinterpret_cast %dyn to offset: [16], sizes: [4, 8], strides: [8, 1] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x8xi8, strided<[8, 1], offset: 16>, #gpu.address_space<workgroup>>
    return
  }
}
