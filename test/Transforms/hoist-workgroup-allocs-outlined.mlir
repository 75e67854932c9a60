// RUN: gpumem-opt %s -split-input-file -gpumem-hoist-workgroup-allocs | FileCheck %s

// After outlining: a kernel gpu.func gets a workgroup attribution.

// CHECK-LABEL: gpu.module @kernel_func
// CHECK: gpu.func @k(%[[OUT:.*]]: memref<16xf32>) workgroup(%[[T:[a-z0-9_]+]] : memref<16xf32, 3>) kernel
// CHECK-NOT: memref.alloca
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK: memref.load %[[T]]
module attributes {gpu.container_module} {
  gpu.module @kernel_func {
    gpu.func @k(%out: memref<16xf32>) kernel {
      %tx = gpu.thread_id x
      %c15 = arith.constant 15 : index
      %t = memref.alloca() : memref<16xf32, 3>
      %v = memref.load %out[%tx] : memref<16xf32>
      memref.store %v, %t[%tx] : memref<16xf32, 3>
      gpu.barrier
      %r = arith.subi %c15, %tx : index
      %w = memref.load %t[%r] : memref<16xf32, 3>
      memref.store %w, %out[%tx] : memref<16xf32>
      gpu.return
    }
  }
}

// -----

// A device function allocating shared memory, called from two kernels: one
// workgroup global in the gpu.module (per block, like __shared__ in a
// __device__ function); both kernels reach it through the same function.
// The alloc's alignment is kept.

// CHECK-LABEL: gpu.module @device_function
// CHECK: memref.global "private" @__shared_scratch : memref<64xi32, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
// CHECK: gpu.func @first
// CHECK: func.call @scratch
// CHECK: gpu.func @second
// CHECK: func.call @scratch
// CHECK: func.func @scratch
// CHECK-NOT: memref.alloc
// CHECK: %[[G:.*]] = memref.get_global @__shared_scratch : memref<64xi32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[G]]
// CHECK-NOT: memref.dealloc
// CHECK: return
module attributes {gpu.container_module} {
  gpu.module @device_function {
    gpu.func @first(%out: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %v = func.call @scratch(%tx) : (index) -> i32
      memref.store %v, %out[%tx] : memref<64xi32>
      gpu.return
    }
    gpu.func @second(%out: memref<64xi32>) kernel {
      %tx = gpu.thread_id x
      %v = func.call @scratch(%tx) : (index) -> i32
      memref.store %v, %out[%tx] : memref<64xi32>
      gpu.return
    }
    func.func @scratch(%i: index) -> i32 {
      %buf = memref.alloc() {alignment = 16 : i64} : memref<64xi32, #gpu.address_space<workgroup>>
      %c = arith.index_cast %i : index to i32
      memref.store %c, %buf[%i] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %buf[%i] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.dealloc %buf : memref<64xi32, #gpu.address_space<workgroup>>
      return %v : i32
    }
  }
}

// -----

// Two allocations in one device function, in a loop, and a second function
// whose global name would clash: every global gets its own name.

// CHECK-LABEL: gpu.module @names
// CHECK-DAG: memref.global "private" @[[A:__shared_f[_0-9]*]] : memref<8xf32, 3>
// CHECK-DAG: memref.global "private" @[[B:__shared_f[_0-9]*]] : memref<8xi16, 3>
// CHECK-DAG: memref.global "private" @__shared_g : memref<2xf32, 3>
// CHECK: func.func @f
// CHECK: scf.for
// CHECK: memref.get_global @[[A]]
// CHECK: memref.get_global @[[B]]
// CHECK: func.func @g
// CHECK: memref.get_global @__shared_g
module attributes {gpu.container_module} {
  gpu.module @names {
    func.func @f(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = arith.constant 1.0 : f32
      %y = arith.constant 2 : i16
      scf.for %i = %c0 to %n step %c1 {
        %a = memref.alloca() : memref<8xf32, 3>
        %b = memref.alloca() : memref<8xi16, 3>
        memref.store %x, %a[%c0] : memref<8xf32, 3>
        memref.store %y, %b[%c0] : memref<8xi16, 3>
      }
      return
    }
    func.func @g() {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      %a = memref.alloca() : memref<2xf32, 3>
      memref.store %x, %a[%c0] : memref<2xf32, 3>
      return
    }
  }
}

// -----

// A non-kernel gpu.func is a device function too.

// CHECK-LABEL: gpu.module @device_gpu_func
// CHECK: memref.global "private" @__shared_helper : memref<4xf32, 3>
// CHECK: gpu.func @helper()
// CHECK-NOT: workgroup(
// CHECK: memref.get_global @__shared_helper
module attributes {gpu.container_module} {
  gpu.module @device_gpu_func {
    gpu.func @helper() {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      %a = memref.alloca() : memref<4xf32, 3>
      memref.store %x, %a[%c0] : memref<4xf32, 3>
      gpu.return
    }
  }
}
