// RUN: gpumem-opt %s -gpumem-pack-dynamic-workgroup-allocs | FileCheck %s

// Dynamic-size buffers join the plan on the dynamic side: %a is live only
// before the barrier, %b and %c after it, together. %b shares %a's bytes
// (both start at the launch's own bytes, aligned), %c starts after %b's end
// only; the total is the larger of the two ends. The barrier the kernel has
// separates %a from both: none is inserted. Each view that may share bytes
// is numbered for initcheck (decision 152).

// CHECK-LABEL: gpu.func @k(
// CHECK-SAME:    %[[N:[^:]*]]: index, %[[BASE:[^:]*]]: index) kernel
// CHECK:         %[[UP:.*]] = arith.addi %[[BASE]], %c15
// CHECK:         %[[A_OFF:.*]] = arith.andi %[[UP]], %c-16
// CHECK:         %[[A_BYTES:.*]] = arith.muli %c4, %[[N]]
// CHECK:         %[[A_END:.*]] = arith.addi %[[A_OFF]], %[[A_BYTES]]
// CHECK:         %[[B_UP:.*]] = arith.addi %[[BASE]], %c15
// CHECK:         %[[B_OFF:.*]] = arith.andi %[[B_UP]], %c-16
// CHECK:         %[[B_END:.*]] = arith.addi %[[B_OFF]], %{{.*}}
// CHECK:         %[[TOTAL:.*]] = arith.maxui %[[A_END]], %[[B_END]]
// CHECK:         %[[C_START:.*]] = arith.maxui %[[BASE]], %[[B_END]]
// CHECK:         %[[C_UP:.*]] = arith.addi %[[C_START]], %c15
// CHECK:         %[[C_OFF:.*]] = arith.andi %[[C_UP]], %c-16
// CHECK:         %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:         memref.view %[[DYN]][%[[A_OFF]]][%[[N]]] {gpumem.shares_bytes = 1 : i32} : {{.*}} to memref<?xi32
// CHECK:         memref.view %[[DYN]][%[[B_OFF]]][%[[N]]] {gpumem.shares_bytes = 2 : i32} : {{.*}} to memref<?xf32
// CHECK:         memref.view %[[DYN]][%[[C_OFF]]][%[[N]]] {gpumem.shares_bytes = 3 : i32} : {{.*}} to memref<?xf32
// CHECK-COUNT-1: gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK-LABEL: func.func @main(
// CHECK:         arith.maxui
// CHECK:         gpu.launch_func @m::@k
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%n: index) kernel {
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      %f = arith.sitofp %v : i32 to f32
      %a = memref.alloca(%n) : memref<?xi32, #gpu.address_space<workgroup>>
      memref.store %v, %a[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %b = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
      %c = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %f, %b[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %f, %c[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
      %x = memref.load %b[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %x, %c[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main(%n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index)
    return
  }
}
