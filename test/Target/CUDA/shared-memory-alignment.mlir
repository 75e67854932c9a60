// The alignment a program asks for reaches the PTX: a workgroup alloca's
// `alignment` (through hoisting, outlining and the planner's arena, which
// takes the most demanding alignment of its buffers), a device function's
// workgroup buffer, and dynamic shared memory, aligned to what a
// dynamic-size alloca and a view's memref.assume_alignment ask for. Upstream
// MLIR 22 dropped the alloca's alignment (`.shared .align 16`).

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects smem - | FileCheck %s --check-prefix=SMEM %}

// CHECK-DAG: .shared .align 256 .b8 __shared_device{{.*}}[64];
// CHECK-DAG: .extern .shared .align 512 .b8 __dynamic_shmem__0[];
// CHECK-DAG: .shared .align 1024 .b8 __wg_main_kernel_0[{{[0-9]+}}];
// CHECK-DAG: .shared .align 128 .b8 __wg_main_kernel_1[64];

// SMEM: main_kernel::main_kernel: {{[0-9]+}} bytes shared memory (ptxas -v, sm_90)

module attributes {gpu.container_module} {
  func.func private @device(%t: index) -> f32 {
    %g = memref.alloca() {alignment = 256 : i64} : memref<16xf32, #gpu.address_space<workgroup>>
    %f = arith.constant 1.0 : f32
    memref.store %f, %g[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %v = memref.load %g[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    return %v : f32
  }

  func.func @main(%out: memref<32xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %bytes = arith.constant 64 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %bytes {
      %c0 = arith.constant 0 : index
      %f = arith.constant 2.0 : f32
      // Live apart: they share the arena, aligned to 1024.
      %a = memref.alloca() {alignment = 64 : i64} : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %f, %a[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %a[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %b = memref.alloca() {alignment = 1024 : i64} : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %b[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %b[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      // Kept apart: its address is taken.
      %k = memref.alloca() {alignment = 128 : i64} : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %y, %k[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
      %pk = memref.extract_aligned_pointer_as_index %k : memref<16xf32, #gpu.address_space<workgroup>> -> index
      %e = memref.alloca(%n) {alignment = 512 : i64} : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %y, %e[%tx] : memref<?xf32, #gpu.address_space<workgroup>>
      %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %view = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
      %u = memref.assume_alignment %view, 256 : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %y, %u[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
      %d = func.call @device(%tx) : (index) -> f32
      %z = memref.load %e[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
      %w = memref.load %u[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %z, %w : f32
      %s2 = arith.addf %s, %d : f32
      %pi = arith.index_cast %pk : index to i32
      %pf = arith.sitofp %pi : i32 to f32
      %s3 = arith.addf %s2, %pf : f32
      memref.store %s3, %out[%tx] : memref<32xf32>
      gpu.terminator
    }
    return
  }
}
