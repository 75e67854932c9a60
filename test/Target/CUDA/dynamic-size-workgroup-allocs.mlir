// Dynamic-size workgroup allocations live in the dynamic shared memory
// region (the external array after the static buffers): ptxas counts only
// the static 256 bytes. The kernel takes the launch's own dynamic bytes
// as a trailing parameter (its buffers start after them), which memref.dim
// of gpu.dynamic_shared_memory returns instead of %dynamic_smem_size.

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects smem - | FileCheck %s --check-prefix=SMEM %}

// CHECK: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK: .shared .align 16 .b8 __wg_main_kernel_0[256];
// CHECK-NOT: %dynamic_smem_size
// CHECK-NOT: __local_depot

// SMEM: main_kernel::main_kernel: 256 bytes shared memory (ptxas -v, sm_90)

func.func @main(%n: index, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %st = memref.alloca() : memref<64xf32, #gpu.address_space<workgroup>>
    %a = memref.alloca(%n) : memref<?xi32, #gpu.address_space<workgroup>>
    %b = memref.alloc(%n) : memref<?xi64, #gpu.address_space<workgroup>>
    %v = arith.index_cast %tx : index to i32
    %w = arith.index_cast %tx : index to i64
    %f = arith.uitofp %v : i32 to f32
    memref.store %f, %st[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %v, %a[%tx] : memref<?xi32, #gpu.address_space<workgroup>>
    memref.store %w, %b[%tx] : memref<?xi64, #gpu.address_space<workgroup>>
    gpu.barrier
    %x0 = memref.load %b[%c0] : memref<?xi64, #gpu.address_space<workgroup>>
    %y = memref.load %st[%c1] : memref<64xf32, #gpu.address_space<workgroup>>
    %yi = arith.fptoui %y : f32 to i64
    %x = arith.addi %x0, %yi : i64
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %d = memref.dim %dyn, %c0 : memref<?xi8, #gpu.address_space<workgroup>>
    %di = arith.index_cast %d : index to i64
    %s = arith.addi %x, %di : i64
    memref.store %s, %out[%tx] : memref<?xi64>
    gpu.terminator
  }
  return
}
