// RUN: gpumem-opt %s -split-input-file -gpumem-move-large-shared-to-dynamic | FileCheck %s

// 64 KiB + 32 bytes of attributions: over the 48 KiB static limit. They
// become views of dynamic shared memory at 16-aligned offsets 0 and 65536,
// and the launch passes 65568 bytes.

// CHECK-LABEL: gpu.module @big
// CHECK: gpu.func @k(%{{.*}}: memref<16384xf32>) kernel
// CHECK-NOT: workgroup(
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[V0:.*]] = memref.view %[[DYN]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf32, #gpu.address_space<workgroup>>
// CHECK: %[[BIG:.*]] = memref.memory_space_cast %[[V0]] : memref<16384xf32, #gpu.address_space<workgroup>> to memref<16384xf32, 3>
// CHECK: %[[C65536:.*]] = arith.constant 65536 : index
// CHECK: %[[SMALL:.*]] = memref.view %[[DYN]][%[[C65536]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[BIG]]
// CHECK: memref.store %{{.*}}, %[[SMALL]]
// CHECK: func.func @main
// CHECK: %[[BYTES:.*]] = arith.constant 65568 : i32
// CHECK: gpu.launch_func @big::@k {{.*}} dynamic_shared_memory_size %[[BYTES]]
module attributes {gpu.container_module} {
  gpu.module @big {
    gpu.func @k(%out: memref<16384xf32>) workgroup(%big : memref<16384xf32, 3>, %small : memref<4xi64, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %out[%tx] : memref<16384xf32>
      memref.store %v, %big[%tx] : memref<16384xf32, 3>
      %i = arith.index_cast %tx : index to i64
      memref.store %i, %small[%c0] : memref<4xi64, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main(%out: memref<16384xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @big::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<16384xf32>)
    return
  }
}

// -----

// 48 KiB exactly fits the static limit: left alone.

// CHECK-LABEL: gpu.module @fits
// CHECK: workgroup(%{{.*}} : memref<12288xf32, 3>)
// CHECK-NOT: gpu.dynamic_shared_memory
// CHECK-NOT: dynamic_shared_memory_size
module attributes {gpu.container_module} {
  gpu.module @fits {
    gpu.func @k() workgroup(%buf : memref<12288xf32, 3>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @fits::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// Offsets follow each buffer's alignment: vector<8xf32> needs 32 bytes, so
// after a 4-byte buffer it starts at 32, not 16.

// CHECK-LABEL: gpu.module @aligned
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: memref.view %[[DYN]][%[[C32]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2048xvector<8xf32>, #gpu.address_space<workgroup>>
// CHECK: %[[BYTES:.*]] = arith.constant 65568 : i32
// CHECK: dynamic_shared_memory_size %[[BYTES]]
module attributes {gpu.container_module} {
  gpu.module @aligned {
    gpu.func @k() workgroup(%small : memref<4xi8, 3>, %big : memref<2048xvector<8xf32>, 3>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @aligned::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// 64 KiB + 4 bytes of attributions next to the kernel's own dynamic data:
// the buffers take [0, 65540), the kernel's gpu.dynamic_shared_memory becomes
// a view starting at the next 16-byte boundary, 65552, whose size is what
// the launch passed, and the launch passes 65552 bytes more.

// CHECK-LABEL: gpu.module @own
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[START:.*]] = arith.constant 65552 : index
// CHECK: %[[ALL:.*]] = memref.dim %[[DYN]], %[[C0]]
// CHECK: %[[OWN:.*]] = arith.subi %[[ALL]], %[[START]] : index
// CHECK: %[[SHIFTED:.*]] = memref.view %[[DYN]][%[[START]]][%[[OWN]]] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SHIFTED]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.dynamic_shared_memory
// CHECK: func.func @main
// CHECK: %[[USER:.*]] = arith.constant 32 : i32
// CHECK: %[[MOVED:.*]] = arith.constant 65552 : i32
// CHECK: %[[SUM:.*]] = arith.addi %[[MOVED]], %[[USER]] : i32
// CHECK: gpu.launch_func @own::@k {{.*}} dynamic_shared_memory_size %[[SUM]]
module attributes {gpu.container_module} {
  gpu.module @own {
    gpu.func @k(%out: memref<8xf32>) workgroup(%big : memref<16384xf32, 3>, %small : memref<1xf32, 3>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %mine = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
      %v = memref.load %big[%tx] : memref<16384xf32, 3>
      memref.store %v, %mine[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
      memref.store %v, %small[%c0] : memref<1xf32, 3>
      gpu.return
    }
  }
  func.func @main(%out: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 32 : i32
    gpu.launch_func @own::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes args(%out : memref<8xf32>)
    return
  }
}

// -----

// Attributions that ask for an alignment keep it in dynamic shared memory:
// the small one after 64 KiB + 4 bytes lands at 66560 (a multiple of 1024),
// dynamic shared memory is aligned to 1024 in the gpu.module, and the
// kernel's own dynamic data follows at the next multiple of it.

// CHECK-LABEL: gpu.module @requested
// CHECK-SAME:  gpumem.dynamic_shared_alignment = 1024 : i64
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[START:.*]] = arith.constant 67584 : index
// CHECK: memref.view %[[DYN]][%[[START]]]
// CHECK: %[[C66560:.*]] = arith.constant 66560 : index
// CHECK: memref.view %[[DYN]][%[[C66560]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: func.func @main
// CHECK: arith.constant 67584 : i32
module attributes {gpu.container_module} {
  gpu.module @requested {
    gpu.func @k(%out: memref<16384xf32>) workgroup(%big : memref<16385xf32, 3>, %small : memref<4xi64, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %out[%tx] : memref<16384xf32>
      memref.store %v, %big[%tx] : memref<16385xf32, 3>
      %i = arith.index_cast %tx : index to i64
      memref.store %i, %small[%c0] : memref<4xi64, #gpu.address_space<workgroup>>
      %own = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %b = arith.constant 7 : i8
      memref.store %b, %own[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main(%out: memref<16384xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @requested::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<16384xf32>)
    return
  }
}
