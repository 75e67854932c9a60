// gpu.dynamic_shared_memory next to a static attribution: the dynamic region
// is an external shared array (CUDA's extern __shared__), placed after the
// static buffers, and ptxas counts only the static 256 bytes. Upstream's
// internal zero-size global became a 1-byte static variable (ptxas: 260
// bytes) that the dynamic data overlapped.

// RUN: gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects ptx - | FileCheck %s
// RUN: %if ptxas %{ gpumem-opt %s --gpumem-cuda-pipeline="chip=sm_90 format=isa" | gpumem-objects smem - | FileCheck %s --check-prefix=SMEM %}

// CHECK: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK-NOT: .shared .align 16 .b8 __dynamic_shmem__0;
// CHECK: .shared .align 16 .b8 __wg_k_0[256];

// SMEM: k::k: 256 bytes shared memory (ptxas -v, sm_90)

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%out: memref<64xf32>) workgroup(%tile : memref<64xf32, 3>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %view = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
      %v = memref.load %out[%tx] : memref<64xf32>
      memref.store %v, %tile[%tx] : memref<64xf32, 3>
      memref.store %v, %view[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %a = memref.load %tile[%tx] : memref<64xf32, 3>
      %b = memref.load %view[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
}
