// RUN: gpumem-opt %s -split-input-file -gpumem-pack-dynamic-workgroup-allocs=reuse=false | FileCheck %s

// Two buffers (i32, then i64) sized by a kernel argument and a value
// computed from it; the launch passes no bytes of its own.

// CHECK-LABEL: gpu.module @m
// CHECK:       gpu.func @k(%[[N:.*]]: index, %[[BASE:.*]]: index) kernel
// CHECK:         %[[M:.*]] = arith.addi %[[N]], %c1
// CHECK:         %[[A_OFF:.*]] = arith.andi {{.*}}, %c-16
// CHECK:         %[[A_BYTES:.*]] = arith.muli %c4, %[[N]]
// CHECK:         %[[A_END:.*]] = arith.addi %[[A_OFF]], %[[A_BYTES]]
// CHECK:         %[[B_UP:.*]] = arith.addi %[[A_END]], %c15
// CHECK:         %[[B_OFF:.*]] = arith.andi %[[B_UP]], %c-16
// CHECK:         %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:         %[[A:.*]] = memref.view %[[DYN]][%[[A_OFF]]][%[[N]]] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi32, #gpu.address_space<workgroup>>
// CHECK:         %[[B:.*]] = memref.view %[[DYN]][%[[B_OFF]]][%[[M]]] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi64, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.dealloc
// CHECK:         memref.store %{{.*}}, %[[A]]
// CHECK:         memref.store %{{.*}}, %[[B]]
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[HN:.*]]: index
// CHECK:         %[[HM:.*]] = arith.addi %[[HN]], %{{.*}}
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : index
// CHECK:         %[[T:.*]] = arith.minui %{{.*}}, %c2147483647
// CHECK:         %[[BYTES:.*]] = arith.index_castui %[[T]] : index to i32
// CHECK:         gpu.launch_func @m::@k {{.*}} dynamic_shared_memory_size %[[BYTES]] args(%[[HN]] : index, %[[ZERO]] : index)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%n: index) kernel {
      %c1 = arith.constant 1 : index
      %m = arith.addi %n, %c1 : index
      %a = memref.alloca(%n) : memref<?xi32, #gpu.address_space<workgroup>>
      %b = memref.alloc(%m) : memref<?xi64, #gpu.address_space<workgroup>>
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      %w = arith.index_cast %tx : index to i64
      memref.store %v, %a[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
      memref.store %w, %b[%tx] : memref<?xi64, #gpu.address_space<workgroup>>
      memref.dealloc %b : memref<?xi64, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main(%n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index)
    return
  }
}

// -----

// The user's bytes come first; a size from the block
// size takes the launch's block size operand on the host; a 2-D buffer with
// one dynamic dimension and the integer memory space gets a cast; an
// explicit alignment of 64 is kept.

// CHECK-LABEL: gpu.module @m
// CHECK:       gpu.func @k(%{{.*}}: memref<?xf32>, %[[BASE:.*]]: index) kernel
// CHECK:         %[[BDX:.*]] = gpu.block_dim x
// CHECK:         %[[UP:.*]] = arith.addi %[[BASE]], %c63
// CHECK:         %[[OFF:.*]] = arith.andi %[[UP]], %c-64
// CHECK:         %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK:         %[[V:.*]] = memref.view %[[DYN]][%[[OFF]]][%[[BDX]]] {gpumem.alignment = 64 : i64} : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x?xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.memory_space_cast %[[V]] : memref<4x?xf32, #gpu.address_space<workgroup>> to memref<4x?xf32, 3>
// memref.dim of the user's dynamic shared memory is the user's bytes.
// CHECK-NOT:     memref.dim
// CHECK:         arith.index_cast %[[BASE]] : index to i32
// CHECK-LABEL: func.func @main(
// CHECK:         %[[USER:.*]] = arith.constant 100 : i32
// CHECK:         %[[UI:.*]] = arith.index_castui %[[USER]] : i32 to index
// CHECK:         %[[UUP:.*]] = arith.addi %[[UI]], %c63
// CHECK:         %[[HOFF:.*]] = arith.andi %[[UUP]], %c-64
// CHECK:         arith.muli %c16, %[[THREADS:.*]] : index
// CHECK:         gpu.launch_func @m::@k blocks in (%{{.*}}) threads in (%[[THREADS]], %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%{{.*}} : memref<?xf32>, %[[UI]] : index)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xf32>) kernel {
      %bd = gpu.block_dim x
      %t = memref.alloca(%bd) {alignment = 64 : i64} : memref<4x?xf32, 3>
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %v = memref.load %t[%c0, %tx] : memref<4x?xf32, 3>
      memref.store %v, %out[%tx] : memref<?xf32>
      %user = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %n = memref.dim %user, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
      %nf = arith.index_cast %n : index to i32
      %nff = arith.sitofp %nf : i32 to f32
      memref.store %nff, %out[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<?xf32>, %threads: index) {
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : i32
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%threads, %c1, %c1) dynamic_shared_memory_size %c100 args(%out : memref<?xf32>)
    return
  }
}

// -----

// A kernel that starts with its dynamic-size allocations (the pass's
// insertion point is the first of them, erased last).

// CHECK-LABEL: gpu.module @first
// CHECK:       gpu.func @k(%[[N:.*]]: index, %{{.*}}: memref<?xf32>, %{{.*}}: index) kernel
// CHECK:         memref.view {{.*}} to memref<?xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.view {{.*}} to memref<?xi32, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.alloca
module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @k(%n: index, %out: memref<?xf32>) kernel {
      %a = memref.alloca(%n) : memref<?xf32, #gpu.address_space<workgroup>>
      %b = memref.alloca(%n) : memref<?xi32, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
      %w = memref.load %b[%c0] : memref<?xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main(%n: index, %out: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @first::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : index, %out : memref<?xf32>)
    return
  }
}
