// PTX-level proof that workgroup allocations are real shared memory: each
// case's buffers are .shared arrays of the expected size, nothing is a
// per-thread __local_depot slot cast to shared, and (with ptxas) ptxas -v
// counts the expected bytes for every kernel.

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s --implicit-check-not=cvta.shared --implicit-check-not=cvta.to.shared --implicit-check-not=cvta.local
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects smem - | FileCheck %s --check-prefix=SMEM %}

// No pointer anywhere is converted between the local stack and shared
// memory (--implicit-check-not above).

// SMEM-DAG: main_kernel::main_kernel: 1024 bytes shared memory
// SMEM-DAG: main_kernel_0::main_kernel: 256 bytes shared memory
// SMEM-DAG: main_kernel_1::main_kernel: 2048 bytes shared memory
// SMEM-DAG: main_kernel_2::main_kernel: 384 bytes shared memory
// SMEM-DAG: main_kernel_3::main_kernel: 0 bytes shared memory
// SMEM-DAG: main_kernel_4::main_kernel: 132 bytes shared memory
// SMEM-DAG: twice::first: 512 bytes shared memory
// SMEM-DAG: twice::second: 528 bytes shared memory

module attributes {gpu.container_module} {

func.func @main(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>,
                %ints: memref<64xi64>, %idx: memref<64xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index

  // The seed: a 16x16xf32 alloca in memory space 3 (1024 bytes).
  // CHECK-LABEL: // gpu.binary @main_kernel (sm_90)
  // CHECK: .shared .align 16 .b8 __wg_main_kernel_0[1024];
  // CHECK-NOT: __local_depot
  // CHECK: bar.sync 0
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
    %tile = memref.alloca() : memref<16x16xf32, 3>
    %v = memref.load %a[%ty, %tx] : memref<64x64xf32>
    memref.store %v, %tile[%tx, %ty] : memref<16x16xf32, 3>
    gpu.barrier
    %w = memref.load %tile[%ty, %tx] : memref<16x16xf32, 3>
    memref.store %w, %a[%ty, %tx] : memref<64x64xf32>
    gpu.terminator
  }

  // memref.alloc + memref.dealloc in #gpu.address_space<workgroup> (256 bytes):
  // no device malloc/free.
  // CHECK-LABEL: // gpu.binary @main_kernel_0 (sm_90)
  // CHECK: .shared .align 16 .b8 __wg_main_kernel_0[256];
  // CHECK-NOT: malloc
  // CHECK-NOT: free
  // CHECK-NOT: __local_depot
  // CHECK: bar.sync 0
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %buf = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %v = memref.load %a[%c0, %tx] : memref<64x64xf32>
    memref.store %v, %buf[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c64, %tx : index
    %r1 = arith.subi %r, %c1 : index
    %w = memref.load %buf[%r1] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %a[%c0, %tx] : memref<64x64xf32>
    memref.dealloc %buf : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }

  // Tiled matmul with both tiles allocated inside the K loop: one pair of
  // tiles per block (2 x 1024 bytes), not one per iteration.
  // CHECK-LABEL: // gpu.binary @main_kernel_1 (sm_90)
  // CHECK-DAG: .shared .align 16 .b8 __wg_main_kernel_0[1024];
  // CHECK-DAG: .shared .align 16 .b8 __wg_main_kernel_1[1024];
  // CHECK-NOT: __local_depot
  // CHECK: bar.sync 0
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c4, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
    %row0 = arith.muli %by, %c16 : index
    %row = arith.addi %row0, %ty : index
    %col0 = arith.muli %bx, %c16 : index
    %col = arith.addi %col0, %tx : index
    %zero = arith.constant 0.0 : f32
    %acc = scf.for %kt = %c0 to %c4 step %c1 iter_args(%sum = %zero) -> f32 {
      %ta = memref.alloca() : memref<16x16xf32, 3>
      %tb = memref.alloca() : memref<16x16xf32, 3>
      %k0 = arith.muli %kt, %c16 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      %va = memref.load %a[%row, %ka] : memref<64x64xf32>
      %vb = memref.load %b[%kb, %col] : memref<64x64xf32>
      memref.store %va, %ta[%ty, %tx] : memref<16x16xf32, 3>
      memref.store %vb, %tb[%ty, %tx] : memref<16x16xf32, 3>
      gpu.barrier
      %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %sum) -> f32 {
        %x = memref.load %ta[%ty, %k] : memref<16x16xf32, 3>
        %y = memref.load %tb[%k, %tx] : memref<16x16xf32, 3>
        %p = arith.mulf %x, %y : f32
        %s2 = arith.addf %s, %p : f32
        scf.yield %s2 : f32
      }
      gpu.barrier
      scf.yield %part : f32
    }
    memref.store %acc, %c[%row, %col] : memref<64x64xf32>
    gpu.terminator
  }

  // Two allocations of different element types: 32 x f32 (128 bytes) and
  // 32 x i64 (256 bytes, 8-byte aligned).
  // CHECK-LABEL: // gpu.binary @main_kernel_2 (sm_90)
  // CHECK-DAG: .shared .align 16 .b8 __wg_main_kernel_0[128];
  // CHECK-DAG: .shared .align 16 .b8 __wg_main_kernel_1[256];
  // CHECK-NOT: __local_depot
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %fs = memref.alloca() : memref<32xf32, 3>
    %is = memref.alloc() : memref<32xi64, #gpu.address_space<workgroup>>
    %v = memref.load %a[%c0, %tx] : memref<64x64xf32>
    %i = memref.load %ints[%tx] : memref<64xi64>
    memref.store %v, %fs[%tx] : memref<32xf32, 3>
    memref.store %i, %is[%tx] : memref<32xi64, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c32, %tx : index
    %r1 = arith.subi %r, %c1 : index
    %w = memref.load %fs[%r1] : memref<32xf32, 3>
    %j = memref.load %is[%r1] : memref<32xi64, #gpu.address_space<workgroup>>
    memref.store %w, %a[%c0, %tx] : memref<64x64xf32>
    memref.store %j, %ints[%tx] : memref<64xi64>
    gpu.terminator
  }

  // A private scratch buffer stays per thread: a local array, never shared.
  // CHECK-LABEL: // gpu.binary @main_kernel_3 (sm_90)
  // CHECK-NOT: .shared
  // CHECK: .local .align {{[0-9]+}} .b8 __local_depot{{[0-9]+}}[64];
  // CHECK-NOT: .shared
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %scratch = memref.alloca() : memref<16xf32, #gpu.address_space<private>>
    scf.for %i = %c0 to %c16 step %c1 {
      %v = memref.load %a[%tx, %i] : memref<64x64xf32>
      memref.store %v, %scratch[%i] : memref<16xf32, #gpu.address_space<private>>
    }
    %j = memref.load %idx[%tx] : memref<64xindex>
    %w = memref.load %scratch[%j] : memref<16xf32, #gpu.address_space<private>>
    memref.store %w, %a[%tx, %c0] : memref<64x64xf32>
    gpu.terminator
  }

  // gpu.all_reduce beside a workgroup alloca: the alloca's 128 bytes and
  // the reduction's own one-element buffer (which LLVM makes a scalar) are
  // separate.
  // CHECK-LABEL: // gpu.binary @main_kernel_4 (sm_90)
  // CHECK-DAG: .shared .align 16 .b8 __wg_main_kernel_0[128];
  // CHECK-DAG: .shared .align 16 .f32 __wg_main_kernel_1{{.*}};
  // CHECK-NOT: __local_depot
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<32xf32, 3>
    %v = memref.load %a[%c0, %tx] : memref<64x64xf32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %sum, %s[%tx] : memref<32xf32, 3>
    gpu.barrier
    %r = arith.subi %c32, %tx : index
    %r1 = arith.subi %r, %c1 : index
    %w = memref.load %s[%r1] : memref<32xf32, 3>
    memref.store %w, %a[%c0, %tx] : memref<64x64xf32>
    gpu.terminator
  }

  gpu.launch_func @twice::@first blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%a : memref<64x64xf32>)
  gpu.launch_func @twice::@second blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%a : memref<64x64xf32>)
  return
}

// A device function allocating shared memory, called from two kernels: one
// 512-byte .shared global; the second kernel adds a 4-byte buffer of its own
// (ptxas puts it first; the 16-byte alignment of every buffer puts the
// 512 bytes at offset 16: 528 bytes).
// CHECK-LABEL: // gpu.binary @twice (sm_90)
// CHECK: .shared .align 16 .b8 __shared_exchange[512];
// CHECK-NOT: __local_depot
// CHECK: .entry first
// CHECK: .entry second
// CHECK: .shared .align 16 .f32 __wg_second_0{{.*}};
gpu.module @twice {
  func.func @exchange(%i: index, %v: f32) -> f32 {
    %c127 = arith.constant 127 : index
    %buf = memref.alloca() : memref<128xf32, 3>
    memref.store %v, %buf[%i] : memref<128xf32, 3>
    gpu.barrier
    %j = arith.subi %c127, %i : index
    %w = memref.load %buf[%j] : memref<128xf32, 3>
    return %w : f32
  }
  gpu.func @first(%a: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    %v = memref.load %a[%c0, %tx] : memref<64x64xf32>
    %w = func.call @exchange(%tx, %v) : (index, f32) -> f32
    memref.store %w, %a[%c0, %tx] : memref<64x64xf32>
    gpu.return
  }
  gpu.func @second(%a: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    %flag = memref.alloca() : memref<1xf32, 3>
    %v = memref.load %a[%c0, %tx] : memref<64x64xf32>
    memref.store %v, %flag[%c0] : memref<1xf32, 3>
    gpu.barrier
    %f = memref.load %flag[%c0] : memref<1xf32, 3>
    %w = func.call @exchange(%tx, %f) : (index, f32) -> f32
    memref.store %w, %a[%c0, %tx] : memref<64x64xf32>
    gpu.return
  }
}

}  // module
