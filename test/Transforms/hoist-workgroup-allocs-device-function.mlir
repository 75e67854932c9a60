// A device function written at top level, before outlining. Before
// outlining the pass leaves it alone (outlining clones it into the
// gpu.module); after outlining its clone allocates from a workgroup global
// and the host copy, which the host lowering could not convert, is gone.

// RUN: gpumem-opt %s -gpumem-hoist-workgroup-allocs | FileCheck %s --check-prefix=BEFORE
// RUN: gpumem-opt %s -gpumem-hoist-workgroup-allocs -gpu-kernel-outlining -gpumem-hoist-workgroup-allocs | FileCheck %s --check-prefix=AFTER
// The whole pipeline then lowers the host side: no workgroup type is left in
// host code, and the device function's buffer is a .shared global.
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | FileCheck %s --check-prefix=HOST
// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s --check-prefix=PTX

// BEFORE: func.func @block_sum
// BEFORE: memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
// BEFORE: func.func @main
// BEFORE: workgroup(%{{.*}} : memref<8xf32, 3>)

// AFTER-NOT: func.func @block_sum
// AFTER-NOT: func.func @leaf
// AFTER: func.func @main
// AFTER: gpu.launch_func @main_kernel::@main_kernel
// AFTER: gpu.module @main_kernel
// AFTER-DAG: memref.global "private" @__shared_block_sum : memref<32xf32, #gpu.address_space<workgroup>> = uninitialized
// AFTER-DAG: memref.global "private" @__shared_leaf : memref<16xi32, 3> = uninitialized
// AFTER: gpu.func @main_kernel({{.*}}) workgroup(%{{.*}} : memref<8xf32, 3>) kernel
// AFTER-DAG: func.func @block_sum
// AFTER-DAG: memref.get_global @__shared_block_sum
// AFTER-DAG: func.func @leaf
// AFTER-DAG: memref.get_global @__shared_leaf
// AFTER: func.func @host_only

// HOST-NOT: func.func
// HOST: llvm.func @main
// HOST-NOT: llvm.func @block_sum
// HOST: gpu.binary @main_kernel

// PTX-DAG: .shared .align 16 .b8 __shared_block_sum[128];
// PTX-DAG: .shared .align 16 .b8 __shared_leaf[64];
// PTX-DAG: .shared .align 16 .b8 __wg_main_kernel_0[32];
// PTX-NOT: __local_depot

func.func @leaf(%i: index) -> i32 {
  %one = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %flags = memref.alloca() : memref<16xi32, 3>
  memref.store %one, %flags[%i] : memref<16xi32, 3>
  gpu.barrier
  %f = memref.load %flags[%c0] : memref<16xi32, 3>
  return %f : i32
}

func.func @block_sum(%i: index, %v: f32) -> f32 {
  %buf = memref.alloca() : memref<32xf32, #gpu.address_space<workgroup>>
  memref.store %v, %buf[%i] : memref<32xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %c0 = arith.constant 0 : index
  %r = memref.load %buf[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
  %f = func.call @leaf(%i) : (index) -> i32
  %ff = arith.sitofp %f : i32 to f32
  %sum = arith.addf %r, %ff : f32
  return %sum : f32
}

func.func @main(%data: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %own = memref.alloca() : memref<8xf32, 3>
    %v = memref.load %data[%tx] : memref<32xf32>
    %s = func.call @block_sum(%tx, %v) : (index, f32) -> f32
    %c7 = arith.constant 7 : index
    %slot = arith.remui %tx, %c7 : index
    memref.store %s, %own[%slot] : memref<8xf32, 3>
    gpu.barrier
    %o = memref.load %own[%slot] : memref<8xf32, 3>
    memref.store %o, %data[%tx] : memref<32xf32>
    gpu.terminator
  }
  func.call @host_only() : () -> ()
  return
}

// A host function that uses no workgroup memory is untouched.
func.func @host_only() {
  return
}
